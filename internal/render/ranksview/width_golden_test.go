package ranksview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/render/ranksview"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: ranks' text on the shared width trace (one rank) at
// each golden width, read as ranks reads it (no extras, no memory
// records), with its default --min-skew 5 and --top 20. cli's
// TestWidthGoldens checks that `tracetab ranks TRACE --width W` prints
// exactly this.
func TestWidthGolden(t *testing.T) {
	path, shown, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	golden.CheckWidths(t, "ranks", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		s := ranks.Summarize(tr, 0)
		s.Path = shown
		var b strings.Builder
		if err := ranksview.Text(&b, "text", ranks.Compare([]*ranks.Summary{s}, 5), ranksview.View{Width: w, Top: 20}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
