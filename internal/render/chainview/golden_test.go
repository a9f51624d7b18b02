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

// chainGolden is one chain query of the goldens, with chain's defaults
// (instance 1, all levels, 1,000 lines, plain tree: stdout is not a
// terminal).
type chainGolden struct {
	suffix  string
	pattern string
	regex   bool
	q       chain.Query
	summary bool
	depth   int
	json    bool
}

var chainGoldens = []chainGolden{
	{suffix: "chain"},
	{suffix: "chain_up_all_json", pattern: ".", regex: true, q: chain.Query{Dir: chain.Up, All: true}, json: true},
	{suffix: "chain_up_summary", pattern: ".", regex: true, q: chain.Query{Dir: chain.Up}, summary: true},
	{suffix: "chain_mm_summary", pattern: "aten::mm", summary: true},
	{suffix: "chain_mm_depth1", pattern: "aten::matmul", q: chain.Query{Instance: 2}, depth: 1},
}

// TestGolden: chain's text and JSON on the model of each repository
// trace, in parallel. Where chain refuses (no event matches, no such
// instance) no golden exists: cli's TestGoldenContract holds the exit 2
// and its message, and checks that `tracetab chain` prints exactly what
// is here.
func TestGolden(t *testing.T) {
	for _, f := range testenv.RepoTraces(t) {
		for _, g := range chainGoldens {
			name := testenv.RepoBase(f) + "." + g.suffix + ".golden"
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				read := parse.Options{AllowTruncated: true}
				if g.summary { // the summary reads no launch parameters, bytes, shapes or memory
					read.NoExtras, read.NoMemory = true, true
				}
				tr, _, err := testcache.Open(f, read)
				if err != nil {
					t.Fatal(err)
				}
				q := g.q
				if q.Instance == 0 {
					q.Instance = 1
				}
				if g.pattern != "" {
					if q.Match, err = chain.NewMatcher(g.pattern, g.regex); err != nil {
						t.Fatal(err)
					}
				}
				sel, err := chain.Select(tr, q)
				if err != nil {
					golden.Absent(t, ".", name)
					return
				}
				var b strings.Builder
				var sink chain.Sink
				if g.json {
					sink = chainview.NewJSON(&b, f)
				} else {
					sink = chainview.NewText(&b, false)
				}
				if g.summary {
					err = chain.RunSummary(sel, sink)
				} else {
					_, err = chain.Run(sel, chain.Options{MaxDepth: g.depth, MaxLines: 1000}, sink)
				}
				if err != nil {
					t.Fatal(err)
				}
				golden.Check(t, ".", name, testenv.Unroot(b.String()))
			})
		}
	}
}
