package infoview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/info"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/infoview"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: info's text on the shared width trace at each golden
// width, read as info reads it (no extras, no memory records), the file
// named as cli's TestWidthGoldens gives it. That test checks that
// `tracetab info --width W` prints exactly this.
func TestWidthGolden(t *testing.T) {
	path, shown, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	golden.CheckWidths(t, "info", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		in := info.Summarize(tr)
		in.File = shown
		var b strings.Builder
		if err := infoview.Text(&b, in, w); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
