package critpathview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/critpath"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/critpathview"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: critical-path --step 7's text on the shared width
// trace at each golden width, read as critical-path reads it (no extras,
// no memory records), with its default flags (--what-if 3, --speedup 2,
// --top 10, names demangled), the file named as cli's TestWidthGoldens
// gives it. That test checks that `tracetab critical-path TRACE --step 7
// --width W` prints exactly this.
func TestWidthGolden(t *testing.T) {
	path, shown, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	golden.CheckWidths(t, "critical-path", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		win, ok := critpath.StepWindow(tr, 7)
		if !ok {
			t.Fatal("no ProfilerStep#7")
		}
		r := critpath.Analyze(tr, []critpath.Window{win}, critpath.Options{WhatIf: 3, Speedup: 2})
		var b strings.Builder
		if err := critpathview.Text(&b, shown, r, critpathview.TextOptions{Width: w, Top: 10, Demangle: true}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
