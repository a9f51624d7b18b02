package categoryview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/categoryview"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: table --by category's text on the shared width trace
// at each golden width, read as table reads it for this view (no extras,
// no memory records), every step, bars in ASCII (stdout is not a
// terminal). cli's TestWidthGoldens checks that `tracetab table --by
// category --width W` prints exactly this.
func TestWidthGolden(t *testing.T) {
	path, shown, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	golden.CheckWidths(t, "table_category", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := categoryview.Write(&b, "text", shown, categories.Build(tr, nil), categoryview.Options{Width: w}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
