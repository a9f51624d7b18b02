package chain

import (
	"cmp"
	"math"
	"slices"

	"github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// Summary aggregates every instance of a selection. Down (ops): the
// device work each call launched, per device op name; an instance nested
// in another instance is part of that outer call. Up (device ops): who
// launched them, per device op, launch call and op.
type Summary struct {
	Dir       Direction
	Instances int // instances summarised
	Calls     int // down: outermost instances (the calls); up: = Instances
	Nested    int // down: instances inside another instance
	Unlinked  int // up: device ops without a launch call in the trace
	Rows      []SummaryRow
}

// SummaryRow is one device op name (down) or one launch path (up).
type SummaryRow struct {
	Name       string // device op
	Kind       trace.Kind
	LaunchCall string // up: the runtime or driver call ("" when unlinked)
	Op         string // up: the op that made the launch call ("" when none)
	Count      int
	PerCall    float64 // down: Count / Calls, rounded to 2 decimals
	MedQueueNs *int64  // median (stats.MedianNs) of GPU start - launch start; nil when no instance has a launch call
	MedDurNs   int64   // median (stats.MedianNs)
	MinDurNs   int64
	MaxDurNs   int64
	TotalDurNs int64
}

type agg struct {
	row   SummaryRow
	queue []int64
	dur   []int64
}

// Summarize aggregates all instances of s (not only the chosen ones).
func Summarize(s *Selection) *Summary {
	w := s.w
	t, l := w.t, w.l
	out := &Summary{Dir: s.Dir, Instances: len(s.Instances)}
	by := map[[3]string]*agg{}
	var order [][3]string
	add := func(key [3]string, d int32) {
		a := by[key]
		if a == nil {
			e := t.Ev(int(d))
			a = &agg{row: SummaryRow{Name: key[0], LaunchCall: key[1], Op: key[2], Kind: e.Kind}}
			by[key] = a
			order = append(order, key)
		}
		e := t.Ev(int(d))
		if r := l.Launch[d]; r >= 0 {
			a.queue = append(a.queue, e.Start-t.Ev(int(r)).Start)
		}
		a.dur = append(a.dur, e.Dur)
	}
	if s.Dir == Down {
		// outer[i]: the outermost instance holding CPU event i, or -1;
		// parents come before children in each track's time order.
		in := make([]bool, t.NumEvents())
		for _, x := range s.Instances {
			in[x.Event] = true
		}
		outer := make([]int32, t.NumEvents())
		for k := range t.Tracks {
			for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
				outer[i] = -1
				if p := l.Parent[i]; p >= 0 && outer[p] >= 0 {
					outer[i] = outer[p]
				} else if in[i] {
					outer[i] = i
					out.Calls++
				}
			}
		}
		out.Nested = out.Instances - out.Calls
		for _, p := range w.devPairs {
			if outer[p[0]] >= 0 && t.Ev(int(p[1])).Kind.IsDeviceWork() {
				add([3]string{t.NameOf(int(p[1])), "", ""}, p[1])
			}
		}
	} else {
		out.Calls = out.Instances
		for _, x := range s.Instances {
			d := x.Event
			if !t.Ev(int(d)).Kind.IsDevice() {
				continue
			}
			key := [3]string{t.NameOf(int(d)), "", ""}
			if r := l.Launch[d]; r >= 0 {
				key[1] = t.NameOf(int(r))
				if op := l.Launch[r]; op >= 0 {
					key[2] = t.NameOf(int(op))
				}
			} else {
				out.Unlinked++
			}
			add(key, d)
		}
	}
	for _, k := range order {
		a := by[k]
		a.row.Count = len(a.dur)
		a.row.MedDurNs = stats.MedianNs(a.dur)
		if out.Dir == Down && out.Calls > 0 {
			a.row.PerCall = math.Round(float64(a.row.Count)*100/float64(out.Calls)) / 100
		}
		a.row.MinDurNs, a.row.MaxDurNs = a.dur[0], a.dur[len(a.dur)-1]
		for _, d := range a.dur {
			a.row.TotalDurNs += d
		}
		if len(a.queue) > 0 {
			m := stats.MedianNs(a.queue)
			a.row.MedQueueNs = &m
		}
		out.Rows = append(out.Rows, a.row)
	}
	slices.SortStableFunc(out.Rows, func(a, b SummaryRow) int {
		if a.Count != b.Count {
			return cmp.Compare(b.Count, a.Count)
		}
		if c := cmp.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return cmp.Compare(a.Op, b.Op)
	})
	return out
}

// RunSummary writes the summary of s (and no chain) into sink.
func RunSummary(s *Selection, sink Sink) error {
	if err := sink.Begin(s); err != nil {
		return err
	}
	if err := sink.Summary(Summarize(s)); err != nil {
		return err
	}
	return sink.End(s, &Footer{})
}
