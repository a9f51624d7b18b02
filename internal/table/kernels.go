package table

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/kerneleff"
	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// KernelRow is one device op name in the kernel view (like nsys's
// cuda_gpu_kern_sum): its spread, not only its mean. Times in ns.
type KernelRow struct {
	Name     string
	Kind     trace.Kind
	Class    string // communication, memory, wait or compute (trace.DeviceClass)
	Count    int64
	TotalNs  int64
	MinNs    int64
	MaxNs    int64
	MedianNs int64 // stats.MedianNs: the mean of the middle two for an even count
	MeanNs   float64
	StdDevNs float64 // population standard deviation
	Pct      float64 // share of all device op time

	// Kernels only (Kind == trace.KindKernel), by the TensorBoard
	// plugin's Kernel view (internal/kerneleff): whether the name says
	// Tensor Cores; the duration-weighted means of blocks per SM and of
	// the estimated achieved occupancy (a call without the arg counts as
	// 0; Has* false when no call carries it); the calls whose launching op
	// is known (OpCalls) and, of those, the calls launched by an op
	// eligible for Tensor Cores.
	TensorCores                  bool
	BlocksPerSM, OccupancyPct    float64
	HasBlocksPerSM, HasOccupancy bool
	OpCalls, TCEligibleCalls     int64
}

// DeviceClass is trace.DeviceClass, the one definition of what a device
// op does.
func DeviceClass(k trace.Kind, name string) string { return trace.DeviceClass(k, name) }

// KernelView groups kernels, memcpys and memsets by name, largest total
// first. keep, when set, selects which device ops count.
func KernelView(t *trace.Trace, keep func(i int) bool) (rows []KernelRow, totalNs int64) {
	return KernelViewWith(t, keep, KernelNameFactsOf)
}

// KernelNameFacts are what a kernel view row takes from its name alone.
type KernelNameFacts struct {
	Class       string // DeviceClass
	TensorCores bool   // kerneleff.TensorCoresUsed (read where the name has kernels)
}

// KernelNameFactsOf computes the facts of a device op's name.
func KernelNameFactsOf(k trace.Kind, name string) KernelNameFacts {
	return KernelNameFacts{Class: DeviceClass(k, name), TensorCores: kerneleff.TensorCoresUsed(name)}
}

// KernelViewWith is KernelView with each row's name facts given by facts
// (which must answer as KernelNameFactsOf does): a caller making the view
// of many parts of one trace can remember them by name (export's per-step
// kernel rows: DeviceClass and TensorCoresUsed on the same long kernel
// names in each of 1377 steps were some 40 ms of CPU on tracegen -shape
// export at 200 MB).
func KernelViewWith(t *trace.Trace, keep func(i int) bool, facts func(k trace.Kind, name string) KernelNameFacts) (rows []KernelRow, totalNs int64) {
	// one slot per name in first-occurrence order, and each call's event
	// and slot in two lists, its duration sorted into a run per name at
	// the end: a
	// few allocations per view, not a list and an efficiency sum per
	// name (export makes a view per step: those were 40% of the
	// allocations of its per-step tables on the benchmark shapes)
	type nameSlot struct {
		id     trace.StrID
		kind   trace.Kind
		n      int
		hasEff bool
		eff    kernelEff
	}
	slotOf := map[trace.StrID]int32{}
	var names []nameSlot
	var calls, slots []int32 // each call's event and slot
	l := t.Links()
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() || (keep != nil && !keep(i)) {
			continue
		}
		s, ok := slotOf[e.Name]
		if !ok {
			s = int32(len(names))
			slotOf[e.Name] = s
			names = append(names, nameSlot{id: e.Name, kind: e.Kind})
		}
		ns := &names[s]
		ns.n++
		calls, slots = append(calls, int32(i)), append(slots, s)
		totalNs += e.Dur
		if e.Kind == trace.KindKernel {
			ns.hasEff = true
			ns.eff.add(t, l, i)
		}
	}
	if len(names) == 0 {
		return nil, totalNs
	}
	// each name's durations, in a run of one flat list
	off := make([]int, len(names)+1)
	for k := range names {
		off[k+1] = off[k] + names[k].n
	}
	flat := make([]int64, len(calls))
	next := slices.Clone(off[:len(names)])
	for j, i := range calls {
		flat[next[slots[j]]] = t.Ev(int(i)).Dur
		next[slots[j]]++
	}
	rows = make([]KernelRow, 0, len(names))
	for k := range names {
		ns := &names[k]
		d := flat[off[k]:off[k+1]]
		slices.Sort(d)
		name := t.Str(ns.id)
		nf := facts(ns.kind, name)
		r := KernelRow{Name: name, Kind: ns.kind, Class: nf.Class, Count: int64(len(d)), MinNs: d[0], MaxNs: d[len(d)-1]}
		for _, x := range d {
			r.TotalNs += x
		}
		r.MeanNs = float64(r.TotalNs) / float64(len(d))
		r.MedianNs = stats.MedianSortedNs(d)
		var ss float64
		for _, x := range d {
			dx := float64(x) - r.MeanNs
			ss += dx * dx
		}
		r.StdDevNs = math.Sqrt(ss / float64(len(d)))
		if totalNs > 0 {
			r.Pct = float64(r.TotalNs) * 100 / float64(totalNs)
		}
		if ns.hasEff {
			ns.eff.fill(&r, nf.TensorCores)
		}
		rows = append(rows, r)
	}
	slices.SortStableFunc(rows, func(a, b KernelRow) int {
		switch {
		case a.TotalNs > b.TotalNs:
			return -1
		case a.TotalNs < b.TotalNs:
			return 1
		}
		return 0
	})
	return rows, totalNs
}

// UnlaunchedNotes says what the device ops without a launch call in the
// trace are: those with no correlation id at all were recorded by the
// device on its own (DMA transfers, waits, syncs) and are counted by
// class; those with one were launched before the profiling window opened.
func UnlaunchedNotes(t *trace.Trace) []string {
	l := t.Links()
	var noCorr int
	byClass := map[string]int{}
	var names []string
	seen := map[trace.StrID]bool{}
	withCorr := 0
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDevice() || e.Kind == trace.KindGPUAnnotation || l.Launch[i] >= 0 {
			continue
		}
		if e.Has(trace.FlagCorr) && t.CorrOf(e) != 0 {
			withCorr++
			continue
		}
		noCorr++
		byClass[DeviceClass(e.Kind, t.Str(e.Name))]++
		if !seen[e.Name] && len(names) < 3 {
			seen[e.Name] = true
			names = append(names, t.Str(e.Name))
		}
	}
	var notes []string
	if noCorr > 0 {
		var parts []string
		for _, c := range []string{"communication", "memory", "wait", "compute"} {
			if n := byClass[c]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, c))
			}
		}
		notes = append(notes, fmt.Sprintf("%d of %d device ops %s no correlation id at all (%s; e.g. %s): the trace does not say which CPU call, if any, launched them (a device records its DMA transfers and waits on its own; some exporters write no id), so they are not ops launched before the window; they are rows of their own, count toward no op's CUDA time, and their queue delay is n/a",
			noCorr, l.DeviceOps, verb(noCorr, "carries", "carry"), strings.Join(parts, ", "), strings.Join(names, ", ")))
	}
	if withCorr > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d device ops %s a correlation id but no launch call in the trace (launched before the profiling window opened): they are rows of their own but count toward no op's CUDA time", withCorr, l.DeviceOps, verb(withCorr, "has", "have")))
	}
	return notes
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
