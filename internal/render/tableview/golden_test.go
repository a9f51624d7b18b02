package tableview_test

import (
	"bytes"
	"github.com/tracetab/tracetab/internal/gen"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/kerneleff"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/tableview"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// tableGolden is one view of table's goldens: how table reads the trace
// for it, and the view on its model with table's default flags. show
// reports false where table refuses (the model has no row): then no
// golden exists, and cli's TestGoldenContract holds table's exit 2.
type tableGolden struct {
	suffix string
	read   parse.Options
	show   func(b *strings.Builder, path string, t *trace.Trace) bool
}

var tableGoldens = []tableGolden{
	{"table", parse.Options{NoExtras: true}, func(b *strings.Builder, path string, t *trace.Trace) bool {
		return opTable(b, "text", path, t)
	}},
	{"table_--format_json", parse.Options{NoExtras: true}, func(b *strings.Builder, path string, t *trace.Trace) bool {
		return opTable(b, "json", path, t)
	}},
	{"table_--by_kernel", parse.Options{NoExtras: true, NoMemory: true}, kernelTable},
	{"table_--by_step", parse.Options{NoExtras: true, NoMemory: true}, func(b *strings.Builder, path string, t *trace.Trace) bool {
		if len(t.StepWindows()) == 0 {
			return false
		}
		must(tableview.Steps(b, "text", path, t.TraceStart, table.StepView(t), nil, 0, false))
		return true
	}},
}

// TestGolden: table's op (text and JSON), kernel and step views on the
// model of each repository trace, in parallel. cli's TestGoldenContract
// checks that `tracetab table` prints exactly this, and its exit codes
// and notes.
func TestGolden(t *testing.T) {
	for _, f := range testenv.RepoTraces(t) {
		for _, g := range tableGoldens {
			name := testenv.RepoBase(f) + "." + g.suffix + ".golden"
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				read := g.read
				read.AllowTruncated = true
				tr, _, err := testcache.Open(f, read)
				if err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				if !g.show(&b, f, tr) {
					golden.Absent(t, ".", name)
					return
				}
				golden.Check(t, ".", name, testenv.Unroot(b.String()))
			})
		}
	}
}

// opTable is table's default op view: the recording torch's table(), 100
// rows, names cut at 55.
func opTable(b *strings.Builder, format, path string, t *trace.Trace) bool {
	res, err := table.Compute(t, table.Options{Torch: table.RecordingOf(t).Default()})
	must(err)
	if len(res.Rows) == 0 {
		return false
	}
	must(tableview.OpTable(b, format, path, "", res, tableview.DefaultTorchLayout()))
	return true
}

// kernelTable is table --by kernel: 100 rows, names demangled, the
// kernels' efficiency over the TensorBoard plugin's steps.
func kernelTable(b *strings.Builder, path string, t *trace.Trace) bool {
	rows, total := table.KernelView(t, nil)
	if len(rows) == 0 {
		return false
	}
	for i := range rows {
		rows[i].Name = names.Demangle(rows[i].Name)
	}
	w := gaps.EffWindow(t, gaps.PluginSteps(t, nil))
	eff := &tableview.KernelEff{HasArgs: kerneleff.HasArgs(t), Window: w, Devices: kerneleff.Devices(t, w, nil)}
	must(tableview.Kernels(b, "text", path, rows, total, tableview.KernelLayout{Limit: 100, Eff: eff}, nil))
	return true
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// TestStepsSummaryGolden: table --by step at 100 columns over a generated
// trace of 100 jittered steps (the distribution, the cold step and the
// steps that stand out), on the model. cli's TestStepsSummary checks that
// `tracetab table --by step` prints exactly this, and its figures against
// the raw JSON.
func TestStepsSummaryGolden(t *testing.T) {
	var raw bytes.Buffer
	if _, err := gen.Write(&raw, gen.Config{Steps: 100, Noise: gen.Noise{Seed: 3, Jitter: 0.1}}); err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Read(&raw, "TRACE", parse.Options{NoExtras: true, NoMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := tableview.Steps(&b, "text", "TRACE", tr.TraceStart, table.StepView(tr), nil, 100, false); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, ".", "steps.summary_100.golden", b.String())
}
