package memoryview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/memoryview"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestWidthGolden: memory's text on the shared width trace at each golden
// width, read as memory reads it (no extras), with its default flags
// (--leak-share 0.01%, --top 10, every section), the file named as cli's
// TestWidthGoldens gives it. That test checks that `tracetab memory
// --width W` prints exactly this.
func TestWidthGolden(t *testing.T) {
	path, shown, goldens := testenv.WidthTrace(t, testenv.WidthTraceName)
	golden.CheckWidths(t, "memory", goldens, func(t *testing.T, w int) string {
		tr, _, err := testcache.Open(path, parse.Options{NoExtras: true})
		if err != nil {
			t.Fatal(err)
		}
		m := memory.Build(tr, memory.Options{LeakShare: 0.01 / 100})
		var b strings.Builder
		if err := memoryview.Write(&b, m, memoryview.Options{File: shown, Format: "text", Top: 10, Width: w}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	})
}
