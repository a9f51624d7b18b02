package gapsview_test

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/gapsview"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestGolden: gaps' text on the model of each repository trace, with
// gaps' default flags (all devices and streams, the top 10, HTA's queue
// limit, 16 sparkline cells in ASCII: stdout is not a terminal), in
// parallel. cli's TestGoldenContract checks that `tracetab gaps` prints
// exactly this, and its notes.
func TestGolden(t *testing.T) {
	for _, f := range testenv.RepoTraces(t) {
		name := testenv.RepoBase(f) + ".gaps.golden"
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tr, _, err := testcache.Open(f, parse.Options{NoExtras: true, NoMemory: true, AllowTruncated: true})
			if err != nil {
				t.Fatal(err)
			}
			r := gaps.Analyze(tr, gaps.Options{Device: -1, Stream: -1, Top: 10, MaxQueue: gaps.QueueLimit, Cells: 16})
			var b strings.Builder
			if err := gapsview.Text(&b, r, 0, 0, false, gapsview.StepSparks{Cells: r.StepCells, Glyphs: viewkit.ASCII}); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, ".", name, testenv.Unroot(b.String()))
		})
	}
}
