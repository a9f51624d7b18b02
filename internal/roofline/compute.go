package roofline

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// Options choose the events and the peaks.
type Options struct {
	// Torch is the torch whose rules rebuild the events (zero: the
	// recording torch's, as table does).
	Torch table.Version
	// Steps, when HasSteps, keeps only profiler steps StepLo..StepHi (as
	// table --steps does).
	StepLo, StepHi int64
	HasSteps       bool
	// Peak, when set, overrides the peak table (--peak).
	Peak *Override
}

// Row is one op with one set of recorded arguments, and the device ops it
// owns: every call of the op whose Input Dims, Input type and Concrete
// Inputs are the same (the model gives each the same figures), on one
// device.
type Row struct {
	Name string
	// DeviceOp: the row is device ops that no CPU event launched (no
	// launch call in the trace, or one outside any op torch attaches
	// kernels to), named by the device op.
	DeviceOp bool
	// Dims, Types, Values: the recorded "Input Dims", "Input type" and
	// "Concrete Inputs" as compact JSON ("" when absent).
	Dims, Types, Values string
	Device              int   // the device of its device ops (the first one's)
	Calls               int64 // calls that launched device work
	DeviceNs            int64 // the durations of the device ops it owns
	// Est is the model's estimate of one call; nil when the op has none
	// (NoModel says why when it is a modelled op whose arguments did not
	// give one).
	Est     *Estimate
	NoModel string
	// TF32: an FP32 matrix op whose kernels are named for TF32: "tf32"
	// (cuBLAS, cuDNN), "xf32" (ROCm) or CUTLASS's "s1688" (its FP32-in,
	// TF32-math tensor-core GEMMs, m16n8k8): measured against the TF32 peak.
	TF32 bool
	Figures
}

// Figures are a row's totals and rates. Pointers are nil where a figure
// cannot be given (no model, no dtype, no peak, no device time).
type Figures struct {
	FLOPs, Bytes *int64   // over all calls
	Intensity    *float64 // FLOPs per byte
	TFLOPs, TBps *float64 // achieved
	Precision    Precision
	PeakTFLOPs   *float64 // the compute peak that applies
	ComputePct   *float64 // achieved TFLOP/s as a share of PeakTFLOPs
	MemoryPct    *float64 // achieved TB/s as a share of the memory peak
	Bound        string   // "compute" or "memory" by the ridge point; "" unknown
	PeakPct      *float64 // the bound resource's share: the distance to the roofline
	LostNs       *int64   // DeviceNs·(1 − PeakPct/100), 0 at or past the peak
	FLOPsPerCall *int64
}

// Device is one device that ran work, with the peaks its rows use.
type Device struct {
	Index    int
	Name     string // deviceProperties name, "" when absent
	TotalMem int64
	Peak     *Peak // nil: unknown, no --peak
	Known    bool  // the peak table knows the device
	// PropsID is the deviceProperties entry that names it, -1 for none:
	// its own id, or the trace's only entry when the device ops of a
	// single device carry another index (ROCm).
	PropsID int
}

// FamilySummary is the device time of one family's rows.
type FamilySummary struct {
	Family   Family
	DeviceNs int64 // rows with a model
	// PeakPct is the time-weighted mean of the rows' PeakPct over
	// MeasuredNs, the device time of the rows that have one; nil when none.
	PeakPct    *float64
	MeasuredNs int64
}

// Result is the roofline of a trace.
type Result struct {
	Rows []Row
	// DeviceNs is the sum of the durations of every device op (kernels,
	// memcpys, memsets) in the selection: overlapping ops each count in
	// full, as in table's CUDA totals; ModelledNs is the part owned by rows
	// with a model.
	DeviceNs, ModelledNs int64
	Devices              []Device
	Families             []FamilySummary
	// Lost lists the rows (indices into Rows) with the most time lost to
	// the peak, largest first (at most three).
	Lost      []int
	HasShapes bool
	Notes     []string
}

// ModelledPct is ModelledNs as a share of DeviceNs; ok is false without
// device time.
func (r *Result) ModelledPct() (float64, bool) {
	if r.DeviceNs == 0 {
		return 0, false
	}
	return float64(r.ModelledNs) * 100 / float64(r.DeviceNs), true
}

type rowKey struct {
	name                trace.StrID
	dims, types, values trace.StrID
	device              int32
	deviceOp            bool
}

// Compute builds the roofline of t.
//
// Each device op belongs to one CPU event, as table attributes it (the op
// that launched it; table.Attribute). Walking down the event tree, the
// outermost op with a model owns its whole subtree: its row's device time
// is that of every device op attached to it or to an event below it, and
// no op below it has a row of its own for that time, so nothing is counted
// twice (linear, matmul, conv2d have no model of their own: their addmm,
// mm or convolution is the outermost). Outside modelled subtrees a device
// op stays with the event it is attached to, as table's Self CUDA has it.
func Compute(t *trace.Trace, o Options) *Result {
	a := table.Attribute(t, table.Options{Torch: o.Torch, HasSteps: o.HasSteps, StepLo: o.StepLo, StepHi: o.StepHi})
	n := a.Len()
	res := &Result{HasShapes: table.HasShapes(t)}

	// which names have a model, by string id
	modelled := make([]int8, len(t.Strings)) // 0 unknown, 1 yes, 2 no
	isModelled := func(name trace.StrID) bool {
		if modelled[name] == 0 {
			modelled[name] = 2
			if modelOf(t.Str(name)) != nil {
				modelled[name] = 1
			}
		}
		return modelled[name] == 1
	}
	// tgt[p]-1 is the event whose row p's device time goes to (0: not
	// met). Children come after their parent in the list, so one pass
	// pushes each event's context down to its children before they are
	// met. Once a target has its row, its own entry holds ^row instead.
	tgt := make([]int32, n)
	for p := 0; p < n; p++ {
		x := a.Event(p)
		if x < 0 || a.Merged(p) {
			continue
		}
		e := t.Ev(x)
		if e.Kind.IsDevice() {
			continue
		}
		ctx := tgt[p] // the modelled ancestor pushed down (+1), or 0
		child := int32(0)
		switch {
		case ctx > 0:
			child = ctx
		case e.Kind == trace.KindCPUOp && isModelled(e.Name):
			ctx, child = int32(p)+1, int32(p)+1
		default:
			ctx = int32(p) + 1
		}
		tgt[p] = ctx
		for c := a.FirstChild(p); c >= 0; c = a.NextSibling(c) {
			tgt[c] = child
		}
	}

	// each device op to its row
	index := map[rowKey]int32{}
	tf32Name := make([]int8, len(t.Strings))
	devices := make([]bool, len(t.Tracks))
	for p := 0; p < n; p++ {
		x := a.Event(p)
		if x < 0 {
			continue
		}
		e := t.Ev(x)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		res.DeviceNs += e.Dur
		dev := t.Tracks[e.Track].Device
		devices[e.Track] = true
		ri := int32(-1)
		if own := a.Owner(p); own >= 0 {
			switch v := tgt[own]; {
			case v < 0:
				ri = ^v // own is a target with its row
			case v > 0:
				tg := v - 1
				if w := tgt[tg]; w < 0 {
					ri = ^w
				} else {
					ri = res.rowFor(t, index, a.Event(int(tg)), false, dev)
					tgt[tg] = ^ri
					res.Rows[ri].Calls++
				}
			}
		}
		if ri < 0 {
			ri = res.rowFor(t, index, x, true, dev)
			res.Rows[ri].Calls++
		}
		r := &res.Rows[ri]
		r.DeviceNs += e.Dur
		if e.Kind == trace.KindKernel && !r.TF32 {
			if tf32Name[e.Name] == 0 {
				tf32Name[e.Name] = 2
				s := strings.ToLower(t.Str(e.Name))
				if strings.Contains(s, "tf32") || strings.Contains(s, "xf32") || strings.Contains(s, "s1688") {
					tf32Name[e.Name] = 1
				}
			}
			r.TF32 = tf32Name[e.Name] == 1
		}
	}
	used := map[int]bool{}
	for k, ok := range devices {
		if ok {
			used[t.Tracks[k].Device] = true
		}
	}
	res.Devices = resolveDevices(t, used, o.Peak)
	res.finish()
	res.Notes = append(res.Notes, res.notes(t)...)
	return res
}

// rowFor finds or adds the row of event x (a CPU op, or a device op no
// event launched).
func (res *Result) rowFor(t *trace.Trace, index map[rowKey]int32, x int, deviceOp bool, dev int) int32 {
	e := t.Ev(x)
	k := rowKey{name: e.Name, device: int32(dev), deviceOp: deviceOp}
	if xt := t.ExtraOf(x); xt != nil && !deviceOp {
		k.dims, k.types, k.values = xt.InputDims, xt.InputTypes, xt.Concrete
	}
	if ri, ok := index[k]; ok {
		return ri
	}
	ri := int32(len(res.Rows))
	index[k] = ri
	res.Rows = append(res.Rows, Row{Name: t.Str(k.name), DeviceOp: deviceOp, Dims: t.Str(k.dims),
		Types: t.Str(k.types), Values: t.Str(k.values), Device: dev})
	return ri
}

// finish models every row once, applies the peaks and sums up.
func (res *Result) finish() {
	peaks := map[int]*Peak{}
	for i := range res.Devices {
		peaks[res.Devices[i].Index] = res.Devices[i].Peak
	}
	fam := map[Family]*FamilySummary{}
	for _, f := range Families {
		fam[f] = &FamilySummary{Family: f}
	}
	var weighted = map[Family]float64{}
	for i := range res.Rows {
		r := &res.Rows[i]
		if !r.DeviceOp {
			est, err := Model(r.Name, r.Dims, r.Types, r.Values)
			switch {
			case err != nil:
				r.NoModel = err.Error()
			case est.Family != "":
				r.Est = &est
			}
		}
		r.Figures = figures(r, peaks[r.Device])
		if r.Est == nil {
			continue
		}
		res.ModelledNs += r.DeviceNs
		fs := fam[r.Est.Family]
		fs.DeviceNs += r.DeviceNs
		if r.PeakPct != nil {
			fs.MeasuredNs += r.DeviceNs
			weighted[r.Est.Family] += float64(r.DeviceNs) * *r.PeakPct
		}
	}
	for _, f := range Families {
		fs := fam[f]
		if fs.MeasuredNs > 0 {
			v := weighted[f] / float64(fs.MeasuredNs)
			fs.PeakPct = &v
		}
		res.Families = append(res.Families, *fs)
	}
	var lost []int
	for i := range res.Rows {
		if l := res.Rows[i].LostNs; l != nil && *l > 0 {
			lost = append(lost, i)
		}
	}
	slices.SortStableFunc(lost, func(x, y int) int {
		return cmp.Compare(*res.Rows[y].LostNs, *res.Rows[x].LostNs)
	})
	res.Lost = lost[:min(len(lost), 3)]
}

// notes say what the reader should know: no shapes, unknown devices,
// modelled ops without an estimate.
func (res *Result) notes(t *trace.Trace) []string {
	var notes []string
	if res.DeviceNs == 0 {
		notes = append(notes, "the trace has no kernels, memcpys or memsets: no device time to measure")
	}
	if !res.HasShapes {
		notes = append(notes, "the trace has no input shapes (\"Input Dims\"): no op can be modelled; record it with torch.profiler.profile(record_shapes=True)")
	}
	for _, d := range res.Devices {
		if d.PropsID >= 0 && d.PropsID != d.Index {
			notes = append(notes, fmt.Sprintf("device %d has no deviceProperties entry of its own: the trace's only one (id %d, %q) describes it", d.Index, d.PropsID, d.Name))
		}
		if d.Peak == nil {
			name := fmt.Sprintf("%q", d.Name)
			switch {
			case len(t.Devices) == 0:
				name = "(the trace has no deviceProperties)"
			case d.Name == "":
				name = "(no name in deviceProperties)"
			}
			notes = append(notes, fmt.Sprintf("device %d %s is not in the peak table: achieved TFLOP/s and TB/s only (give --peak tflops=N,tbps=N for the rest)", d.Index, name))
		}
	}
	why := map[string]int{}
	var order []string
	for i := range res.Rows {
		r := &res.Rows[i]
		if r.NoModel != "" && res.HasShapes {
			if why[r.NoModel] == 0 {
				order = append(order, r.NoModel)
			}
			why[r.NoModel] += int(r.Calls)
		}
	}
	for _, w := range order {
		notes = append(notes, fmt.Sprintf("%d calls of modelled ops have no model: %s", why[w], w))
	}
	over := 0
	for i := range res.Rows {
		if p := res.Rows[i].PeakPct; p != nil && *p > 100 {
			over++
		}
	}
	if over > 0 {
		notes = append(notes, fmt.Sprintf("%d rows exceed 100%% of a peak: their bytes came partly from cache (the model counts each tensor once from memory), or the peak is too low (--peak)", over))
	}
	tf := 0
	for i := range res.Rows {
		if res.Rows[i].TF32 && res.Rows[i].Precision == TF32 {
			tf++
		}
	}
	if tf > 0 {
		notes = append(notes, fmt.Sprintf("%d fp32 rows ran TF32 kernels (named tf32, xf32 or s1688): measured against the TF32 peak", tf))
	}
	return notes
}
