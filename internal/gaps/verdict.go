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
	ClassInput      = "input-bound"      // idle waits mostly on the DataLoader or input preparation
	ClassCPU        = "cpu-bound"        // idle waits mostly on named (or untraced) CPU work
	ClassLaunch     = "launch-bound"     // idle is mostly launch calls and dispatch latency
	ClassSync       = "sync-bound"       // idle is mostly blocking calls
	ClassDependency = "dependency-bound" // idle is mostly queued ops waiting on an event (or on what the trace does not show)
	ClassProfiler   = "profiler"         // the profiler's own work: the trace is distorted
	ClassStartup    = "startup"          // one-time start-up calls hold most idle time
	ClassNoGPU      = "no GPU lane"
)

// GPUBoundMaxIdlePct: at most this share of idle time, the GPU is the
// bottleneck whatever the idle time's causes.
const GPUBoundMaxIdlePct = 20

var classOfCause = [numCauses]string{
	CauseInput: ClassInput, CauseCPU: ClassCPU, CauseUntraced: ClassCPU, CauseSync: ClassSync, CauseLaunch: ClassLaunch,
	CauseDispatch: ClassLaunch, CauseProfiler: ClassProfiler, CauseDependency: ClassDependency, CauseQueued: ClassDependency,
	CauseStartup: ClassStartup,
}

// verdictClasses in the order that breaks ties.
var verdictClasses = []string{ClassInput, ClassCPU, ClassSync, ClassLaunch, ClassDependency, ClassProfiler, ClassStartup}

// StartupCall is the idle time the start-up calls of one name hold.
type StartupCall struct {
	Name      string
	Calls     int   // start-up calls of this name holding idle time
	IdleNs    int64 // the idle time inside the span they hold
	LargestNs int64 // the longest one's duration
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
	ActivityNs  int64            // its idle time counted for the class (at most ClassNs)
	CPUActiveNs int64            // union of CPU events on the launching threads inside CPUWindowNs
	CPUWindowNs int64            // the span, from the first launch call on when that came earlier
	Advice      string
	// Also: remedies of other classes, each with the number that
	// justifies it (oneVoice); the one advice section says them after
	// Advice.
	Also []string
	// Start-up: the idle time one-time start-up calls hold (StartupNs is
	// IdleByCause[CauseStartup]), its share of the idle, the calls by name
	// (their IdleNs sum to StartupNs), and the verdict of the steady state:
	// the class and headline with that time left out of the idle and of
	// the denominator.
	StartupNs      int64
	StartupPct     float64
	StartupCalls   []StartupCall
	SteadyClass    string
	SteadyHeadline string
	SteadyIdlePct  float64
	// The input share split: DataLoader frames and what they called, and
	// input preparation outside them (InputPrepWords).
	InputLoaderNs int64
	InputPrepNs   int64
	InputPrep     string // the input preparation event holding most of InputPrepNs ("" when none)
	// BlockingLaunchNs is the launch idle of gaps whose next op's launch
	// call was running when the GPU went idle.
	BlockingLaunchNs int64
}

// traceFacts are what the verdict's words depend on beyond the numbers.
type traceFacts struct {
	python    bool  // the trace has python_function events (with_stack was on)
	graphs    bool  // it launches CUDA/HIP graphs
	coldStep  int64 // the first ProfilerStep's number when it is cold, -1
	coldNs    int64 // its CPU time
	medStepNs int64 // the median step's CPU time
}

// idleAcc sums the gaps' idle time inside the span by cause, and per
// class the time of the activities they name, as the gaps stream by: no
// gap is kept for it.
type idleAcc struct {
	names    func(int32) string
	durOf    func(int32) int64
	byCause  [numCauses]int64
	acts     map[string]map[string]int64
	prepNs   int64
	prepBy   map[string]int64 // input preparation by the event named for it
	behind   [numCauses]int64 // dependency and queued idle while another stream of the device was busy
	blocking int64
	startup  map[int32]int64 // start-up call -> idle it holds
}

func newIdleAcc(names func(int32) string, durOf func(int32) int64) *idleAcc {
	return &idleAcc{names: names, durOf: durOf, acts: map[string]map[string]int64{}, startup: map[int32]int64{},
		prepBy: map[string]int64{}}
}

func (a *idleAcc) add(g *gapRec) {
	if g.clipped <= 0 {
		return
	}
	n := g.len()
	scale := func(x int64) int64 {
		if g.clipped == n {
			return x
		}
		return int64(float64(x) * float64(g.clipped) / float64(n))
	}
	part := g.shares
	if g.clipped != n {
		var sum int64
		for c := range part {
			part[c] = scale(part[c])
			sum += part[c]
		}
		part[g.cause] += g.clipped - sum
	}
	for c, ns := range part {
		a.byCause[c] += ns
	}
	// input preparation: its part of the input part (all of it when the
	// gap's input is all input preparation, none when none is)
	prep := min(scale(g.prepNs), part[CauseInput])
	if g.prepNs > 0 && g.prepNs == g.shares[CauseInput] {
		prep = part[CauseInput]
	}
	a.prepNs += prep
	if prep > 0 && g.prepTop >= 0 {
		a.prepBy[a.names(g.prepTop)] += prep
	}
	if g.otherBusy > 0 {
		a.behind[CauseDependency] += part[CauseDependency]
		a.behind[CauseQueued] += part[CauseQueued]
	}
	if g.blocking {
		a.blocking += part[CauseLaunch]
	}
	// The start-up calls' parts, in proportion to their time, summing to
	// the start-up share (the remainder to the largest).
	if su := part[CauseStartup]; su > 0 && len(g.suParts) > 0 {
		var total, given int64
		big := 0
		for k, x := range g.suParts {
			total += x.ns
			if x.ns > g.suParts[big].ns {
				big = k
			}
		}
		for k, x := range g.suParts {
			if k != big {
				p := int64(float64(x.ns) * float64(su) / float64(total))
				a.startup[x.i] += p
				given += p
			}
		}
		a.startup[g.suParts[big].i] += su - given
	}
	if g.act >= 0 {
		cl := classOfCause[g.cause]
		if a.acts[cl] == nil {
			a.acts[cl] = map[string]int64{}
		}
		a.acts[cl][a.names(g.act)] += min(scale(g.actNs), part[g.cause])
	}
}

// view is one reading of the idle time: the whole of it, or the steady
// state (start-up left out).
type view struct {
	idle, total int64
	byCause     [numCauses]int64
	class       string
	classNs     int64
	activity    string
	activityNs  int64
}

func (v *view) pct() float64 { return pct(v.idle, v.total) }

// classify picks the class of a view: gpu-bound at most GPUBoundMaxIdlePct
// idle, else the class of the causes holding the most idle time.
func (w *view) classify(acts map[string]map[string]int64, without string) {
	w.class, w.classNs, w.activity, w.activityNs = ClassGPU, 0, "", 0
	if w.pct() <= GPUBoundMaxIdlePct || w.idle <= 0 {
		return
	}
	byClass := map[string]int64{}
	for c, ns := range w.byCause {
		byClass[classOfCause[c]] += ns
	}
	classes := slices.DeleteFunc(slices.Clone(verdictClasses), func(c string) bool { return c == without })
	w.class = slices.MaxFunc(classes, func(a, b string) int {
		if c := cmp.Compare(byClass[a], byClass[b]); c != 0 {
			return c
		}
		return cmp.Compare(slices.Index(classes, b), slices.Index(classes, a))
	})
	w.classNs = byClass[w.class]
	for name, ns := range acts[w.class] {
		if ns > w.activityNs || (ns == w.activityNs && name < w.activity) {
			w.activity, w.activityNs = name, ns
		}
	}
	// Name an activity only when it holds a tenth of the class's time.
	if 10*w.activityNs < w.classNs {
		w.activity, w.activityNs = "", 0
	}
}

func verdict(span ivs, spanName string, devices []Lane, busyIn []int64, acc *idleAcc, cpuActive int64, narrowed string, f traceFacts) Verdict {
	v := Verdict{Denominator: spanName, SpanNs: span.total(), Devices: len(devices), CPUActiveNs: cpuActive}
	for _, b := range busyIn {
		v.BusyNs += b
	}
	total := v.SpanNs * int64(v.Devices)
	v.IdleNs = total - v.BusyNs
	v.IdlePct = pct(v.IdleNs, total)
	v.IdleByCause = acc.byCause
	v.StartupNs = v.IdleByCause[CauseStartup]
	v.StartupPct = pct(v.StartupNs, v.IdleNs)
	v.InputPrepNs = min(acc.prepNs, v.IdleByCause[CauseInput])
	v.InputLoaderNs = v.IdleByCause[CauseInput] - v.InputPrepNs
	var best int64
	for name, ns := range acc.prepBy {
		if ns > best || (ns == best && name < v.InputPrep) {
			v.InputPrep, best = name, ns
		}
	}
	v.BlockingLaunchNs = acc.blocking
	v.StartupCalls = startupByName(acc)

	all := view{idle: v.IdleNs, total: total, byCause: v.IdleByCause}
	all.classify(acc.acts, "")
	v.Class, v.ClassNs, v.Activity, v.ActivityNs = all.class, all.classNs, all.activity, all.activityNs
	steady := view{idle: v.IdleNs - v.StartupNs, total: total - v.StartupNs, byCause: v.IdleByCause}
	steady.byCause[CauseStartup] = 0
	steady.classify(acc.acts, ClassStartup)
	v.SteadyClass, v.SteadyIdlePct = steady.class, steady.pct()

	b := &words{v: &v, f: f, behind: acc.behind, narrowed: narrowed}
	v.SteadyHeadline, _ = b.headline(&steady, narrowed)
	if v.StartupNs == 0 {
		v.Headline, v.Advice = b.headline(&all, narrowed)
		v.SteadyHeadline = v.Headline
		return v
	}
	v.Headline, v.Advice = b.headline(&all, narrowed)
	if v.Class != ClassStartup {
		v.Headline += fmt.Sprintf("; one-time start-up calls hold %s%% of the idle time (%s: %s)", units.Pct(v.StartupPct),
			units.Dur(v.StartupNs), b.startupList(2))
		return v
	}
	_, steadyAdvice := b.headline(&steady, "")
	v.Headline += fmt.Sprintf("; the steady state without it is %s (GPU idle %s%%)", v.SteadyClass, units.Pct(v.SteadyIdlePct))
	v.Advice = "the window is dominated by one-time initialisation: profile after warm-up (torch.profiler.schedule(wait=1, warmup=1, active=3))"
	if v.SteadyClass != ClassGPU {
		v.Advice += "; then, for the steady state: " + steadyAdvice
	}
	return v
}

// startupByName groups the start-up calls holding idle time by name,
// largest idle first.
func startupByName(acc *idleAcc) []StartupCall {
	by := map[string]*StartupCall{}
	var out []StartupCall
	for i, ns := range acc.startup {
		if ns <= 0 {
			continue
		}
		name := acc.names(i)
		s := by[name]
		if s == nil {
			s = &StartupCall{Name: name}
			by[name] = s
		}
		s.Calls++
		s.IdleNs += ns
		s.LargestNs = max(s.LargestNs, acc.durOf(i))
	}
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b StartupCall) int {
		if a.IdleNs != b.IdleNs {
			return cmp.Compare(b.IdleNs, a.IdleNs)
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

func devs(n int) string {
	if n == 1 {
		return "1 device"
	}
	return fmt.Sprintf("%d devices", n)
}

// words writes the headline and advice of a view: every phrase is true of
// the numbers and of the trace (Python traced or not, graphs launched or
// not, another stream busy or not).
type words struct {
	v        *Verdict
	f        traceFacts
	behind   [numCauses]int64
	narrowed string
}

func (b *words) startupList(n int) string {
	var parts []string
	for k, s := range b.v.StartupCalls {
		if k == n {
			parts = append(parts, fmt.Sprintf("%d more", len(b.v.StartupCalls)-n))
			break
		}
		p := fmt.Sprintf("%s %s", s.Name, units.Dur(s.IdleNs))
		if s.Calls > 1 {
			p = fmt.Sprintf("%s %s in %d calls", s.Name, units.Dur(s.IdleNs), s.Calls)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

func (b *words) headline(w *view, narrowed string) (string, string) {
	v := b.v
	var sb strings.Builder
	if narrowed != "" {
		fmt.Fprintf(&sb, "(%s only) ", narrowed)
	}
	lead := "GPU idle"
	if w.total != v.SpanNs*int64(v.Devices) {
		lead = fmt.Sprintf("without the start-up calls' %s, GPU idle", units.Dur(v.StartupNs))
	}
	fmt.Fprintf(&sb, "%s %s%% (%s of %s on %s) over %s", lead, units.Pct(w.pct()), units.Dur(w.idle), units.Dur(w.total), devs(v.Devices), v.Denominator)
	if w.class == ClassGPU {
		return sb.String() + "; the GPU is the bottleneck", "speed up the kernels themselves (see table --by kernel)"
	}
	fmt.Fprintf(&sb, "; %s%% of the idle time is %s:", units.Pct(pct(w.classNs, w.idle)), w.class)
	var parts []string
	for _, c := range Causes() {
		if classOfCause[c] == w.class && w.byCause[c] > 0 {
			parts = append(parts, b.phrases(c, w.byCause[c])...)
		}
	}
	sb.WriteString(" " + strings.Join(parts, ", "))
	switch {
	case w.class == ClassStartup:
		fmt.Fprintf(&sb, " (%s)", b.startupList(3))
		if b.f.coldStep >= 0 {
			fmt.Fprintf(&sb, "; ProfilerStep#%d is cold (%s, the median step %s)", b.f.coldStep, units.Dur(b.f.coldNs), units.Dur(b.f.medStepNs))
		}
	case w.activity != "":
		fmt.Fprintf(&sb, "; most inside %s (%s)", w.activity, units.Dur(w.activityNs))
	}
	return sb.String(), b.advice(w)
}

// phrases names one cause's idle time (two phrases where it has two parts).
func (b *words) phrases(c Cause, ns int64) []string {
	d := units.Dur
	switch c {
	case CauseInput:
		prep := min(b.v.InputPrepNs, ns)
		what := "input preparation outside the DataLoader"
		if b.v.InputPrep != "" {
			what += " (mostly " + b.v.InputPrep + ")"
		}
		switch {
		case prep == 0:
			return []string{"waiting on the DataLoader " + d(ns)}
		case prep == ns:
			return []string{what + " " + d(ns)}
		}
		return []string{"waiting on the DataLoader " + d(ns-prep), what + " " + d(prep)}
	case CauseUntraced:
		if b.f.python {
			return []string{"nothing recorded on the launching thread (Python is traced: the thread was idle or in untraced native code) " + d(ns)}
		}
		return []string{"nothing recorded on the launching thread (Python not traced?) " + d(ns)}
	case CauseLaunch:
		if bl := min(b.v.BlockingLaunchNs, ns); bl > 0 {
			return []string{fmt.Sprintf("launch calls %s (%s of it in launch calls that were still running when the GPU went idle)", d(ns), d(bl))}
		}
		return []string{"launch calls " + d(ns)}
	case CauseDependency, CauseQueued:
		var out []string
		if bh := min(b.behind[c], ns); bh > 0 {
			out = append(out, "ops queued behind another stream of the device "+d(bh))
			ns -= bh
		}
		if ns > 0 {
			if c == CauseDependency {
				out = append(out, "ops waiting on a recorded event (cudaStreamWaitEvent or a GPU-side wait) while every stream of the device was idle "+d(ns))
			} else {
				out = append(out, "ops queued 30us or more with no recorded wait while every stream of the device was idle (an event of another device, rank or the host; a graph's own edges) "+d(ns))
			}
		}
		return out
	}
	return []string{causePhrase[c] + " " + d(ns)}
}

var causePhrase = [numCauses]string{
	CauseCPU:      "CPU work between launches",
	CauseSync:     "blocking calls",
	CauseProfiler: "the profiler's own work (the trace is distorted)",
	CauseDispatch: "dispatch latency (launched in time, started late)",
	CauseStartup:  "one-time start-up calls",
}

// advice follows from the class and what the trace shows is already done.
func (b *words) advice(w *view) string {
	v := b.v
	switch w.class {
	case ClassInput:
		if 2*v.InputPrepNs > w.byCause[CauseInput] {
			return b.with(w, "move the input preparation off the training step: into the DataLoader's workers (num_workers > 0), or precompute it")
		}
		return b.with(w, "raise the DataLoader's num_workers, set pin_memory=True, and move preprocessing out of the training loop")
	case ClassCPU:
		a := "move the CPU work out of the loop or overlap it with the GPU"
		if !b.f.python {
			a += ", or trace Python (with_stack=True) to see it"
		}
		return b.with(w, a)
	case ClassSync:
		return b.with(w, "remove .item()/.cpu()/synchronize from the loop, or move them to the end of the step")
	case ClassLaunch:
		if 2*v.BlockingLaunchNs > w.classNs {
			return "the launch calls themselves block while the GPU waits: look for JIT compilation or lazy module loading (warm the kernels up before profiling) or another thread holding the driver"
		}
		if b.f.graphs {
			return "fuse kernels with torch.compile or capture more of the loop in the CUDA graphs it already launches; larger batches amortise launches"
		}
		return "capture the loop with CUDA graphs or fuse kernels with torch.compile; larger batches amortise launches"
	case ClassDependency:
		return "find what the queued ops wait on: the events of cudaStreamWaitEvent, collectives of other ranks, a CUDA graph's dependencies; overlap communication with compute"
	case ClassProfiler:
		return "profile fewer steps, or without profile_memory/with_stack, before reading this trace's gaps"
	case ClassStartup:
		return "profile after warm-up (torch.profiler.schedule(wait=1, warmup=1, active=3))"
	}
	return ""
}

func (b *words) with(w *view, advice string) string {
	if w.activity != "" {
		advice += " (" + w.activity + ")"
	}
	return advice
}

// ClassOfCause is the verdict class a cause's idle time counts for.
func ClassOfCause(c Cause) string { return classOfCause[c] }
