package chainview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/chain"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/chainview"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: chain aten::conv2d --summary's text on the shared
// width trace at each golden width, read as the summary reads it (no
// extras, no memory records), plain tree. cli's TestWidthGoldens checks
// that `tracetab chain TRACE aten::conv2d --summary --width W` prints
// exactly this.
func TestWidthGolden(t *testing.T) {
	path, _, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	golden.CheckWidths(t, "chain", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		m, err := chain.NewMatcher("aten::conv2d", false)
		if err != nil {
			t.Fatal(err)
		}
		sel, err := chain.Select(tr, chain.Query{Instance: 1, Match: m})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		ts := chainview.NewText(&b, false)
		ts.SetWidth(w)
		if err := chain.RunSummary(sel, ts); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
