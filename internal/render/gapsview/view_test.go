package gapsview

import (
	"bytes"
	"encoding/csv"
	htmlpkg "html"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/units"
)

// gapReports analyses the sample and every shared trace once per test
// binary (by the default options and with --hta).
var gapReports = sync.OnceValues(func() ([]string, map[string][2]*gaps.Report) {
	files := []string{filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")}
	if d, ok := testenv.SharedDir(); ok {
		more, _ := filepath.Glob(filepath.Join(d, "traces", "*.json*"))
		files = append(files, more...)
	}
	out := map[string][2]*gaps.Report{}
	var names []string
	for _, f := range files {
		tr, err := parse.Open(f, parse.Options{})
		if err != nil {
			continue // a trace the parser refuses is its own tests' business
		}
		o := gaps.Options{Device: -1, Stream: -1, Top: 10}
		r := gaps.Analyze(tr, o)
		o.HTA = true
		out[f] = [2]*gaps.Report{r, gaps.Analyze(tr, o)}
		names = append(names, f)
	}
	return names, out
})

// TestGapsTextWidth: at 80, 120 and 200 columns every line of the text
// fits, on the sample and every shared trace (with --hta too); with no
// limit the names are whole.
func TestGapsTextWidth(t *testing.T) {
	t.Parallel()
	files, reps := gapReports()
	if len(files) < 2 {
		t.Logf("only the sample: ../shared is absent")
	}
	for _, f := range files {
		for _, r := range reps[f] {
			for _, w := range []int{80, 120, 200} {
				var b bytes.Buffer
				if err := Text(&b, r, 0, w, false); err != nil {
					t.Fatal(err)
				}
				for _, line := range strings.Split(b.String(), "\n") {
					if n := layout.Width(line); n > w {
						t.Errorf("%s at %d: a line of %d: %q", filepath.Base(f), w, n, line)
					}
				}
			}
			var b bytes.Buffer
			Text(&b, r, 0, 0, false)
			for _, g := range r.Gaps {
				if g.Activity != "" && !strings.Contains(b.String(), g.Activity) {
					t.Errorf("%s: no limit, yet %q is not whole", filepath.Base(f), g.Activity)
				}
			}
		}
	}
}

// TestGapsCausesByShare: the idle-by-cause table comes largest first.
func TestGapsCausesByShare(t *testing.T) {
	t.Parallel()
	files, reps := gapReports()
	for _, f := range files {
		r := reps[f][0]
		g := causeGrid(r, kitFor(true))
		var last int64 = 1 << 62
		for _, row := range g.Rows {
			ns := parseInt(t, row[1])
			if ns > last {
				t.Errorf("%s: causes not by share: %v", filepath.Base(f), g.Rows)
			}
			last = ns
		}
		if len(g.Rows) > 0 && g.Rows[0][0] != topCause(r).String() {
			t.Errorf("%s: first cause %s", filepath.Base(f), g.Rows[0][0])
		}
	}
}

func topCause(r *gaps.Report) gaps.Cause {
	best := gaps.Cause(0)
	for _, c := range gaps.Causes() {
		if r.Verdict.IdleByCause[c] > r.Verdict.IdleByCause[best] {
			best = c
		}
	}
	return best
}

func parseInt(t *testing.T, s string) int64 {
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not an integer: %q", s)
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// TestGapsMarkdownNames: the Markdown, rendered by a CommonMark parser
// with GitHub's tables, holds no HTML and shows every name it prints as
// text (<built-in function zoom_shift> and MulFunctor<float> survive a
// sanitiser).
func TestGapsMarkdownNames(t *testing.T) {
	t.Parallel()
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	files, reps := gapReports()
	for _, f := range files {
		r := reps[f][0]
		var b bytes.Buffer
		if err := Tables(&b, r, "md", ""); err != nil {
			t.Fatal(err)
		}
		// goldmark leaves raw HTML out ("raw HTML omitted"), as a sanitiser
		// would: what shows is the HTML's escaped text
		var html bytes.Buffer
		if err := md.Convert(b.Bytes(), &html); err != nil {
			t.Fatal(err)
		}
		shown := html.String()
		if strings.Contains(shown, "raw HTML omitted") {
			t.Errorf("%s: the Markdown holds HTML", filepath.Base(f))
		}
		var names []string
		for _, g := range r.Gaps {
			names = append(names, g.Activity, g.After, g.Before)
		}
		for _, s := range r.LatencyByName {
			names = append(names, s.Name)
		}
		for _, s := range r.Verdict.StartupCalls {
			names = append(names, s.Name)
		}
		for _, name := range names {
			if name != "" && !strings.Contains(shown, htmlpkg.EscapeString(name)) {
				t.Errorf("%s: %q is not shown as text", filepath.Base(f), name)
			}
		}
	}
}

// TestGapsCSVOneTable: every CSV section is one table (each record as wide
// as its header), the gap list by default, one row per listed gap.
func TestGapsCSVOneTable(t *testing.T) {
	t.Parallel()
	files, reps := gapReports()
	for _, f := range files {
		r := reps[f][0]
		for _, section := range append([]string{""}, Sections...) {
			var b bytes.Buffer
			if err := Tables(&b, r, "csv", section); err != nil {
				t.Fatalf("%s %s: %v", filepath.Base(f), section, err)
			}
			rows, err := csv.NewReader(&b).ReadAll()
			if err != nil || len(rows) == 0 {
				t.Fatalf("%s %s: not one table: %v", filepath.Base(f), section, err)
			}
			if section == "" && (rows[0][0] != "device" || rows[0][1] != "start_ns" || len(rows)-1 != len(r.Gaps)) {
				t.Errorf("%s: the default table is not the gap list: %v, %d rows for %d gaps", filepath.Base(f), rows[0], len(rows)-1, len(r.Gaps))
			}
		}
	}
}

// TestGapsHTAIdleColumn: with --hta the lanes table shows HTA's own idle,
// the sum of its categories, beside the exact idle.
func TestGapsHTAIdleColumn(t *testing.T) {
	t.Parallel()
	files, reps := gapReports()
	seen := 0
	for _, f := range files {
		r := reps[f][1]
		if r.NoGPU {
			continue
		}
		g := laneGrid(r, kitFor(false))
		at := slices.Index(g.Headers, "HTA idle")
		if at < 0 {
			t.Fatalf("%s: no HTA idle column: %v", filepath.Base(f), g.Headers)
		}
		want := units.Dur(r.Idle.Total.IdleNs())
		if last := g.Rows[len(g.Rows)-1]; last[0] != "total" || last[at] != want {
			t.Errorf("%s: total row %v, HTA's idle %s", filepath.Base(f), last, want)
		}
		seen++
	}
	if seen == 0 {
		t.Error("no trace with a GPU lane")
	}
}
