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
		if Runes(l) > 40 {
			t.Errorf("line of %d runes > 40: %q", Runes(l), l)
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
		if Runes(l) > 30 {
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
		if Runes(l) > 56 {
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
