package reportview_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// variantCases are generated and hand-made traces at the edges: no steps,
// zero durations, one event, a 2021 bare array; and with ../shared a
// CPU-only real trace, the 132k-event owlv2 trace (more events than the
// page holds), DLRM's rank 0 (NCCL on four streams) and the 2021 resnet50
// run (K1, six steps, input-bound, memory records).
func variantCases(t *testing.T) []traceCase {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var nosteps bytes.Buffer
	if _, err := gen.Write(&nosteps, gen.Config{Steps: 4, Layers: 1}); err != nil {
		t.Fatal(err)
	}
	noStepsJSON := regexp.MustCompile(`"ProfilerStep#(\d+)"`).ReplaceAll(nosteps.Bytes(), []byte(`"step_$1"`))
	sample, err := os.ReadFile(filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	zero := regexp.MustCompile(`"dur": *[0-9.]+`).ReplaceAll(sample, []byte(`"dur": 0`))
	cs := []traceCase{
		{name: "no-steps", path: write("nosteps.json", noStepsJSON)},
		{name: "zero-durations", path: write("zero.json", zero)},
		{name: "one-event", path: write("one.json", []byte(`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":5,"dur":2}]}`))},
		{name: "no-events", path: write("none.json", []byte(`{"traceEvents":[]}`))},
		{name: "k1-bare-array", path: filepath.Join(testenv.Root(), "testdata", "quirks", "k1_bare_array.json")},
	}
	if d, ok := testenv.SharedDir(); ok {
		tr := filepath.Join(d, "traces")
		cs = append(cs, traceCase{name: "cpu-only", path: filepath.Join(tr, "HTA__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz")},
			traceCase{name: "owlv2-h100", path: filepath.Join(tr, "TraceLens__h100__google_owlv2-large-patch14-ensemble__1016001.json.gz")},
			traceCase{name: "dlrm-v100", path: filepath.Join(tr, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz")},
			traceCase{name: "resnet50-2021", path: filepath.Join(tr, "kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz")})
	}
	return cs
}

// TestPageIsSelfContained: the page parses without an error, every
// element that opens is closed in order, ids are unique, and nothing in it
// refers to anything outside it: no http:// or https:// in an attribute,
// no element that loads a resource (link, img, iframe, ...), no src or
// href, no url() or @import in the CSS, no fetch in the script. Text and
// the data (names as the trace wrote them) may say what they like.
func TestPageIsSelfContained(t *testing.T) {
	cases := append(pageCases(t), variantCases(t)...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := buildReport(t, c)
			page, err := os.ReadFile(b.html)
			if err != nil {
				t.Fatal(err)
			}
			checkWellFormed(t, page)
			if _, err := html.Parse(bytes.NewReader(page)); err != nil {
				t.Fatalf("html.Parse: %v", err)
			}
			if len(page) > 8<<20 {
				t.Errorf("the page is %d bytes", len(page))
			}
		})
	}
}

var (
	voidElems = map[atom.Atom]bool{atom.Meta: true, atom.Br: true, atom.Hr: true, atom.Img: true, atom.Input: true, atom.Link: true, atom.Col: true}
	loaders   = map[atom.Atom]bool{atom.Link: true, atom.Img: true, atom.Iframe: true, atom.Object: true, atom.Embed: true, atom.Base: true,
		atom.Audio: true, atom.Video: true, atom.Source: true, atom.Frame: true, atom.Image: true}
	netRef = regexp.MustCompile(`(?i)\b(https?:)?//[a-z0-9.-]+\.[a-z]{2,}|\burl\(|@import|\bfetch\(|XMLHttpRequest|import\(|new WebSocket|sendBeacon`)
)

// checkWellFormed walks the page's tokens.
func checkWellFormed(t *testing.T, page []byte) {
	t.Helper()
	z := html.NewTokenizer(bytes.NewReader(page))
	var stack []string
	ids := map[string]bool{}
	scripts, svgs := 0, 0
	inScript, inStyle, jsonScript := false, false, false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				t.Fatalf("tokenizer: %v", z.Err())
			}
			break
		}
		tok := z.Token()
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			if loaders[tok.DataAtom] {
				t.Errorf("<%s> loads a resource", tok.Data)
			}
			seen := map[string]bool{}
			for _, a := range tok.Attr {
				if seen[a.Key] {
					t.Errorf("<%s> has %s twice", tok.Data, a.Key)
				}
				seen[a.Key] = true
				if a.Key == "src" || a.Key == "href" || a.Key == "xlink:href" || a.Key == "srcset" || a.Key == "action" {
					t.Errorf("<%s %s=%q>", tok.Data, a.Key, a.Val)
				}
				if strings.Contains(a.Val, "http://") || strings.Contains(a.Val, "https://") || netRef.MatchString(a.Val) && a.Key == "style" {
					t.Errorf("<%s %s=%q> refers outside the page", tok.Data, a.Key, a.Val)
				}
				if a.Key == "id" {
					if ids[a.Val] {
						t.Errorf("id %q twice", a.Val)
					}
					ids[a.Val] = true
				}
				if tok.DataAtom == atom.Script && a.Key == "type" && a.Val == "application/json" {
					jsonScript = true
				}
			}
			if tok.DataAtom == atom.Svg {
				svgs++
			}
			if tt == html.StartTagToken && !voidElems[tok.DataAtom] {
				stack = append(stack, tok.Data)
			}
			inScript, inStyle = tok.DataAtom == atom.Script, tok.DataAtom == atom.Style
			if inScript {
				scripts++
			}
		case html.EndTagToken:
			if len(stack) == 0 || stack[len(stack)-1] != tok.Data {
				t.Fatalf("</%s> closes %v", tok.Data, stack)
			}
			stack = stack[:len(stack)-1]
			if tok.DataAtom == atom.Script {
				jsonScript = false
			}
			inScript, inStyle = false, false
		case html.TextToken:
			switch {
			case inStyle && netRef.MatchString(tok.Data):
				t.Errorf("the CSS refers outside the page: %q", netRef.FindString(tok.Data))
			case inScript && !jsonScript && netRef.MatchString(tok.Data):
				t.Errorf("the script refers outside the page: %q", netRef.FindString(tok.Data))
			case inScript && jsonScript:
				var v any
				if err := json.Unmarshal([]byte(tok.Data), &v); err != nil {
					t.Errorf("the page's data is not JSON: %v", err)
				}
			}
		}
	}
	if len(stack) > 0 {
		t.Errorf("not closed: %v", stack)
	}
	if scripts != 2 || !ids["tracetab-data"] || !ids["tl-canvas"] {
		t.Errorf("%d scripts, ids %v", scripts, ids)
	}
	_ = svgs
}

// TestStepSVG: --format svg writes a file of its own that an XML parser
// reads: the step chart with one bar per step (up to the chart's limit),
// their numbers those of gaps --format json; with --step N that step's gap
// timeline, its shaded gaps the gaps of gaps --format json that lie in the
// step's window.
func TestStepSVG(t *testing.T) {
	for _, c := range pageCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b := buildReport(t, c)
			var g struct {
				Breakdown struct {
					Steps []map[string]int64 `json:"steps"`
				} `json:"step_breakdown"`
				Gaps []struct {
					Device  int   `json:"device"`
					StartNs int64 `json:"start_ns"`
					LenNs   int64 `json:"length_ns"`
				} `json:"gaps"`
			}
			if err := json.Unmarshal(b.gapsJSON(t), &g); err != nil {
				t.Fatal(err)
			}
			chart := run(t, 0, "report", c.path, "--format", "svg")
			bars := svgElems(t, chart, "g", "bar")
			if len(bars) != min(150, len(g.Breakdown.Steps)) || len(bars) == 0 {
				t.Fatalf("%d bars for %d steps", len(bars), len(g.Breakdown.Steps))
			}
			byStep := map[string]map[string]int64{}
			for _, s := range g.Breakdown.Steps {
				byStep[strconv.FormatInt(s["step"], 10)] = s
			}
			for _, bar := range bars {
				s := byStep[bar["data-step"]]
				if bar["data-total-ns"] != strconv.FormatInt(s["total_ns"], 10) {
					t.Errorf("step %s: total %s, gaps %d", bar["data-step"], bar["data-total-ns"], s["total_ns"])
				}
			}
			segs := svgElems(t, chart, "rect", "seg")
			if len(segs) != 7*len(bars) {
				t.Errorf("%d segments for %d bars", len(segs), len(bars))
			}
			// one step's gap timeline: the middle step
			st := g.Breakdown.Steps[len(g.Breakdown.Steps)/2]
			view := run(t, 0, "report", c.path, "--format", "svg", "--step", strconv.FormatInt(st["step"], 10))
			lanes := svgElems(t, view, "g", "lane")
			if len(lanes) == 0 {
				t.Fatal("the step view has no lane")
			}
			var want []string
			for _, gp := range g.Gaps {
				if gp.StartNs < st["start_ns"]+st["total_ns"] && gp.StartNs+gp.LenNs > st["start_ns"] {
					want = append(want, fmt.Sprintf("%d+%d", gp.StartNs, gp.LenNs))
				}
			}
			var got []string
			for _, e := range svgElems(t, view, "g", "gap") {
				got = append(got, e["data-start-ns"]+"+"+e["data-length-ns"])
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("step %d: shaded gaps %v, gaps JSON's in its window %v", st["step"], got, want)
			}
		})
	}
}

// svgElems parses doc as XML and returns the attributes of each element
// of that name with that class.
func svgElems(t *testing.T, doc, name, class string) []map[string]string {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	var out []map[string]string
	root := true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root {
			if se.Name.Local != "svg" || se.Name.Space != "http://www.w3.org/2000/svg" {
				t.Fatalf("root element %v", se.Name)
			}
			root = false
		}
		attrs := map[string]string{}
		for _, a := range se.Attr {
			attrs[a.Name.Local] = a.Value
		}
		if se.Name.Local == name && attrs["class"] == class {
			out = append(out, attrs)
		}
	}
	return out
}

// TestKernelTableRaw: the page's kernel table on the real traces: each
// row's calls and total time are the count and sum of the raw JSON's
// device ops of that name, and its histogram's bars hold the counts of
// its durations in 24 log bins from its min to its max (edges
// min*(max/min)^(k/24) rounded to the ns, each value in the bin whose
// edges hold it).
func TestKernelTableRaw(t *testing.T) {
	for _, c := range pageCases(t)[1:] {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b := buildReport(t, c)
			f, err := os.Open(b.html)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			doc, err := html.Parse(f)
			if err != nil {
				t.Fatal(err)
			}
			durs := map[string][]int64{}
			for _, e := range readRaw(t, c.path).Events {
				if isDeviceWork(e.Cat) {
					durs[e.Name] = append(durs[e.Name], e.Dur)
				}
			}
			rows := 0
			for _, tr := range findAll(findID(doc, "kernels"), "tr") {
				tds := findAll(tr, "td")
				if len(tds) != 11 {
					continue
				}
				name := attr(tds[0], "data-sort")
				d := durs[name]
				var sum int64
				for _, x := range d {
					sum += x
				}
				if attr(tds[3], "data-sort") != strconv.Itoa(len(d)) || attr(tds[4], "data-sort") != strconv.FormatInt(sum, 10) {
					t.Errorf("%s: calls %s, total %s ns; raw %d calls, %d ns", name, attr(tds[3], "data-sort"), attr(tds[4], "data-sort"), len(d), sum)
				}
				var got []string
				for _, r := range findAll(tds[10], "rect") {
					got = append(got, attr(r, "data-count"))
				}
				if want := rawCounts(d, 24); strings.Join(got, " ") != want {
					t.Errorf("%s: histogram %v, raw %s", name, got, want)
				}
				rows++
			}
			if rows == 0 || rows != min(len(durs), 100) {
				t.Errorf("%d kernel rows checked of %d names", rows, len(durs))
			}
		})
	}
}

func rawCounts(d []int64, n int) string {
	lo, hi := int64(1<<62), int64(0)
	for _, x := range d {
		lo, hi = min(lo, max(x, 1)), max(hi, max(x, 1))
	}
	if lo == hi {
		n = 1
	}
	edges := make([]int64, n+1)
	for k := range edges {
		edges[k] = int64(math.Round(float64(lo) * math.Exp(math.Log(float64(hi)/float64(lo))*float64(k)/float64(n))))
	}
	edges[0], edges[n] = lo, hi
	counts := make([]string, n)
	c := make([]int, n)
	for _, x := range d {
		for k := n - 1; k >= 0; k-- {
			if edges[k] <= max(x, 1) {
				c[k]++
				break
			}
		}
	}
	for k := range c {
		counts[k] = strconv.Itoa(c[k])
	}
	return strings.Join(counts, " ")
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func findID(n *html.Node, id string) *html.Node {
	if n.Type == html.ElementNode && attr(n, "id") == id {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := findID(c, id); f != nil {
			return f
		}
	}
	return nil
}

func findAll(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	if n == nil {
		return nil
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == tag {
			out = append(out, c)
		}
		out = append(out, findAll(c, tag)...)
	}
	return out
}
