package reportview

import (
	"bytes"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/report"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestTimelineSideBySide: the timeline laid out beside the models
// (report.NewInputsThen with TimelineOf, as tracetab report does) gives
// the page, byte for byte, that Build gives after them on a trace read
// afresh, on a generated trace of the deep export shape and at limits
// that band and hold a step in detail; run with -race (make test's
// race-sides stage), it also checks that the layout and the models only
// read the trace, and that the page's data and markup, written side by
// side, only read the page.
func TestTimelineSideBySide(t *testing.T) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Steps: 8, Layers: 2, Modules: true, Kineto: gen.ExportStyle()}); err != nil {
		t.Fatal(err)
	}
	read := func() *trace.Trace {
		tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "gen.json", parse.Options{DimsOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	small := DefaultLimits
	small.MaxEvents, small.MaxCells = 200, 2000
	for _, lim := range []Limits{DefaultLimits, small} {
		o := DefaultOptions
		o.Limits = lim
		page := func(tr *trace.Trace, p *Page) []byte {
			var b bytes.Buffer
			if err := p.WriteHTML(&b, tr); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}
		a := read()
		var tl *Timeline
		in := report.NewInputsThen(a, "gen.json", func(in *report.Inputs) { tl = TimelineOf(a, in, o) })
		if tl == nil {
			t.Fatal("the timeline was not laid out")
		}
		got := page(a, BuildWith(a, in, o, tl))
		b := read()
		want := page(b, Build(b, report.NewInputs(b, "gen.json"), o))
		if !bytes.Equal(got, want) {
			t.Errorf("limits %+v: the page with the timeline laid out beside the models differs (%d bytes, %d alone)", lim, len(got), len(want))
		}
	}
}
