package gapsview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/gapsview"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: gaps' text on the shared width trace at each golden
// width, with gaps' default flags (as TestGolden). cli's TestWidthGoldens
// checks that `tracetab gaps --width W` prints exactly this.
func TestWidthGolden(t *testing.T) {
	path, _, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	golden.CheckWidths(t, "gaps", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		r := gaps.Analyze(tr, gaps.Options{Device: -1, Stream: -1, Top: 10, MaxQueue: gaps.QueueLimit, Cells: 16})
		var b strings.Builder
		if err := gapsview.Text(&b, r, 0, w, false, gapsview.StepSparks{Cells: r.StepCells, Glyphs: viewkit.ASCII}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
