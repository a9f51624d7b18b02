package crop

import (
	"fmt"

	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// Options select what the crop keeps. At least one of a step, a window or
// a device is given; a device combines with a step or a window.
type Options struct {
	Step    int64 // ProfilerStep#Step, with HasStep
	HasStep bool
	// WindowLo and WindowHi are offsets from the trace's origin (the
	// profiler's Trace span, as every offset tracetab prints), in ns.
	WindowLo, WindowHi int64
	HasWindow          bool
	Device             int // the GPU of one rank (the device index); -1: every device
}

// Plan is what the first, lean reading of a trace decides: the window and
// the launches, processes and flows the crop keeps. The second reading
// (Write) applies it to each element of the text.
type Plan struct {
	// Lo and Hi bound the window on the trace's clock (ns, as written):
	// an event is in it when its time t has Lo <= t < Hi.
	Lo, Hi    int64
	HasWindow bool
	Origin    int64  // the trace's origin on its clock (trace.Trace.TraceStart)
	Window    string // the window in words, for the summary
	Device    int    // -1: every device
	// launchKept maps the correlation id of every device op the trace has a
	// launch call for to whether that call is kept (in the window, on a
	// kept process); launchFlow holds the ids of the kept device ops, whose
	// launch flows are kept.
	launchKept map[int64]bool
	launchFlow map[int64]bool
	// pids are the processes kept when a device is selected: those whose
	// launch calls put work on it.
	pids map[id]bool
	// flows are the ids of the other flows (forward to backward) kept: every
	// end in the window and on a kept lane.
	flows map[id]bool

	// Expected is the number of complete events the crop keeps, by the
	// same rules applied to the model; Write checks that it kept as many.
	Expected int
	Total    int // complete events in the trace

	// queue is the launch queue of each kept stream inside the window as
	// counter events (QueueCounters of them), added at the end of the
	// events.
	queue         []byte
	QueueCounters int
}

// NewPlan decides the crop of t. An error is a selection the trace cannot
// satisfy (no such step or device, an empty window), with what it has.
func NewPlan(t *trace.Trace, o Options) (*Plan, error) {
	p := &Plan{Device: o.Device, Total: t.NumEvents(), Origin: t.TraceStart}
	switch {
	case o.HasStep:
		var lo, hi int64
		found := false
		var nums []int64
		for _, s := range t.StepWindows() {
			nums = append(nums, s.N)
			if s.N != o.Step {
				continue
			}
			if !found || s.Start < lo {
				lo = s.Start
			}
			if !found || s.End > hi {
				hi = s.End
			}
			found = true
		}
		if !found {
			if len(nums) == 0 {
				return nil, fmt.Errorf("--step: %s has no ProfilerStep annotations (profile with a schedule and call prof.step())", t.File)
			}
			return nil, fmt.Errorf("--step: no ProfilerStep#%d; steps are %s", o.Step, units.Ranges(nums))
		}
		p.Lo, p.Hi, p.HasWindow = lo, hi, true
		p.Window = fmt.Sprintf("ProfilerStep#%d (%s)", o.Step, offsets(t, lo, hi))
	case o.HasWindow:
		if o.WindowHi <= o.WindowLo {
			return nil, fmt.Errorf("--window: the end must come after the start")
		}
		p.Lo, p.Hi, p.HasWindow = t.TraceStart+o.WindowLo, t.TraceStart+o.WindowHi, true
		p.Window = offsets(t, p.Lo, p.Hi)
	}
	if o.Device >= 0 {
		var devs []int64
		found := false
		for _, tr := range t.Tracks {
			if tr.Kind == trace.TrackDevice {
				devs = append(devs, int64(tr.Device))
				found = found || tr.Device == o.Device
			}
		}
		switch {
		case len(devs) == 0:
			return nil, fmt.Errorf("--rank: %s has no GPU lane (a CPU-only trace)", t.File)
		case !found:
			return nil, fmt.Errorf("--rank: no device %d; devices are %s", o.Device, units.Ranges(devs))
		}
		if p.Window != "" {
			p.Window += ", "
		}
		p.Window += fmt.Sprintf("device %d and the processes that launched work on it", o.Device)
	}
	l := t.Links()
	if o.Device >= 0 {
		p.pids = map[id]bool{}
		for i := 0; i < t.NumEvents(); i++ {
			e := t.Ev(i)
			if r := l.Launch[i]; e.Kind.IsDevice() && e.Kind != trace.KindGPUAnnotation && r >= 0 && t.Tracks[e.Track].Device == o.Device {
				p.pids[modelID(t, t.Tracks[t.Ev(int(r)).Track].Pid)] = true
			}
		}
	}
	p.launchKept = map[int64]bool{}
	p.launchFlow = map[int64]bool{}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !linkable(e.Kind) || l.Launch[i] < 0 {
			continue
		}
		r := t.Ev(int(l.Launch[i]))
		kept := p.in(r.Start) && p.pidKept(modelID(t, t.Tracks[r.Track].Pid))
		p.launchKept[t.CorrOf(e)] = kept
		if kept && p.deviceKept(t.Tracks[e.Track].Device) {
			p.launchFlow[t.CorrOf(e)] = true
		}
	}
	p.flows = map[id]bool{}
	ends := map[id]bool{} // id -> every end so far in the window, on a kept lane
	for _, f := range t.Flows {
		k := flowID(t, f.ID)
		ok := p.in(f.Ts) && p.laneKept(t, f.Track)
		if prev, seen := ends[k]; seen {
			ok = ok && prev
		}
		ends[k] = ok
	}
	for k, ok := range ends {
		if ok {
			p.flows[k] = true
		}
	}
	for i := 0; i < t.NumEvents(); i++ {
		if p.keepModel(t, l, i) {
			p.Expected++
		}
	}
	p.queue, p.QueueCounters = queueCounters(t, p)
	return p, nil
}

// tsLimit is the reader's bound on every start and end: an event beyond
// it is skipped.
const tsLimit = int64(1) << 62

// linkable reports whether events of kind k are linked to a launch call
// (device ops; GPU annotation spans never are).
func linkable(k trace.Kind) bool { return k.IsDevice() && k != trace.KindGPUAnnotation }

// in reports whether time ts lies in the window.
func (p *Plan) in(ts int64) bool { return !p.HasWindow || p.Lo <= ts && ts < p.Hi }

func (p *Plan) pidKept(pid id) bool { return p.pids == nil || p.pids[pid] }

func (p *Plan) deviceKept(dev int) bool { return p.Device < 0 || dev == p.Device }

// laneKept reports whether track k is kept: a GPU lane of the device, or
// a lane of a kept process.
func (p *Plan) laneKept(t *trace.Trace, k int32) bool {
	tr := &t.Tracks[k]
	if tr.Kind == trace.TrackDevice {
		return p.deviceKept(tr.Device)
	}
	return p.pidKept(modelID(t, tr.Pid))
}

// keepModel applies the rules of keepX to event i of the model.
func (p *Plan) keepModel(t *trace.Trace, l *trace.Links, i int) bool {
	e := t.Ev(i)
	tr := &t.Tracks[e.Track]
	switch {
	case e.Kind == trace.KindTraceSpan:
		return true
	case e.Kind.IsDevice():
		if p.Device >= 0 && (tr.Pid.IsStr || tr.Pid.Int != int64(p.Device)) {
			return false
		}
		if linkable(e.Kind) && l.Launch[i] >= 0 {
			return p.launchKept[t.CorrOf(e)]
		}
		return p.in(e.Start)
	}
	return p.in(e.Start) && p.pidKept(modelID(t, tr.Pid))
}

// keepX decides a complete event of the text: the Trace span always (it
// is the origin every offset and rounding is taken from); a device op by
// its launch call (kept when the call is), or by its own start when the
// trace has no launch call for it (GPU annotation spans always); any
// other event by its start, on a kept process.
func (p *Plan) keepX(e *rawEvent) bool {
	k := e.kind()
	switch {
	case !e.hasTs || e.ts <= -tsLimit || e.ts >= tsLimit || e.hasDur && e.dur >= tsLimit-e.ts:
		return false // tracetab's reader skips it too
	case k == trace.KindTraceSpan:
		return true
	case k.IsDevice():
		if p.Device >= 0 && (e.pid.isStr || e.pid.n != int64(p.Device)) {
			return false
		}
		if linkable(k) && e.hasCorr {
			if kept, ok := p.launchKept[e.corr]; ok {
				return kept
			}
		}
		return p.in(e.ts)
	}
	return p.in(e.ts) && p.pidKept(e.pid)
}

// keepOther decides an element that is not a complete event.
func (p *Plan) keepOther(e *rawEvent) bool {
	switch e.ph {
	case 'M':
		return true // process and thread names, sort order
	case 's', 't', 'f':
		if !e.hasID {
			return false
		}
		if isLaunchFlow(e.cat) {
			return !e.flowID.isStr && p.launchFlow[e.flowID.n]
		}
		return p.flows[e.flowID]
	}
	if !e.hasTs {
		return !p.HasWindow && p.pidKept(e.pid)
	}
	if e.ts <= -tsLimit || e.ts >= tsLimit {
		return false
	}
	return p.in(e.ts) && (p.pidKept(e.pid) || !e.pid.isStr && p.deviceKept(int(e.pid.n)) && p.Device >= 0)
}

func isLaunchFlow(cat string) bool {
	switch cat {
	case "ac2g", "async_gpu", "async_cpu_to_gpu", "async":
		return true
	}
	return false
}

// modelID is a pid of the model as the text's id.
func modelID(t *trace.Trace, v trace.ID) id {
	if v.IsStr {
		return id{s: t.Str(v.Str), isStr: true}
	}
	return id{n: v.Int}
}

// flowID is a flow id of the model as the text's id: the reader stores a
// string id as -(its string's index)-1.
func flowID(t *trace.Trace, v int64) id {
	if v < 0 && -v-1 < int64(len(t.Strings)) {
		return id{s: t.Strings[-v-1], isStr: true}
	}
	return id{n: v}
}

func offsets(t *trace.Trace, lo, hi int64) string {
	return off(lo-t.TraceStart) + " to " + off(hi-t.TraceStart) + " from the origin"
}

// off is an offset from the origin for people ("before the origin", never
// a minus sign, as every command says it).
func off(ns int64) string {
	if ns < 0 {
		return units.Dur(-ns) + " before the origin"
	}
	return units.Dur(ns)
}
