package tableview_test

import (
	"slices"
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

// widthGolden is one of table's views in the width goldens: the trace,
// how table reads it for that view, and the view at a width with table's
// default flags and those cli's TestWidthGoldens gives (--limit 15).
type widthGolden struct {
	view  string
	trace string
	read  parse.Options
	show  func(t *testing.T, b *strings.Builder, path string, tr *trace.Trace, w int)
}

var widthGoldens = []widthGolden{
	{"table", testenv.WidthTraceName, parse.Options{NoExtras: true}, compactTable},
	{"table_kernel", testenv.WidthTraceName, parse.Options{NoExtras: true, NoMemory: true}, kernelWidth},
	{"table_step", testenv.WidthTraceName, parse.Options{NoExtras: true, NoMemory: true}, func(t *testing.T, b *strings.Builder, path string, tr *trace.Trace, w int) {
		must(tableview.Steps(b, "text", path, tr.TraceStart, table.StepView(tr), nil, w, false))
	}},
	{"table_kernel_eff", testenv.ModuleWidthTraceName, parse.Options{NoExtras: true, NoMemory: true}, kernelWidth},
}

// TestWidthGolden: table's op (compact: --width picks it), kernel and
// step views on the shared width traces at each golden width. cli's
// TestWidthGoldens checks that `tracetab table ... --width W` prints
// exactly this.
func TestWidthGolden(t *testing.T) {
	for _, g := range widthGoldens {
		t.Run(g.view, func(t *testing.T) {
			path, shown, goldens := testenv.WidthTrace(t, g.trace)
			golden.CheckWidths(t, g.view, goldens, func(t *testing.T, w int) string {
				tr, _, err := testcache.Open(path, g.read)
				if err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				g.show(t, &b, shown, tr, w)
				return b.String()
			})
		})
	}
}

// compactTable is table --limit 15 --width W: the compact op table, its
// default columns (the device ones left out of a table without device
// time), names demangled, the recording torch's rows.
func compactTable(t *testing.T, b *strings.Builder, _ string, tr *trace.Trace, w int) {
	res, err := table.Compute(tr, table.Options{Torch: table.RecordingOf(tr).Default()})
	if err != nil {
		t.Fatal(err)
	}
	lay := tableview.CompactLayout{Demangle: true, Width: w, Torch: tableview.DefaultTorchLayout()}
	lay.Torch.Limit = 15
	for _, k := range []string{"self_cpu", "cpu_total", "self_cuda", "cuda_total", "calls"} {
		i := slices.IndexFunc(tableview.CompactColumns, func(c tableview.CompactColumn) bool { return c.Key == k })
		if i < 0 {
			t.Fatalf("no compact column %s", k)
		}
		if res.HasDeviceTime || !strings.Contains(k, "cuda") {
			lay.Columns = append(lay.Columns, tableview.CompactColumns[i])
		}
	}
	must(tableview.CompactOpTable(b, res, lay))
}

// kernelWidth is table --by kernel --limit 15 --width W: names demangled
// and filling the width, the kernels' efficiency over the plugin's steps.
func kernelWidth(_ *testing.T, b *strings.Builder, path string, tr *trace.Trace, w int) {
	rows, total := table.KernelView(tr, nil)
	for i := range rows {
		rows[i].Name = names.Demangle(rows[i].Name)
	}
	win := gaps.EffWindow(tr, gaps.PluginSteps(tr, nil))
	eff := &tableview.KernelEff{HasArgs: kerneleff.HasArgs(tr), Window: win, Devices: kerneleff.Devices(tr, win, nil)}
	must(tableview.Kernels(b, "text", path, rows, total, tableview.KernelLayout{Limit: 15, Width: w, Eff: eff}, nil))
}
