package viewkit

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/layout"
)

// grid is n rows "name<i>", value v(i), the value as text.
func distGrid(n int, v func(int) int64) (*layout.Grid, []int64) {
	g := &layout.Grid{Headers: []string{"row", "name", "time"}, RightAlign: []bool{true, false, true}}
	ns := make([]int64, n)
	for i := range n {
		ns[i] = v(i)
		g.Rows = append(g.Rows, []string{strconv.Itoa(i), "name" + strconv.Itoa(i), strconv.FormatInt(ns[i], 10)})
	}
	return g, ns
}

// TestSummariseSmall: a grid of SummaryRows rows or fewer is left as it is.
func TestSummariseSmall(t *testing.T) {
	g, ns := distGrid(SummaryRows, func(i int) int64 { return int64(i) })
	if foot := Summarise(g, Summary{Noun: "rows", Cols: []Column{NsColumn(2, ns, nil)}}); foot != "" || len(g.Rows) != SummaryRows || g.RuleAfter != 0 {
		t.Errorf("foot %q, %d rows", foot, len(g.Rows))
	}
}

// TestSummarise: 100 rows of 1000 ns but row 7 (5000 ns) and row 40
// (1003 ns): the median is 1000 and the MAD 0, so both stand out; row 99
// is kept (the verdict names it) though it does not.
func TestSummarise(t *testing.T) {
	g, ns := distGrid(100, func(i int) int64 {
		switch i {
		case 7:
			return 5000
		case 40:
			return 1003
		}
		return 1000
	})
	foot := Summarise(g, Summary{Noun: "rows", Cols: []Column{NsColumn(2, ns, nil)}, Keep: []int{99}, KeepWhy: "the one the verdict names"})
	var first []string
	for _, r := range g.Rows {
		first = append(first, r[0]+"="+r[2])
	}
	// p90: index round(0.9*99) = 89 of the sorted values: 1000
	want := "min=1.000us median=1.000us p90=1.000us max=5.000us 7=5000 40=1003 99=1000"
	if got := strings.Join(first, " "); got != want || g.RuleAfter != 4 {
		t.Errorf("rows %s\nwant %s", got, want)
	}
	if !strings.Contains(foot, "100 rows: min, median, p90, max; ") || !strings.Contains(foot, "the 2 that stand out") ||
		!strings.Contains(foot, "below, the one the verdict names and the 2 that stand out") || !strings.Contains(foot, "--all") {
		t.Errorf("foot %q", foot)
	}
	var b strings.Builder
	g.Write(&b, "text")
	if strings.Count(b.String(), "\n") != 2+4+1+3 {
		t.Errorf("text:\n%s", b.String())
	}
}

// TestSummariseListed: of many rows that stand out the farthest are
// listed, at most Listed, in row order; n/a where most rows have a value
// stands out.
func TestSummariseListed(t *testing.T) {
	// rows 0..29 spread evenly (0, 10, ..., 290): median 145, deviations
	// 5..145 -> MAD 75, so nothing stands out but the n/a row 3
	g, ns := distGrid(30, func(i int) int64 { return int64(10 * i) })
	has := make([]bool, 30)
	for i := range has {
		has[i] = i != 3
	}
	foot := Summarise(g, Summary{Noun: "rows", Cols: []Column{NsColumn(2, ns, has)}})
	if len(g.Rows) != 5 || g.Rows[4][0] != "3" || !strings.Contains(foot, "the 1 that stands out") {
		t.Errorf("n/a: %v %q", g.Rows, foot)
	}
	// 30 rows: 20 of 1000 ns and 10 of 1000+100*i: ten stand out, the
	// three farthest (rows 27, 28, 29) are listed
	g, ns = distGrid(30, func(i int) int64 {
		if i < 20 {
			return 1000
		}
		return 1000 + 100*int64(i)
	})
	foot = Summarise(g, Summary{Noun: "rows", Cols: []Column{NsColumn(2, ns, nil)}, Listed: 3})
	var got []string
	for _, r := range g.Rows[4:] {
		got = append(got, r[0])
	}
	if strings.Join(got, ",") != "27,28,29" || !strings.Contains(foot, "the 3 farthest of the 10 that stand out") {
		t.Errorf("listed %v %q", got, foot)
	}
	// none stands out
	g, ns = distGrid(30, func(int) int64 { return 7 })
	if foot = Summarise(g, Summary{Noun: "rows", Cols: []Column{NsColumn(2, ns, nil)}}); len(g.Rows) != 4 || !strings.Contains(foot, "none stands out") {
		t.Errorf("none: %v %q", g.Rows, foot)
	}
}
