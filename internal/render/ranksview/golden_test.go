package ranksview_test

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/render/ranksview"
)

// job is the ranks report of a generated job of the given ranks, each
// trace named JOB/rankN.json, compared as ranks does by default (5%
// minimum skew), the summaries in rank order.
func job(t *testing.T, cfg gen.Config, n int) *ranks.Report {
	t.Helper()
	ss := make([]*ranks.Summary, n)
	for r := range n {
		c := cfg
		c.Rank = r
		var b bytes.Buffer
		if _, err := gen.Write(&b, c); err != nil {
			t.Fatal(err)
		}
		tr, err := parse.Read(&b, "JOB/rank"+strconv.Itoa(r)+".json", parse.Options{NoExtras: true, NoMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		ss[r] = ranks.Summarize(tr, r)
	}
	slices.SortStableFunc(ss, func(a, b *ranks.Summary) int { return int(a.Rank - b.Rank) })
	return ranks.Compare(ss, 5)
}

// TestGolden: ranks' text, Markdown, CSV and JSON of a generated job with
// a straggler, of a balanced one and of one whose straggler is late before
// the step, on the model, in parallel. cli's TestRanksGolden checks that
// `tracetab ranks` over the same jobs prints exactly these.
func TestGolden(t *testing.T) {
	straggler := job(t, gen.Config{Steps: 4, World: 4, Straggler: 2, StragglerDelay: 3_000_000}, 4)
	balanced := job(t, gen.Config{Steps: 4, World: 2}, 2)
	late := job(t, gen.Config{Steps: 3, World: 3, Straggler: 1, StragglerDelay: 2_000_000, StragglerBeforeStep: true}, 3)
	text := func(r *ranks.Report, format string, v ranksview.View) func(*strings.Builder) error {
		return func(b *strings.Builder) error { return ranksview.Text(b, format, r, v) }
	}
	for name, show := range map[string]func(*strings.Builder) error{
		"ranks.straggler.golden":                 text(straggler, "text", ranksview.View{Top: 20}),
		"ranks.straggler_md.golden":              text(straggler, "md", ranksview.View{Top: 20}),
		"ranks.straggler_csv.golden":             func(b *strings.Builder) error { return ranksview.CSV(b, straggler, false) },
		"ranks.straggler_json.golden":            func(b *strings.Builder) error { return ranksview.JSON(b, straggler) },
		"ranks.balanced.golden":                  text(balanced, "text", ranksview.View{Top: 20}),
		"ranks.straggler_collectives_80.golden":  text(straggler, "text", ranksview.View{Width: 80, Collectives: true, Top: 20}),
		"ranks.late_before_step_80.golden":       text(late, "text", ranksview.View{Width: 80, Collectives: true, Top: 2}),
		"ranks.straggler_collectives_csv.golden": func(b *strings.Builder) error { return ranksview.CSV(b, straggler, true) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var b strings.Builder
			if err := show(&b); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, ".", name, b.String())
		})
	}
}
