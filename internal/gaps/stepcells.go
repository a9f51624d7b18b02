package gaps

import (
	"github.com/tracetab/tracetab/internal/trace"
)

// StepCells is where in one step the GPU was busy: the span of the device
// work launched in the step (its first start to its last end, as the step
// rows measure GPU idle) cut into equal cells, with the time the union of
// that work covers in each. The busy times add up to the step row's GPU
// busy, the widths to its span.
type StepCells struct {
	Step    int64
	StartNs int64   // the span's start, from the trace start
	WidthNs []int64 // cell k covers [start + span*k/n, start + span*(k+1)/n) (integer division)
	BusyNs  []int64
}

// BusyCells splits each step's GPU span into n cells (n >= 1) for the steps
// and device ops the options select (--device, --stream, --linked-only,
// --steps), the same device ops the step rows count; a step with no device
// work has no cells.
func BusyCells(t *trace.Trace, o Options, n int) []StepCells {
	l := t.Links()
	steps := t.StepWindows()
	work := make([][][2]int64, len(steps))
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		tr := &t.Tracks[e.Track]
		if (o.Device >= 0 && tr.Device != o.Device) || (o.Stream >= 0 && tr.Stream != o.Stream) || (o.LinkedOnly && l.Launch[i] < 0) {
			continue
		}
		if k := trace.StepAt(steps, t.LaunchTime(i)); k >= 0 {
			work[k] = append(work[k], [2]int64{e.Start, e.End()})
		}
	}
	var out []StepCells
	for k, s := range steps {
		if o.HasStep && (s.N < o.StepLo || s.N > o.StepHi) {
			continue
		}
		c := StepCells{Step: s.N, WidthNs: []int64{}, BusyNs: []int64{}}
		if u := mergeIvs(work[k]); len(u) > 0 && n >= 1 {
			lo, hi := u[0][0], u[len(u)-1][1]
			c.StartNs = lo - t.TraceStart
			c.WidthNs, c.BusyNs = make([]int64, n), make([]int64, n)
			j := 0
			for q := range n {
				a, b := lo+(hi-lo)*int64(q)/int64(n), lo+(hi-lo)*int64(q+1)/int64(n)
				c.WidthNs[q] = b - a
				for j < len(u) && u[j][1] <= a {
					j++
				}
				for m := j; m < len(u) && u[m][0] < b; m++ {
					c.BusyNs[q] += min(u[m][1], b) - max(u[m][0], a)
				}
			}
		}
		out = append(out, c)
	}
	return out
}
