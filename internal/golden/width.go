package golden

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/layout"
)

// Widths are the --width values the width goldens hold every text view
// to: a terminal's 80 columns, a wide one, and one that cuts no name.
var Widths = []int{80, 120, 200}

// WidthName is the file name of view's width golden at w columns.
func WidthName(view string, w int) string { return fmt.Sprintf("width.%s.%d.golden", view, w) }

// CheckWidth fails the test for every line of out wider than w columns.
func CheckWidth(t *testing.T, w int, out string) {
	t.Helper()
	if out == "" {
		t.Fatalf("--width %d: no output", w)
	}
	for i, line := range strings.Split(out, "\n") {
		if n := layout.Width(line); n > w {
			t.Errorf("--width %d: line %d has %d columns: %q", w, i+1, n, line)
		}
	}
}

// CheckWidths renders view at each of Widths, in parallel subtests: no
// line wider than the width, and, when compare is set, the text is the
// golden width.<view>.<w>.golden under ./testdata/golden.
func CheckWidths(t *testing.T, view string, compare bool, render func(t *testing.T, w int) string) {
	t.Helper()
	for _, w := range Widths {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			out := render(t, w)
			CheckWidth(t, w, out)
			if compare {
				Check(t, ".", WidthName(view, w), out)
			}
		})
	}
}
