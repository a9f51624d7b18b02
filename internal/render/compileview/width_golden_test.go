package compileview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/compile"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/compileview"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: compile's text on the shared width trace at each
// golden width, read as compile reads it (no extras, no memory records),
// with its default --top 20, the file named as cli's TestWidthGoldens
// gives it. That test checks that `tracetab compile --width W` prints
// exactly this.
func TestWidthGolden(t *testing.T) {
	path, shown, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	golden.CheckWidths(t, "compile", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := compileview.Text(&b, "text", shown, compile.Summarize(tr), compileview.View{Width: w, Top: 20}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
