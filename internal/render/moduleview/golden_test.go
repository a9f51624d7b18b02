package moduleview_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/moduleview"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// moduleTrace is a shared trace recorded with module frames (TraceLens'
// BERT on an H100).
const moduleTrace = "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz"

// TestGolden: the module tree's text on a shared trace at 80 columns and
// unlimited, and sorted by self device time at 100, on the model, in
// parallel; every line fits its width and none ends in a space. cli's
// TestModuleViewGolden checks that `tracetab table --by module` prints
// exactly this.
func TestGolden(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "traces", moduleTrace)
	for _, c := range []struct {
		name string
		sort string
		o    moduleview.Options
	}{
		{"modules.bert.80.golden", "", moduleview.Options{Width: 80, Limit: -1}},
		{"modules.bert.0.golden", "", moduleview.Options{Limit: -1}},
		{"modules.bert.sorted.100.golden", "self_cuda", moduleview.Options{Width: 100, Limit: 15}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true})
			if err != nil {
				t.Fatal(err)
			}
			var ok bool
			if c.o.Sort, ok = modules.ParseKey(c.sort); !ok {
				t.Fatalf("sort %q", c.sort)
			}
			var b strings.Builder
			if err := moduleview.Write(&b, "text", path, modules.Build(tr), c.o); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for i, l := range strings.Split(out, "\n") {
				if c.o.Width > 0 && layout.Width(l) > c.o.Width {
					t.Errorf("line %d has %d columns: %q", i+1, layout.Width(l), l)
				}
				if strings.HasSuffix(l, " ") {
					t.Errorf("line %d ends in a space", i+1)
				}
			}
			golden.Check(t, ".", c.name, out)
		})
	}
}
