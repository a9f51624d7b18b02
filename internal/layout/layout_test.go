package layout

import (
	"bytes"
	"strings"
	"testing"
)

func TestMdCode(t *testing.T) {
	cases := []struct{ in, want string }{
		{"<built-in function zoom_shift>", "`<built-in function zoom_shift>`"},
		{"a|b", "`a\\|b`"},
		{"x`y", "``x`y``"},
		{"`x", "`` `x ``"},
		{"", ""},
		{"a\nb", "`a b`"},
	}
	for _, c := range cases {
		if got := MdCode(c.in); got != c.want {
			t.Errorf("MdCode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMdText(t *testing.T) {
	if got := MdText("MulFunctor<float> *x* a_b|c"); got != `MulFunctor\<float\> \*x\* a\_b\|c` {
		t.Errorf("MdText = %q", got)
	}
	if got := MdText("12.5 ms (40%)"); got != "12.5 ms (40%)" {
		t.Errorf("MdText changed plain text: %q", got)
	}
}

func TestGridFitsWidth(t *testing.T) {
	long := strings.Repeat("n", 80) + "_tail1"
	long2 := strings.Repeat("n", 80) + "_tail2"
	g := &Grid{
		Headers:    []string{"Name", "Time"},
		Rows:       [][]string{{long, "1.000ms"}, {long2, "2.000ms"}, {"short", "3.000ms"}},
		RightAlign: []bool{false, true},
		Names:      []bool{true, false},
		Width:      40,
	}
	var b bytes.Buffer
	if err := g.Write(&b, "text"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for _, l := range lines {
		if Width(l) > 40 {
			t.Errorf("line of %d runes > 40: %q", Width(l), l)
		}
	}
	if !strings.Contains(b.String(), "tail1") || !strings.Contains(b.String(), "tail2") {
		t.Errorf("the distinguishing tails are lost:\n%s", b.String())
	}
	// no width: the names whole
	g.Width = 0
	b.Reset()
	g.Write(&b, "text")
	if !strings.Contains(b.String(), long) {
		t.Errorf("Width 0 cut a name")
	}
}

func TestGridWidthTooSmallForOthers(t *testing.T) {
	g := &Grid{Headers: []string{"A", "B"}, Rows: [][]string{{"x", strings.Repeat("9", 50)}}, Names: []bool{true, false}, Width: 20}
	var b bytes.Buffer
	if err := g.Write(&b, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), strings.Repeat("9", 50)) {
		t.Errorf("a number column was cut: %s", b.String())
	}
}

func TestGridMarkdownNames(t *testing.T) {
	g := &Grid{Headers: []string{"Name", "Calls"}, Rows: [][]string{{"void at::MulFunctor<float>", "3"}}, Names: []bool{true, false}}
	var b bytes.Buffer
	if err := g.Write(&b, "md"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "`void at::MulFunctor<float>`") {
		t.Errorf("name not in a code span:\n%s", b.String())
	}
}

func TestWrap(t *testing.T) {
	s := "the window is dominated by one-time initialisation; profile after warm-up"
	lines := Wrap(s, 30, "  ")
	if len(lines) < 2 {
		t.Fatalf("not wrapped: %q", lines)
	}
	for _, l := range lines {
		if Width(l) > 30 {
			t.Errorf("line over 30: %q", l)
		}
	}
	if got := strings.Join(strings.Fields(strings.Join(lines, " ")), " "); got != s {
		t.Errorf("words lost: %q", got)
	}
	if got := Wrap(s, 0, ""); len(got) != 1 || got[0] != s {
		t.Errorf("width 0 wrapped: %q", got)
	}
}

func TestGridOptionalColumns(t *testing.T) {
	g := &Grid{
		Headers:    []string{"Total", "Min", "Max", "Name"},
		Rows:       [][]string{{"1.000ms", "0.100ms", "0.900ms", strings.Repeat("k", 40)}},
		RightAlign: []bool{true, true, true, false},
		Names:      []bool{false, false, false, true},
		Optional:   []int{2, 1},
		Width:      56,
	}
	var b bytes.Buffer
	if err := g.Write(&b, "text"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for _, l := range lines[:len(lines)-1] {
		if Width(l) > 56 {
			t.Errorf("line over 56: %q", l)
		}
	}
	if strings.Contains(lines[0], "Max") || !strings.Contains(lines[0], "Min") {
		t.Errorf("want Max left out first and Min kept: %q", lines[0])
	}
	if !strings.Contains(lines[len(lines)-1], "left out: Max") {
		t.Errorf("no footnote: %q", out)
	}
	// wide enough: nothing left out, no footnote
	g.Width = 200
	b.Reset()
	g.Write(&b, "text")
	if strings.Contains(b.String(), "left out") || !strings.Contains(b.String(), "Max") {
		t.Errorf("a wide grid lost a column: %q", b.String())
	}
}

func TestDistinctPaths(t *testing.T) {
	cases := []struct {
		in, want []string
	}{
		{[]string{"/a/b/trace.json"}, []string{"trace.json"}},
		{[]string{"d/dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz", "d/dlrm_kineto.tar.gz__worker1_step_12.1694128201556.pt.trace.json.gz"},
			[]string{"...worker0_step_12.1694128201545...", "...worker1_step_12.1694128201556..."}},
		{[]string{"x/rank0.json", "x/rank1.json", "x/rank12.json"}, []string{"rank0.json", "rank1.json", "rank12.json"}},
		{[]string{"a/t.json", "b/t.json"}, []string{"a/t.json", "b/t.json"}},
	}
	for _, c := range cases {
		got := DistinctPaths(c.in)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("DistinctPaths(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMarkdownCompact(t *testing.T) {
	long := "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>, at::detail::Array<char*, 3> >(int, at::native::MulFunctor<float>, at::detail::Array<char*, 3>)"
	g := &Grid{Headers: []string{"Name", "Δ"}, Rows: [][]string{{long, "+1.0%"}, {long + "2", "~"}, {"", "-"}}, RightAlign: []bool{false, true}, Names: []bool{true}}
	var b bytes.Buffer
	if err := g.WriteMarkdownCompact(&b, 60); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 || lines[1] != "| --- | ---: |" || strings.Contains(b.String(), "  ") {
		t.Fatalf("%q", lines)
	}
	if !strings.HasPrefix(lines[2], "| `void") || lines[2] == lines[3] || len(lines[2]) > 80 || lines[4] != "| | - |" {
		t.Errorf("%q", lines)
	}
}

// TestWrapCutsLongWords: a word longer than a line is cut in the middle
// to fit, both its ends kept; every line fits.
func TestWrapCutsLongWords(t *testing.T) {
	path := "../../../shared/traces/kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.pt.trace.json.gz"
	lines := Wrap("file "+path+" read", 40, "  ")
	for _, l := range lines {
		if Width(l) > 40 {
			t.Errorf("a line of %d: %q", Width(l), l)
		}
	}
	all := strings.Join(lines, "\n")
	if !strings.Contains(all, "../../") || !strings.Contains(all, "json.gz") || !strings.Contains(all, "read") {
		t.Errorf("the path's ends or the next word lost:\n%s", all)
	}
	if got := Wrap("short words only", 40, "  "); len(got) != 1 || got[0] != "short words only" {
		t.Errorf("short prose changed: %q", got)
	}
}

// TestGridRuleSpansLines: the dashed rules are as long as the widest line
// of the table, never longer (a rule one column longer than rows that
// just fit a terminal was the one line wrapped past its edge), whatever the
// alignment of the last column.
func TestGridRuleSpansLines(t *testing.T) {
	for _, right := range []bool{false, true} {
		g := &Grid{
			Headers:    []string{"rank", "caused wait"},
			Rows:       [][]string{{"min", "0.000us"}, {"max", "61.380s"}, {"682", "61.380s"}},
			RightAlign: []bool{true, right},
			RuleAfter:  2,
		}
		var b bytes.Buffer
		if err := g.Write(&b, "text"); err != nil {
			t.Fatal(err)
		}
		widest, rules := 0, 0
		lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		for _, l := range lines {
			if strings.Trim(l, "-") != "" {
				widest = max(widest, Width(l))
			}
		}
		for _, l := range lines {
			if l != "" && strings.Trim(l, "-") == "" {
				rules++
				if Width(l) != widest {
					t.Errorf("right=%v: a rule of %d columns under lines of at most %d:\n%s", right, Width(l), widest, b.String())
				}
			}
		}
		if rules != 2 {
			t.Errorf("right=%v: %d rules, want 2:\n%s", right, rules, b.String())
		}
	}
}
