package rooflineview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/rooflineview"
	"github.com/tracetab/tracetab/internal/roofline"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: roofline --limit 15's text on the shared width trace
// at each golden width, read as roofline reads it (shapes only among the
// extras, no memory records), with its default flags (the table's peaks,
// sorted by device time, names demangled). cli's TestWidthGoldens checks
// that `tracetab roofline TRACE --limit 15 --width W` prints exactly this.
func TestWidthGolden(t *testing.T) {
	path, _, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	golden.CheckWidths(t, "roofline", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoMemory: true, ShapesOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		res := roofline.Compute(tr, roofline.Options{})
		if !res.Sort("device_ns") {
			t.Fatal("roofline: no sort key device_ns")
		}
		var b strings.Builder
		if err := rooflineview.Table(&b, "text", res, rooflineview.Options{Limit: 15, Width: w, Demangle: true}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
