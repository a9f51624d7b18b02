package gaps

import "github.com/tracetab/tracetab/internal/trace"

// IdleKind is HTA's category of an idle stretch between two device ops of
// one lane.
type IdleKind uint8

// The idle categories (HolisticTraceAnalysis's get_idle_time_breakdown).
const (
	HostWait   IdleKind = iota // the next op's launch call started after the lane went idle
	KernelWait                 // launched in time, and the gap is shorter than KernelWaitMaxNs
	OtherWait                  // launched in time, a longer gap
	numIdleKinds
)

var idleKindNames = [numIdleKinds]string{"host_wait", "kernel_wait", "other_wait"}

func (k IdleKind) String() string { return idleKindNames[k] }

// KernelWaitMaxNs is HTA's consecutive_kernel_delay: a gap shorter than
// this between ops launched in time is the cost of launching back to back.
const KernelWaitMaxNs = 30_000

// Idle is the idle time of one lane (a stream, a device, or the total) by
// category. The categories cover the lane's own window (first op start to
// last op end); idle in the profiled span before the first op and after the
// last one is counted apart, never hidden.
type Idle struct {
	Device   int   // -1 for the total
	Stream   int64 // -1 for a device or the total
	WaitNs   [numIdleKinds]int64
	Gaps     [numIdleKinds]int
	BeforeNs int64 // profiled span start to the first op (0 when the op starts first)
	AfterNs  int64 // last op end to the profiled span end
}

// IdleNs is the sum of the three categories.
func (d *Idle) IdleNs() int64 { return d.WaitNs[HostWait] + d.WaitNs[KernelWait] + d.WaitNs[OtherWait] }

func (d *Idle) add(o *Idle) {
	for k := range d.WaitNs {
		d.WaitNs[k] += o.WaitNs[k]
		d.Gaps[k] += o.Gaps[k]
	}
	d.BeforeNs += o.BeforeNs
	d.AfterNs += o.AfterNs
}

// idleKind classifies the gap that ends when next starts, on a lane that
// went idle at idleAt. An op with no launch call in the trace is never a
// host wait (HTA's comparison with a missing launch time is false).
func idleKind(idleAt int64, next *op, gap int64) IdleKind {
	switch {
	case next.call >= 0 && next.launch > idleAt:
		return HostWait
	case gap < KernelWaitMaxNs:
		return KernelWait
	}
	return OtherWait
}

// laneIdle classifies every positive gap of a lane sorted by start: the
// lane is idle from the latest end so far to the next start, so
// overlapping ops never make a gap.
func laneIdle(dev int, id int64, q *seq, spanLo, spanHi int64) Idle {
	d := Idle{Device: dev, Stream: id}
	if q.n() == 0 {
		return d
	}
	end := q.at(0).e
	for k := 1; k < q.n(); k++ {
		x := q.at(k)
		if gap := x.s - end; gap > 0 {
			c := idleKind(end, x, gap)
			d.WaitNs[c] += gap
			d.Gaps[c]++
		}
		end = max(end, x.e)
	}
	d.BeforeNs = max(0, q.at(0).s-spanLo)
	d.AfterNs = max(0, spanHi-end)
	return d
}

// htaLaneIdle is what HTA 0.6.1 computes for one stream: each op's gap to
// the op before it in start order, negative ones (overlaps) included.
func htaLaneIdle(dev int, id int64, ops []op) Idle {
	d := Idle{Device: dev, Stream: id}
	for k := 1; k < len(ops); k++ {
		x := &ops[k]
		prevEnd := ops[k-1].e
		gap := x.s - prevEnd
		c := idleKind(prevEnd, x, gap)
		d.WaitNs[c] += gap
		d.Gaps[c]++
	}
	return d
}

// htaOps applies HTA's two other choices to a stream's ops: a trace with
// fractional timestamps has every start rounded up and every end rounded
// down to a whole microsecond (launch calls too), and when the trace has
// two or more profiler steps only device ops launched before the start of
// the last step count (ops with no launch call are dropped then).
func htaOps(ops []op, round bool, cut int64, hasCut bool) []op {
	out := make([]op, 0, len(ops))
	for _, x := range ops {
		if round {
			x.s, x.e = ceilUs(x.s), floorUs(x.e)
			if x.call >= 0 {
				x.launch = ceilUs(x.launch)
			}
		}
		if hasCut && (x.call < 0 || x.launch >= cut) {
			continue
		}
		out = append(out, x)
	}
	// HTA sorts by the rounded start.
	sortOps(out)
	return out
}

// htaCut is the start of the last profiler step when the trace has two or
// more (HTA drops what follows it).
func htaCut(t *trace.Trace, round bool) (int64, bool) {
	steps := t.StepWindows()
	nums := map[int64]bool{}
	var last int64
	for k, s := range steps {
		nums[s.N] = true
		if k == 0 || s.Start > last {
			last = s.Start
		}
	}
	if len(nums) < 2 {
		return 0, false
	}
	if round {
		last = ceilUs(last)
	}
	return last, true
}

func floorUs(ns int64) int64 {
	q := ns / 1000
	if ns%1000 != 0 && ns < 0 {
		q--
	}
	return q * 1000
}

func ceilUs(ns int64) int64 {
	f := floorUs(ns)
	if f != ns {
		f += 1000
	}
	return f
}

// IdleReport is the idle breakdown per stream, per device and in total.
type IdleReport struct {
	HTA     bool // HTA 0.6.1's rounding, last-step cut and negative gaps
	Streams []Idle
	Devices []Idle
	Total   Idle
}

// idleReport classifies the idle time of every lane. By default each
// instant of a device's idle time is counted once (the device total is
// its own merged lane, the grand total the sum of devices); with hta the
// device and grand totals are sums over streams, as HTA reports them.
func idleReport(t *trace.Trace, streams, devices []stream, hta bool, spanLo, spanHi int64) IdleReport {
	r := IdleReport{HTA: hta, Total: Idle{Device: -1, Stream: -1}}
	if hta {
		round := t.FractionalTs
		cut, hasCut := htaCut(t, round)
		for _, s := range streams {
			d := htaLaneIdle(s.dev, s.id, htaOps(s.ops, round, cut, hasCut))
			r.Streams = append(r.Streams, d)
			if n := len(r.Devices); n == 0 || r.Devices[n-1].Device != s.dev {
				r.Devices = append(r.Devices, Idle{Device: s.dev, Stream: -1})
			}
			r.Devices[len(r.Devices)-1].add(&d)
			r.Total.add(&d)
		}
		return r
	}
	for _, s := range streams {
		r.Streams = append(r.Streams, laneIdle(s.dev, s.id, &s.seq, spanLo, spanHi))
	}
	for _, d := range devices {
		x := laneIdle(d.dev, -1, &d.seq, spanLo, spanHi)
		r.Devices = append(r.Devices, x)
		r.Total.add(&x)
	}
	return r
}
