package reportview_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/render/reportview"
	"github.com/tracetab/tracetab/internal/testenv"
)

// bertCase is a shared trace with GPU work and nn.Module frames.
func bertCase(t *testing.T) traceCase {
	d := testenv.Shared(t)
	return traceCase{name: "bert-h100", path: filepath.Join(d, "traces", "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz")}
}

// genCase is a generated trace: steps, GEMMs, elementwise kernels and
// memcpys.
func genCase(t *testing.T) traceCase {
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Steps: 5, Layers: 2}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "gen.json")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return traceCase{name: "generated", path: p}
}

// tableCategories is tracetab table --by category --format json.
type tableCategories struct {
	DeviceNs   int64 `json:"device_ns"`
	Kernels    int   `json:"kernels"`
	Categories []struct {
		Category string `json:"category"`
		DeviceNs int64  `json:"device_ns"`
		Kernels  int    `json:"kernels"`
	} `json:"categories"`
	Steps []struct {
		Step       int64 `json:"step"`
		DeviceNs   int64 `json:"device_ns"`
		Categories []struct {
			Category string `json:"category"`
			DeviceNs int64  `json:"device_ns"`
			Kernels  int    `json:"kernels"`
		} `json:"categories"`
	} `json:"steps"`
}

// pageCategories is the page's embedded data on categories.
type pageCategories struct {
	Categories *struct {
		DeviceNs   int64 `json:"device_ns"`
		Kernels    int   `json:"kernels"`
		Categories []struct {
			Category string `json:"category"`
			Color    string `json:"color"`
			DeviceNs int64  `json:"device_ns"`
			Kernels  int    `json:"kernels"`
		} `json:"categories"`
		Steps []struct {
			Step     int64   `json:"step"`
			DeviceNs int64   `json:"device_ns"`
			Ns       []int64 `json:"ns"`
			K        []int   `json:"k"`
		} `json:"steps"`
	} `json:"categories"`
}

func parsePage(t *testing.T, file string) *html.Node {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// byClass lists the elements under n whose class list holds class.
func byClass(n *html.Node, class string) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && strings.Contains(" "+attr(n, "class")+" ", " "+class+" ") {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

// TestCategoriesMatchTable: the category section's figures (the page's
// embedded data, the table beside the chart, the chart's bars) are those
// of tracetab table --by category --format json on the same trace, on a
// shared trace with GPU work and on a generated one.
func TestCategoriesMatchTable(t *testing.T) {
	cases := []traceCase{genCase(t)}
	if _, ok := testenv.SharedDir(); ok {
		cases = append(cases, bertCase(t))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := buildReport(t, c)
			var want tableCategories
			if err := json.Unmarshal([]byte(run(t, 0, "table", c.path, "--by", "category", "--format", "json")), &want); err != nil {
				t.Fatal(err)
			}
			if want.DeviceNs == 0 {
				t.Fatal("the trace has no device work: nothing to compare")
			}
			page, err := os.ReadFile(b.html)
			if err != nil {
				t.Fatal(err)
			}
			var got pageCategories
			m := dataRe.FindSubmatch(page)
			if m == nil {
				t.Fatal("no data in the page")
			}
			if err := json.Unmarshal(m[1], &got); err != nil {
				t.Fatal(err)
			}
			g := got.Categories
			if g == nil {
				t.Fatal("the page's data has no categories")
			}
			if g.DeviceNs != want.DeviceNs || g.Kernels != want.Kernels || len(g.Categories) != len(want.Categories) {
				t.Fatalf("page: %d ns, %d kernels, %d categories; table: %d ns, %d kernels, %d categories", g.DeviceNs, g.Kernels,
					len(g.Categories), want.DeviceNs, want.Kernels, len(want.Categories))
			}
			wantRows := map[string]string{"total": fmt.Sprint(want.DeviceNs, "/", want.Kernels)}
			for k, w := range want.Categories {
				x := g.Categories[k]
				if x.Category != w.Category || x.DeviceNs != w.DeviceNs || x.Kernels != w.Kernels {
					t.Errorf("category %d: page %+v, table %+v", k, x, w)
				}
				if w.Kernels > 0 {
					wantRows[w.Category] = fmt.Sprint(w.DeviceNs, "/", w.Kernels)
				}
			}
			if len(g.Steps) != len(want.Steps) {
				t.Fatalf("page: %d steps, table: %d", len(g.Steps), len(want.Steps))
			}
			for i, w := range want.Steps {
				s := g.Steps[i]
				if s.Step != w.Step || s.DeviceNs != w.DeviceNs {
					t.Errorf("step %d: page %d ns, table step %d %d ns", s.Step, s.DeviceNs, w.Step, w.DeviceNs)
				}
				for k, wc := range w.Categories {
					if s.Ns[k] != wc.DeviceNs || s.K[k] != wc.Kernels {
						t.Errorf("step %d %s: page %d ns %d kernels, table %d ns %d kernels", w.Step, wc.Category, s.Ns[k], s.K[k], wc.DeviceNs, wc.Kernels)
					}
				}
			}
			// the table beside the chart: a row per category with work, and the total
			doc := parsePage(t, b.html)
			rows := byClass(doc, "cat-row")
			gotRows := map[string]string{}
			for _, r := range rows {
				gotRows[attr(r, "data-cat")] = attr(r, "data-ns") + "/" + attr(r, "data-kernels")
			}
			if fmt.Sprint(gotRows) != fmt.Sprint(wantRows) {
				t.Errorf("the category table's rows %v; table --by category %v", gotRows, wantRows)
			}
			// the chart: a bar per step in order (or one for the trace), its segments adding up
			bars := byClass(doc, "cbar")
			nBars := min(len(want.Steps), reportview.MaxCategoryBars)
			if len(want.Steps) == 0 {
				nBars = 1
			}
			if len(bars) != nBars {
				t.Fatalf("%d bars for %d steps", len(bars), len(want.Steps))
			}
			for i, bar := range bars {
				wantNs := want.DeviceNs
				if len(want.Steps) > 0 {
					wantNs = want.Steps[i].DeviceNs
					if attr(bar, "data-step") != strconv.FormatInt(want.Steps[i].Step, 10) {
						t.Errorf("bar %d is step %s, want step %d", i, attr(bar, "data-step"), want.Steps[i].Step)
					}
				}
				sum := int64(0)
				for _, seg := range byClass(bar, "seg") {
					ns, _ := strconv.ParseInt(attr(seg, "data-ns"), 10, 64)
					sum += ns
				}
				if attr(bar, "data-ns") != strconv.FormatInt(wantNs, 10) || sum != wantNs {
					t.Errorf("bar %d: %s ns, segments sum to %d; table says %d", i, attr(bar, "data-ns"), sum, wantNs)
				}
			}
		})
	}
}

// tableModules is tracetab table --by module --format json.
type tableModules struct {
	ModulesCount int `json:"modules_count"`
	Modules      []struct {
		Path          string `json:"path"`
		Occurrences   int64  `json:"occurrences"`
		HostTotalNs   int64  `json:"host_total_ns"`
		HostSelfNs    int64  `json:"host_self_ns"`
		DeviceTotalNs *int64 `json:"device_total_ns"`
		DeviceSelfNs  *int64 `json:"device_self_ns"`
	} `json:"modules"`
}

// TestModuleTreeMatchesTable: on a shared trace with nn.Module frames the
// tree holds every module, in the order of tracetab table --by module,
// with its numbers; the first levels are open, the deeper ones closed.
func TestModuleTreeMatchesTable(t *testing.T) {
	c := bertCase(t)
	b := buildReport(t, c)
	var want tableModules
	if err := json.Unmarshal([]byte(run(t, 0, "table", c.path, "--by", "module", "--format", "json")), &want); err != nil {
		t.Fatal(err)
	}
	doc := parsePage(t, b.html)
	rows := byClass(doc, "mod-row")
	if len(rows) != len(want.Modules) || len(rows) != want.ModulesCount || len(rows) == 0 {
		t.Fatalf("%d rows in the tree; table --by module lists %d of %d modules", len(rows), len(want.Modules), want.ModulesCount)
	}
	closed := 0
	for i, w := range want.Modules {
		r := rows[i]
		got := fmt.Sprint(attr(r, "data-path"), " ", attr(r, "data-occ"), " ", attr(r, "data-host-total-ns"), " ", attr(r, "data-host-self-ns"), " ",
			attr(r, "data-device-total-ns"), " ", attr(r, "data-device-self-ns"))
		if w.DeviceTotalNs == nil || w.DeviceSelfNs == nil {
			t.Fatalf("%s: table --by module has no device figures on a trace with GPU work", w.Path)
		}
		exp := fmt.Sprint(w.Path, " ", w.Occurrences, " ", w.HostTotalNs, " ", w.HostSelfNs, " ", *w.DeviceTotalNs, " ", *w.DeviceSelfNs)
		if got != exp {
			t.Errorf("row %d: page %q, table %q", i, got, exp)
		}
		// open above the third level: a row of depth d lies in d-1 details,
		// each open while its depth is under ModuleOpenDepth
		depth := strings.Count(w.Path, "/") + 1
		for p := r.Parent; p != nil; p = p.Parent {
			if p.Data != "details" {
				continue
			}
			d, _ := strconv.Atoi(attr(p, "data-depth"))
			_, open := attrOK(p, "open")
			if open != (d < reportview.ModuleOpenDepth) || d > depth {
				t.Errorf("%s (depth %d): its details of depth %d is open=%t", w.Path, depth, d, open)
			}
			if !open {
				closed++
			}
		}
	}
	if closed == 0 {
		t.Errorf("no row lies in a closed module: the tree of bert is deeper than %d levels", reportview.ModuleOpenDepth)
	}
	if len(byClass(doc, "mod-more")) != 0 {
		t.Errorf("a 'more' line in a tree of %d modules", len(rows))
	}
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// TestModuleTreeAbsent: a trace without nn.Module frames says so in one
// line, with no tree.
func TestModuleTreeAbsent(t *testing.T) {
	b := buildReport(t, traceCase{name: "sample", path: filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")})
	doc := parsePage(t, b.html)
	sec := findID(doc, "modules")
	if sec == nil {
		t.Fatal("no module section")
	}
	var text strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			text.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(sec)
	if !strings.Contains(text.String(), "no nn.Module frames") || len(byClass(sec, "mod-tree")) != 0 {
		t.Errorf("the module section of a trace without module frames: %q", text.String())
	}
}

// TestModuleTreeBounded: a trace of 5,101 modules (a model of 100 blocks
// of 50 layers, each launching a kernel) gives a page of at most a few MB
// whose tree shows MaxModuleNodes of them, the top levels first, and whose
// "more" lines count all the rest.
func TestModuleTreeBounded(t *testing.T) {
	const blocks, layers = 100, 50
	var ev []string
	corr := 0
	add := func(s string, a ...any) { ev = append(ev, fmt.Sprintf(s, a...)) }
	add(`{"ph":"X","cat":"python_function","name":"nn.Module: Model_0","pid":1,"tid":1,"ts":0,"dur":%d}`, blocks*layers*10+10)
	for bl := range blocks {
		bts := 1 + bl*layers*10
		add(`{"ph":"X","cat":"python_function","name":"nn.Module: Block_%d","pid":1,"tid":1,"ts":%d,"dur":%d}`, bl, bts, layers*10-1)
		for l := range layers {
			ts := bts + l*10
			corr++
			add(`{"ph":"X","cat":"python_function","name":"nn.Module: Linear_%d","pid":1,"tid":1,"ts":%d,"dur":8}`, bl*layers+l, ts+1)
			add(`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":2,"args":{"correlation":%d}}`, ts+2, corr)
			add(`{"ph":"X","cat":"kernel","name":"gemm_%d","pid":0,"tid":7,"ts":%d,"dur":5,"args":{"correlation":%d}}`, corr, ts+4, corr)
		}
	}
	p := filepath.Join(t.TempDir(), "modules5k.json")
	if err := os.WriteFile(p, []byte(`{"schemaVersion":1,"traceEvents":[`+strings.Join(ev, ",\n")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	b := buildReport(t, traceCase{name: "modules5k", path: p})
	st, err := os.Stat(b.html)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 4<<20 {
		t.Errorf("the page of %d modules is %d bytes", 1+blocks+blocks*layers, st.Size())
	}
	doc := parsePage(t, b.html)
	rows := byClass(doc, "mod-row")
	nodes := 0
	for _, m := range byClass(doc, "mod-more") {
		n, err := strconv.Atoi(attr(m, "data-nodes"))
		if err != nil {
			t.Fatal(err)
		}
		nodes += n
	}
	total := 1 + blocks + blocks*layers
	if len(rows) != reportview.MaxModuleNodes || len(rows)+nodes != total {
		t.Errorf("%d rows and %d modules in the 'more' lines; want %d rows of %d", len(rows), nodes, reportview.MaxModuleNodes, total)
	}
	// the top levels first: the model, then MaxModuleChildren blocks
	depths := map[int]int{}
	for _, r := range rows {
		depths[strings.Count(attr(r, "data-path"), "/")+1]++
	}
	if depths[1] != 1 || depths[2] != reportview.MaxModuleChildren {
		t.Errorf("rows by depth %v: want the model and %d blocks", depths, reportview.MaxModuleChildren)
	}
	t.Logf("page of %d modules: %d bytes, %d rows", total, st.Size(), len(rows))
}
