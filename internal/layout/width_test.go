package layout

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// wideRows are names in scripts and symbols a terminal shows wider or
// narrower than their runes: CJK, emoji, combining marks, and ASCII.
var wideRows = [][]string{
	{"注意力层", "attn", "1.000ms"},
	{"🔥matmul", "mm", "22.500ms"},
	{"cafe\u0301_re\u0301sume\u0301", "e\u0301", "3.000ms"},
	{"aten::addmm", "linear", "400.000ms"},
	{"模块/注意力层/🔥矩阵乘法_with_a_long_ascii_tail_0", "🔥", "5.000ms"},
}

// gridLines renders g as text and returns its lines.
func gridLines(t *testing.T, g *Grid) []string {
	t.Helper()
	var b bytes.Buffer
	if err := g.Write(&b, "text"); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// startCol is the display column where cell starts in line, looking from
// byte from on (-1: absent).
func startCol(line, cell string, from int) int {
	i := strings.Index(line[from:], cell)
	if i < 0 {
		return -1
	}
	return Width(line[:from+i])
}

// sameWidth checks that every line but the rules is want columns wide and
// each rule one more (a line ends at its last character, the rule spans
// the last cell's margin too).
func sameWidth(t *testing.T, lines []string, want int, what string) {
	t.Helper()
	for _, l := range lines { // the rules too (TestGridRuleSpansLines)
		if Width(l) != want {
			t.Fatalf("%s: line %q is %d columns, want %d:\n%s", what, l, Width(l), want, strings.Join(lines, "\n"))
		}
	}
}

// TestGridDisplayWidth: with wide and zero-width characters in the cells,
// every line of the text grid is equally wide on screen (its last column
// right-aligned), each name starts at the same display column and each
// number ends at the same one; cut to a width, no line is wider than it.
func TestGridDisplayWidth(t *testing.T) {
	for _, width := range []int{0, 60, 40, 30} {
		g := &Grid{
			Headers:    []string{"Name", "Module", "Time"},
			Rows:       wideRows,
			RightAlign: []bool{false, false, true},
			Names:      []bool{true, true, false},
			Width:      width,
			MinName:    6,
		}
		lines := gridLines(t, g)
		sameWidth(t, lines, Width(lines[0]), "width "+strconv.Itoa(width))
		for _, l := range lines {
			if width > 0 && Width(l) > width {
				t.Errorf("width %d: line %q is %d columns", width, l, Width(l))
			}
		}
		timeEnd := Width(lines[0])
		for k, r := range wideRows {
			l := lines[k+2]
			if c := startCol(l, " "+r[2], 0); c < 0 || c+1+Width(r[2]) != timeEnd {
				t.Errorf("width %d: %q ends at another column than the header in %q", width, r[2], l)
			}
			if width == 0 {
				if c := startCol(l, r[1], len(" "+r[0])); c != startCol(lines[0], "Module", 0) {
					t.Errorf("module %q starts at column %d, its header at %d: %q", r[1], c, startCol(lines[0], "Module", 0), l)
				}
			}
		}
	}
}

// pieces are characters of width 0 (a combining mark, ZWJ sequences), 1
// and 2, and spaces, for generated text.
var pieces = []string{"a", "Z", "_", "/", " ", " ", "é", "e\u0301", "注", "意", "🔥", "👍🏽", "👨\u200d💻", "ｱ", "…"}

func random(r *rand.Rand, n int) string {
	var b strings.Builder
	for range r.IntN(n + 1) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestCutWrapProperty: on generated text mixing widths 0, 1 and 2, Cut
// and Wrap never give a line wider than asked, BreakWords neither (where
// a line has room for a wide character) and loses nothing, and a grid of
// generated names is as wide on every line, within its width.
func TestCutWrapProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 7))
	for range 2000 {
		s := random(r, 30)
		w := 2 + r.IntN(30)
		if c := Cut(s, w); Width(c) > w {
			t.Fatalf("Cut(%q, %d) = %q is %d wide", s, w, c, Width(c))
		}
		for _, l := range Wrap(s, w, "  ") {
			if w > 3 && Width(l) > w {
				t.Fatalf("Wrap(%q, %d) line %q is %d wide", s, w, l, Width(l))
			}
		}
		lines := BreakWords("", s, w, "  ")
		for _, l := range lines {
			if w >= 4 && Width(l) > w {
				t.Fatalf("BreakWords(%q, %d) line %q is %d wide", s, w, l, Width(l))
			}
		}
		if got, want := strings.Join(strings.Fields(strings.Join(lines, "")), ""), strings.Join(strings.Fields(s), ""); got != want {
			t.Fatalf("BreakWords(%q, %d) lost text: %q", s, w, lines)
		}
	}
	for range 300 {
		rows := make([][]string, 1+r.IntN(6))
		for i := range rows {
			rows[i] = []string{strings.TrimSpace(random(r, 40)), random(r, 8), "1.0"}
		}
		w := 30 + r.IntN(50)
		g := &Grid{Headers: []string{"Name", "Other", "N"}, Rows: rows, RightAlign: []bool{false, false, true},
			Names: []bool{true, false, false}, Width: w}
		lines := gridLines(t, g)
		sameWidth(t, lines, Width(lines[0]), "grid at "+strconv.Itoa(w))
		if Width(lines[0]) >= max(w, g.MinWidth()) {
			t.Fatalf("grid at %d is %d wide:\n%s", w, Width(lines[0])+1, strings.Join(lines, "\n"))
		}
	}
}
