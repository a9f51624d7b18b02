package tableview

import (
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/table"
)

// TestMeasureTorchColumns: each column is its longest cell plus 4, capped
// at the layout's limit.
func TestMeasureTorchColumns(t *testing.T) {
	rows := []table.Row{
		{Name: "aten::mm", Shapes: "[[2, 3]]", Stack: []string{"a.py(1): f", "longer.py(12): g"}}, // 8, 8; frames 10 and 16
		{Name: "ampere_sgemm", Device: true},                                                      // 12 + " [gpu]" 6 = 18
	}
	c := cols{}
	marker := func(r *table.Row) string {
		if r.Device {
			return GPUMarker
		}
		return ""
	}
	w := measureTorchColumns(rows, c, marker, TorchLayout{})
	// no limits: name 18+4 = 22, shapes 8+4 = 12, source 16+4 = 20
	if want := (torchWidths{name: 22, shapes: 12, src: 20, hasShapes: true, hasStack: true}); w != want {
		t.Errorf("no limits: %+v, want %+v", w, want)
	}
	w = measureTorchColumns(rows, c, marker, TorchLayout{NameWidth: 15, ShapesWidth: 80, SrcWidth: 9})
	// name capped 22 -> 15, shapes 12 under 80, source capped 20 -> 9
	if want := (torchWidths{name: 15, shapes: 12, src: 9, hasShapes: true, hasStack: true}); w != want {
		t.Errorf("capped: %+v, want %+v", w, want)
	}
	w = measureTorchColumns(rows[1:], c, marker, TorchLayout{})
	// no row has shapes or a stack: neither column; shapes "" + 4 = 4
	if w.hasShapes || w.hasStack || w.shapes != 4 {
		t.Errorf("device row only: %+v, want no shapes or source column", w)
	}
}

// TestTorchHeaders: the device columns need device time, the memory
// columns profile_memory, the device memory columns a device with memory
// too; the device is named from use_device from torch 2.4 on.
func TestTorchHeaders(t *testing.T) {
	res := &table.Result{Torch: table.Version{Major: 2, Minor: 3}, UseDevice: "xpu"}
	if d := torchDeviceName(res); d != "CUDA" {
		t.Errorf("torch 2.3: device %q, want CUDA", d)
	}
	res.Torch.Minor = 4
	if d := torchDeviceName(res); d != "XPU" {
		t.Errorf("torch 2.4, use_device xpu: device %q, want XPU", d)
	}
	res.UseDevice = ""
	if d := torchDeviceName(res); d != "CUDA" {
		t.Errorf("torch 2.4, no use_device: device %q, want CUDA", d)
	}
	cpu := []string{"Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"}
	if h := torchHeaders(res, "CUDA"); !slices.Equal(h, append(slices.Clone(cpu), "# of Calls")) {
		t.Errorf("no device time, no memory: %q", h)
	}
	res.HasDeviceTime, res.ProfileMemory, res.HasDeviceMem = true, true, true
	// memory profiled but no use_device: CPU memory only (6 + 4 + 2 + 1 = 13 columns)
	if h := torchHeaders(res, "CUDA"); len(h) != 13 || h[6] != "Self CUDA" || h[11] != "Self CPU Mem" {
		t.Errorf("device time, CPU memory: %q", h)
	}
	res.UseDevice = "cuda"
	// and the device's memory: 13 + 2 = 15 columns
	if h := torchHeaders(res, "CUDA"); len(h) != 15 || h[12] != "CUDA Mem" || h[13] != "Self CUDA Mem" {
		t.Errorf("device memory: %q", h)
	}
}

// TestTorchMoreFrames: the frames after the first, up to maxFrames in
// all (torch 1.13's MAX_STACK_ENTRY 5: at most 4 more lines).
func TestTorchMoreFrames(t *testing.T) {
	st := []string{"f1", "f2", "f3", "f4", "f5", "f6", "f7"}
	if got := torchMoreFrames(st, 5); !slices.Equal(got, []string{"f2", "f3", "f4", "f5"}) {
		t.Errorf("7 frames, max 5: %q, want f2-f5", got)
	}
	if got := torchMoreFrames(st, 1<<30); !slices.Equal(got, st[1:]) {
		t.Errorf("no max: %q, want f2-f7", got)
	}
	if got := torchMoreFrames(st[:1], 5); len(got) != 0 {
		t.Errorf("one frame: %q, want none", got)
	}
	if got := torchMoreFrames(nil, 5); len(got) != 0 {
		t.Errorf("no stack: %q, want none", got)
	}
}

// TestTorchTextLimitCountsShownRows: with --top-level the rows skipped do
// not count against row_limit.
func TestTorchTextLimitCountsShownRows(t *testing.T) {
	res := &table.Result{Torch: table.Version{Major: 2, Minor: 6}, SumSelfCPU: 10, Rows: []table.Row{
		{Name: "child_a", Count: 1}, {Name: "top_b", TopLevel: true, Count: 1}, {Name: "child_c", Count: 1},
		{Name: "top_d", TopLevel: true, Count: 1}, {Name: "top_e", TopLevel: true, Count: 1}}}
	var b strings.Builder
	if err := TorchText(&b, res, TorchLayout{Limit: 2, TopLevel: true, NameWidth: 55}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// the first two top-level rows are top_b and top_d; top_e is the third
	for name, want := range map[string]bool{"top_b": true, "top_d": true, "top_e": false, "child_a": false, "child_c": false} {
		if strings.Contains(out, name) != want {
			t.Errorf("%s shown %v, want %v:\n%s", name, !want, want, out)
		}
	}
	if !strings.Contains(out, "This report only display top-level ops statistics") {
		t.Errorf("no top-level banner:\n%s", out)
	}
}
