package moduleview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/moduleview"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: table --by module --limit 25's text on the shared
// module width trace at each golden width, read as table reads it for
// this view (no extras, no memory records), with its default flags (every
// level, the tree order). cli's TestWidthGoldens checks that `tracetab
// table --by module --limit 25 --width W` prints exactly this.
func TestWidthGolden(t *testing.T) {
	path, shown, goldens := testenv.WidthTrace(t, testenv.ModuleWidthTraceName)
	golden.CheckWidths(t, "table_module", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		key, ok := modules.ParseKey("")
		if !ok {
			t.Fatal("no default sort key")
		}
		var b strings.Builder
		if err := moduleview.Write(&b, "text", shown, modules.Build(tr), moduleview.Options{Sort: key, Limit: 25, Width: w}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
