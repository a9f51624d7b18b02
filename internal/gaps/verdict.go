package gaps

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/units"
)

// Verdict classes.
const (
	ClassGPU        = "gpu-bound"        // idle is a small share of the span
	ClassInput      = "input-bound"      // idle waits mostly on the DataLoader
	ClassCPU        = "cpu-bound"        // idle waits mostly on named (or untraced) CPU work
	ClassLaunch     = "launch-bound"     // idle is mostly launch calls and dispatch latency
	ClassSync       = "sync-bound"       // idle is mostly blocking calls
	ClassDependency = "dependency-bound" // idle is mostly queued ops waiting on other streams (or on what the trace does not show)
	ClassProfiler   = "profiler"         // the profiler's own work: the trace is distorted
	ClassNoGPU      = "no GPU lane"
)

// GPUBoundMaxIdlePct: at most this share of idle time, the GPU is the
// bottleneck whatever the idle time's causes.
const GPUBoundMaxIdlePct = 20

var classOfCause = [numCauses]string{
	CauseInput: ClassInput, CauseCPU: ClassCPU, CauseUntraced: ClassCPU, CauseSync: ClassSync, CauseLaunch: ClassLaunch,
	CauseDispatch: ClassLaunch, CauseProfiler: ClassProfiler, CauseDependency: ClassDependency, CauseQueued: ClassDependency,
}

// Verdict is one class derived from the idle breakdown over one stated
// denominator: the union of the profiler-step windows when the trace has
// steps (those selected), else the GPU window (first to last device op).
type Verdict struct {
	Class       string
	Headline    string
	Denominator string // "the union of 4 profiler step windows" or "the GPU window"
	SpanNs      int64  // length of the denominator (per device)
	Devices     int
	BusyNs      int64 // GPU busy inside the span, summed over devices
	IdleNs      int64 // SpanNs * Devices - BusyNs
	IdlePct     float64
	IdleByCause [numCauses]int64 // IdleNs split by cause (sums to IdleNs)
	ClassNs     int64            // the idle time behind the class
	Activity    string           // what inside the class costs most ("" when none)
	ActivityNs  int64
	CPUActiveNs int64 // union of CPU events on the launching threads inside CPUWindowNs
	CPUWindowNs int64 // the span, from the first launch call on when that came earlier
	Advice      string
}

// idleAcc sums the gaps' idle time inside the span by cause, and per
// class the time of the activities they name, as the gaps stream by: no
// gap is kept for it.
type idleAcc struct {
	names   func(int32) string
	byCause [numCauses]int64
	acts    map[string]map[string]int64
}

func newIdleAcc(names func(int32) string) *idleAcc {
	return &idleAcc{names: names, acts: map[string]map[string]int64{}}
}

func (a *idleAcc) add(g *gapRec) {
	if g.clipped <= 0 {
		return
	}
	part := g.shares
	if n := g.len(); g.clipped != n {
		var sum int64
		for c := range part {
			part[c] = int64(float64(part[c]) * float64(g.clipped) / float64(n))
			sum += part[c]
		}
		part[g.cause] += g.clipped - sum
	}
	for c, ns := range part {
		a.byCause[c] += ns
	}
	cl := classOfCause[g.cause]
	name := ""
	switch {
	case g.inside >= 0:
		name = a.names(g.inside)
	case g.cause == CauseProfiler && g.prof >= 0:
		name = a.names(g.prof)
	case g.cause == CauseSync && g.drained >= 0:
		name = a.names(g.drained)
	}
	if name != "" {
		if a.acts[cl] == nil {
			a.acts[cl] = map[string]int64{}
		}
		a.acts[cl][name] += g.clipped
	}
}

func verdict(span ivs, spanName string, devices []Lane, busyIn []int64, acc *idleAcc, cpuActive int64, narrowed string) Verdict {
	v := Verdict{Denominator: spanName, SpanNs: span.total(), Devices: len(devices), CPUActiveNs: cpuActive}
	for _, b := range busyIn {
		v.BusyNs += b
	}
	v.IdleNs = v.SpanNs*int64(v.Devices) - v.BusyNs
	v.IdlePct = pct(v.IdleNs, v.SpanNs*int64(v.Devices))
	byClass := map[string]int64{}
	acts := acc.acts
	v.IdleByCause = acc.byCause
	for c, ns := range v.IdleByCause {
		byClass[classOfCause[c]] += ns
	}
	v.Class = ClassGPU
	if v.IdlePct > GPUBoundMaxIdlePct && v.IdleNs > 0 {
		classes := []string{ClassInput, ClassCPU, ClassSync, ClassLaunch, ClassDependency, ClassProfiler}
		v.Class = slices.MaxFunc(classes, func(a, b string) int {
			if c := cmp.Compare(byClass[a], byClass[b]); c != 0 {
				return c
			}
			return cmp.Compare(slices.Index(classes, b), slices.Index(classes, a))
		})
		v.ClassNs = byClass[v.Class]
		for name, ns := range acts[v.Class] {
			if ns > v.ActivityNs || (ns == v.ActivityNs && name < v.Activity) {
				v.Activity, v.ActivityNs = name, ns
			}
		}
		// Name an activity only when it holds a tenth of the class's time.
		if 10*v.ActivityNs < v.ClassNs {
			v.Activity, v.ActivityNs = "", 0
		}
	}
	v.Headline, v.Advice = headline(&v, narrowed)
	return v
}

func devs(n int) string {
	if n == 1 {
		return "1 device"
	}
	return fmt.Sprintf("%d devices", n)
}

func headline(v *Verdict, narrowed string) (string, string) {
	var b strings.Builder
	if narrowed != "" {
		fmt.Fprintf(&b, "(%s only) ", narrowed)
	}
	fmt.Fprintf(&b, "GPU idle %s%% (%s of %s on %s) over %s", units.Pct(v.IdlePct),
		units.Dur(v.IdleNs), units.Dur(v.SpanNs*int64(v.Devices)), devs(v.Devices), v.Denominator)
	if v.Class == ClassGPU {
		return b.String() + "; the GPU is the bottleneck", "speed up the kernels themselves (see table --by kernel)"
	}
	share := units.Pct(pct(v.ClassNs, v.IdleNs)) + "%"
	fmt.Fprintf(&b, "; %s of the idle time is %s:", share, v.Class)
	var parts []string
	for _, c := range Causes() {
		if classOfCause[c] == v.Class && v.IdleByCause[c] > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", causePhrase[c], units.Dur(v.IdleByCause[c])))
		}
	}
	b.WriteString(" " + strings.Join(parts, ", "))
	if v.Activity != "" {
		fmt.Fprintf(&b, "; most inside %s (%s)", v.Activity, units.Dur(v.ActivityNs))
	}
	advice := map[string]string{
		ClassInput:      "raise the DataLoader's num_workers, set pin_memory=True, and move preprocessing out of the training loop",
		ClassCPU:        "move the CPU work out of the loop, overlap it with the GPU, or trace Python (with_stack=True) to see it",
		ClassSync:       "remove .item()/.cpu()/synchronize from the loop, or move them to the end of the step",
		ClassLaunch:     "capture the loop with CUDA graphs or fuse kernels with torch.compile; larger batches amortise launches",
		ClassDependency: "find what the queued ops wait on: the events of cudaStreamWaitEvent, collectives of other ranks, a CUDA graph's dependencies; overlap communication with compute",
		ClassProfiler:   "profile fewer steps, or without profile_memory/with_stack, before reading this trace's gaps",
	}[v.Class]
	if v.Activity != "" && (v.Class == ClassSync || v.Class == ClassCPU || v.Class == ClassInput) {
		advice += " (" + v.Activity + ")"
	}
	return b.String(), advice
}

var causePhrase = [numCauses]string{
	CauseInput:      "waiting on the DataLoader",
	CauseCPU:        "CPU work between launches",
	CauseSync:       "blocking calls",
	CauseLaunch:     "launch calls",
	CauseProfiler:   "the profiler's own work (the trace is distorted)",
	CauseUntraced:   "nothing recorded on the launching thread (Python not traced?)",
	CauseDependency: "ops queued behind another stream",
	CauseDispatch:   "dispatch latency (launched in time, started late)",
	CauseQueued:     "ops queued 30us or more with no recorded dependency (an event, another stream or rank, a graph's own edges)",
}
