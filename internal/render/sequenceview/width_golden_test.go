package sequenceview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/sequenceview"
	"github.com/tracetab/tracetab/internal/sequences"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: table --by sequence --top 3's text on the shared width
// trace at each golden width, read as table reads it for this view (no
// extras, no memory records), with its default flags (--min-len 3, the
// top-level ops as roots, sorted by device time). cli's TestWidthGoldens
// checks that `tracetab table --by sequence --top 3 --width W` prints
// exactly this.
func TestWidthGolden(t *testing.T) {
	path, shown, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	golden.CheckWidths(t, "table_sequence", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		key, ok := sequences.ParseKey("")
		if !ok {
			t.Fatal("no default sort key")
		}
		r := sequences.Build(tr, sequences.Options{MinLen: 3, Sort: key})
		var b strings.Builder
		if err := sequenceview.Write(&b, "text", shown, r, sequenceview.Options{Top: 3, Width: w}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
