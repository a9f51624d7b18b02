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

// TestGolden: info's text on the model of each repository trace, read as
// info reads it (no extras, no memory records, --allow-truncated). cli's
// TestGoldenContract checks that `tracetab info` prints exactly this.
func TestGolden(t *testing.T) {
	for _, f := range testenv.RepoTraces(t) {
		name := testenv.RepoBase(f) + ".info.golden"
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tr, _, err := testcache.Open(f, parse.Options{NoExtras: true, NoMemory: true, AllowTruncated: true})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := infoview.Text(&b, info.Summarize(tr), 0); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, ".", name, testenv.Unroot(b.String()))
		})
	}
}
