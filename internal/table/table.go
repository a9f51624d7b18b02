package table

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/trace"
)

// Options mirror key_averages(...) and table(...).
type Options struct {
	// Torch is the table() version whose printing rules apply; zero means
	// the recording torch's (Recording.Default).
	Torch        Version
	GroupByShape bool   // group_by_input_shape
	GroupByStack int    // group_by_stack_n
	SortBy       string // sort_by; "" or "none" keeps first-occurrence order
	Match        *regexp.Regexp
	Exclude      *regexp.Regexp
	// Steps, when HasSteps, keeps only events of profiler steps
	// StepLo..StepHi: CPU events that start inside those steps' windows
	// (on any thread), device ops launched from them, and the [memory]
	// records made in them.
	StepLo, StepHi int64
	HasSteps       bool
	// NoNotes leaves Result.Notes empty, for a caller that never reads
	// them (export's per-step tables: on tracegen -shape export at 200 MB
	// the notes of its 1377 steps were some 25 ms of CPU).
	NoNotes bool
	// OneGoroutine keeps Compute on the caller's goroutine, for a caller
	// that keeps both cores busy already (report, export); otherwise a
	// large trace's list, tree and memory columns are made on two or three.
	OneGoroutine bool
}

// Result is key_averages() of one trace, sorted.
type Result struct {
	Torch     Version // printing rules (table(), key_averages())
	Rebuilt   Version // event rules: the recording torch (see Recording)
	Recording Recording
	Rows      []Row
	UseDevice string // "cuda" when the trace has device activity, else ""
	// HasDeviceTime: some row has self device time (torch's has_device_time).
	HasDeviceTime bool
	// ProfileMemory: the trace has [memory] events (profile_memory=True).
	ProfileMemory bool
	HasDeviceMem  bool
	// SumSelfCPU and SumSelfDev are the footer totals and % denominators,
	// summed over all rows (before any --match/--exclude), in sorted order.
	SumSelfCPU float64
	SumSelfDev float64
	// Notes are facts a reader should know (on stderr).
	Notes []string
	// Grouped: rows are split by input shapes or stacks.
	Grouped bool
	// Steps is the --steps selection, nil when all events count.
	Steps *StepRange
}

// StepRange is a selection of profiler steps by their ProfilerStep#N numbers.
type StepRange struct {
	First int64 `json:"first"`
	Last  int64 `json:"last"`
}

// sortKeys maps torch's sort_by names to row values.
var sortKeys = map[string]func(r *Row) float64{
	"cpu_time":               func(r *Row) float64 { return r.CPUAvg() },
	"device_time":            func(r *Row) float64 { return r.DevAvg() },
	"cpu_time_total":         func(r *Row) float64 { return r.CPUTotal },
	"device_time_total":      func(r *Row) float64 { return r.DevTotal },
	"self_cpu_time_total":    func(r *Row) float64 { return r.SelfCPU },
	"self_device_time_total": func(r *Row) float64 { return r.SelfDev },
	"cpu_memory_usage":       func(r *Row) float64 { return float64(r.CPUMem) },
	"self_cpu_memory_usage":  func(r *Row) float64 { return float64(r.SelfCPUMem) },
	"device_memory_usage":    func(r *Row) float64 { return float64(r.DevMem) },
	"self_device_memory_usage": func(r *Row) float64 {
		return float64(r.SelfDevMem)
	},
	"count": func(r *Row) float64 { return float64(r.Count) },
}

// SortKeys lists the accepted --sort names.
func SortKeys() []string {
	keys := []string{"none"}
	for k := range sortKeys {
		keys = append(keys, k)
		if strings.Contains(k, "device") {
			keys = append(keys, strings.Replace(k, "device", "cuda", 1))
		}
	}
	slices.Sort(keys)
	return keys
}

// canonicalSort rewrites cuda/xpu/privateuse1 to device, as torch 2.4+ does.
func canonicalSort(s string) string {
	for _, d := range []string{"cuda", "xpu", "privateuse1"} {
		s = strings.Replace(s, d, "device", 1)
	}
	return s
}

// ValidSort reports whether s is an accepted --sort name.
func ValidSort(s string) bool {
	if s == "" || s == "none" {
		return true
	}
	_, ok := sortKeys[canonicalSort(s)]
	return ok
}

// NeedsMemory reports whether sorting by s needs [memory] events.
func NeedsMemory(s string) bool { return strings.Contains(s, "memory") }

// Compute runs the key_averages pipeline on t.
func Compute(t *trace.Trace, o Options) (*Result, error) {
	if !ValidSort(o.SortBy) {
		return nil, fmt.Errorf("unknown sort key %q", o.SortBy)
	}
	rec := RecordingOf(t)
	v := o.Torch
	if v == (Version{}) {
		v = rec.Default()
	}
	rv := rec.Rebuild(v)
	res := &Result{Torch: v, Rebuilt: rv, Recording: rec, ProfileMemory: len(t.Mem) > 0, Grouped: o.GroupByShape}
	if hasDevice(t) {
		res.UseDevice = "cuda"
	}
	var keep, keepMem []bool
	if o.HasSteps {
		keep, keepMem = stepMask(t, o.StepLo, o.StepHi)
		res.Steps = &StepRange{o.StepLo, o.StepHi}
	}
	var f *fevents
	apart := t.NumEvents() >= listSplitMin && !o.OneGoroutine
	if apart {
		f = buildBeside(t, rv, keep, keepMem)
	} else {
		f = buildOn(t, rv, keep, keepMem, false)
	}
	// the overlap notes read the device lanes alone: on a large trace
	// they are counted beside the averaging, which runs on one core
	overlap := func() []string { return nil }
	if !o.NoNotes {
		overlap = concurrently(apart, func() []string { return overlapNotes(t) })
	}
	var negEvents int
	res.Rows, negEvents = f.average(t, v, res.UseDevice != "", o.GroupByShape, o.GroupByStack)
	res.Notes = append(res.Notes, overlap()...)
	for i := range res.Rows {
		r := &res.Rows[i]
		if r.SelfDev > 0 {
			res.HasDeviceTime = true
		}
		if r.SelfDevMem > 0 {
			res.HasDeviceMem = true
		}
	}
	if s := o.SortBy; s != "" && s != "none" {
		get := sortKeys[canonicalSort(s)]
		slices.SortStableFunc(res.Rows, func(a, b Row) int {
			va, vb := get(&a), get(&b)
			switch {
			case va > vb:
				return -1
			case va < vb:
				return 1
			}
			return 0
		})
	}
	for i := range res.Rows {
		r := &res.Rows[i]
		res.SumSelfCPU += r.SelfCPU
		if r.Device && (!v.deviceTotalSkipsAnnotations() || !r.UserAnn) {
			res.SumSelfDev += r.SelfDev
		}
	}
	if !o.NoNotes {
		res.Notes = append(res.Notes, rowNotes(res, o.GroupByShape || o.GroupByStack > 0, negEvents)...)
	}
	if o.Match != nil || o.Exclude != nil {
		res.Rows = slices.DeleteFunc(res.Rows, func(r Row) bool {
			return (o.Match != nil && !o.Match.MatchString(r.Name)) || (o.Exclude != nil && o.Exclude.MatchString(r.Name))
		})
	}
	return res, nil
}

// concurrently starts f on a goroutine of its own when apart (else runs
// it now) and returns what waits for its result.
func concurrently[T any](apart bool, f func() T) func() T {
	if !apart {
		r := f()
		return func() T { return r }
	}
	var r T
	wait := safe.Go(func() { r = f() }) // a panic there is raised again by wait
	return sync.OnceValue(func() T { wait(); return r })
}

func hasDevice(t *trace.Trace) bool {
	for _, tr := range t.Tracks {
		if tr.Kind == trace.TrackDevice {
			return true
		}
	}
	return false
}

// HasShapes reports whether any event of t carries input shapes.
func HasShapes(t *trace.Trace) bool {
	for i := 0; i < t.Extras.Len(); i++ {
		if t.Extras.At(i).InputDims != 0 {
			return true
		}
	}
	return false
}

// HasStacks reports whether any event of t carries a call stack.
func HasStacks(t *trace.Trace) bool {
	for i := 0; i < t.Extras.Len(); i++ {
		if t.Extras.At(i).Stack != 0 {
			return true
		}
	}
	return false
}

// stepMask marks the events of profiler steps lo..hi.
func stepMask(t *trace.Trace, lo, hi int64) (keep, keepMem []bool) {
	steps := t.StepWindows()
	in := func(at int64) bool {
		k := trace.StepAt(steps, at)
		return k >= 0 && steps[k].N >= lo && steps[k].N <= hi
	}
	keep = make([]bool, t.NumEvents())
	for i := range keep {
		e := t.Ev(i)
		at := e.Start
		if e.Kind.IsDevice() {
			at = t.LaunchTime(i)
		}
		keep[i] = in(at)
	}
	// a [memory] record belongs to the step its time falls in, as a CPU
	// event does by its start: the records outside the steps are no
	// step's leftovers
	keepMem = make([]bool, len(t.Mem))
	for i := range t.Mem {
		keepMem[i] = in(t.Mem[i].Ts)
	}
	return keep, keepMem
}

// overlapNotes are facts about the trace a reader of the table should
// know: overlapping device ops on one stream.
func overlapNotes(t *trace.Trace) (notes []string) {
	l := t.Links()
	overlaps := 0
	for k, tr := range t.Tracks {
		if tr.Kind != trace.TrackDevice {
			continue
		}
		end := int64(-1 << 62)
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i))
			if !e.Kind.IsDeviceWork() {
				continue
			}
			if e.Start < end {
				overlaps++
			}
			end = max(end, e.End())
		}
	}
	if overlaps > 0 {
		notes = append(notes, fmt.Sprintf("%d device ops start before the previous op on their stream ended (overlapping kernels, e.g. programmatic dependent launch): each keeps its full duration", overlaps))
	}
	return notes
}
