package export

import (
	"strconv"

	"github.com/tracetab/tracetab/internal/trace"
)

// batchRows is how many rows are built before they are handed to the
// Parquet writer: the rows' memory, not the trace's, is what it costs.
const batchRows = 8192

// slab backs the optional (pointer) columns of a batch of rows, so a
// batch costs a few allocations, not one per value.
type slab struct {
	i64 []int64
	i32 []int32
	str []string
	f64 []float64
}

// newSlab holds rows rows of i64, i32, str and f64 optional columns of
// each type.
func newSlab(rows, i64, i32, str, f64 int) *slab {
	return &slab{make([]int64, 0, rows*i64), make([]int32, 0, rows*i32), make([]string, 0, rows*str), make([]float64, 0, rows*f64)}
}

func (s *slab) reset() { s.i64, s.i32, s.str, s.f64 = s.i64[:0], s.i32[:0], s.str[:0], s.f64[:0] }

func (s *slab) pf64(v float64) *float64 {
	s.f64 = append(s.f64, v)
	return &s.f64[len(s.f64)-1]
}

// optStr is s as an optional column: nil when empty.
func (s *slab) optStr(v string) *string {
	if v == "" {
		return nil
	}
	return s.pstr(v)
}

func (s *slab) p64(v int64) *int64 {
	s.i64 = append(s.i64, v)
	return &s.i64[len(s.i64)-1]
}

func (s *slab) p32(v int32) *int32 {
	s.i32 = append(s.i32, v)
	return &s.i32[len(s.i32)-1]
}

func (s *slab) pstr(v string) *string {
	s.str = append(s.str, v)
	return &s.str[len(s.str)-1]
}

// eventRows calls emit with the rows of t's complete events lo..hi-1 (in
// file order, the event column being the index), a batch at a time; of
// is eventSteps(t).
func eventRows(c *common, t *trace.Trace, of []int32, lo, hi int, emit func([]EventRow) error) error {
	l := t.Links()
	steps := t.StepWindows()
	lanes := laneCols(t)
	rows := make([]EventRow, 0, batchRows)
	sl := newSlab(batchRows, 9, 7, 4, 0)
	for i := lo; i < hi; i++ {
		e := t.Ev(i)
		ln := &lanes[e.Track]
		r := EventRow{TraceID: c.id, Rank: c.rank, Event: int64(i), Category: e.Kind.String(), Name: t.Str(e.Name),
			Pid: ln.pid, PidText: ln.pidText, Tid: ln.tid, TidText: ln.tidText, Device: ln.device, Stream: ln.stream,
			StartNs: e.Start - t.TraceStart, DurNs: e.Dur, Unfinished: e.Has(trace.FlagUnfinished)}
		if e.Has(trace.FlagCorr) {
			r.Corr = sl.p64(e.Corr)
		}
		if e.Has(trace.FlagExtID) {
			r.ExternalID = sl.p64(e.ExtID)
		}
		if k := of[i]; k >= 0 {
			r.Step = sl.p64(steps[k].N)
		}
		if p := l.Parent[i]; p >= 0 {
			r.Parent = sl.p64(int64(p))
		}
		if call := l.Launch[i]; call >= 0 {
			switch {
			case e.Kind.IsLaunch():
				r.LaunchOp = sl.p64(int64(call))
			case e.Kind.IsDevice():
				r.LaunchCall = sl.p64(int64(call))
				if op := l.Launch[call]; op >= 0 {
					r.LaunchOp = sl.p64(int64(op))
				}
			}
		}
		if x := t.ExtraOf(i); x != nil {
			if x.InputDims != 0 {
				r.InputDims = sl.pstr(t.Str(x.InputDims))
			}
			if x.InputTypes != 0 {
				r.InputTypes = sl.pstr(t.Str(x.InputTypes))
			}
			if x.Stack != 0 {
				r.CallStack = sl.pstr(t.Str(x.Stack))
			}
			if a := t.AuxOf(i); a != nil {
				auxCols(t, sl, a, &r)
			}
		}
		rows = append(rows, r)
		if len(rows) == batchRows {
			if err := emit(rows); err != nil {
				return err
			}
			rows = rows[:0]
			sl.reset()
		}
	}
	if len(rows) > 0 {
		return emit(rows)
	}
	return nil
}

// lane holds the columns every event of one track shares (read only).
type lane struct {
	pid, tid         *int64
	pidText, tidText *string
	device           *int32
	stream           *int64
}

func laneCols(t *trace.Trace) []lane {
	out := make([]lane, len(t.Tracks))
	for k := range t.Tracks {
		tr := &t.Tracks[k]
		ln := &out[k]
		ln.pid, ln.pidText = idCols(t, tr.Pid)
		ln.tid, ln.tidText = idCols(t, tr.Tid)
		if tr.Kind == trace.TrackDevice {
			ln.device = ptr(int32(tr.Device))
			if tr.Stream >= 0 {
				ln.stream = ptr(tr.Stream)
			}
		}
	}
	return out
}

// idCols is a pid or tid as its two columns: the number, or the text when
// the trace wrote one that is not a number (as tracetab info gives them).
func idCols(t *trace.Trace, v trace.ID) (*int64, *string) {
	if v.IsStr {
		s := t.Str(v.Str)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return &n, nil // "tid": "1890023232" (2021 traces) is a number
		}
		return nil, &s
	}
	return ptr(v.Int), nil
}

// auxCols fills the launch parameters, bytes moved and collective fields.
func auxCols(t *trace.Trace, sl *slab, a *trace.Aux, r *EventRow) {
	if a.HasLaunch {
		r.GridX, r.GridY, r.GridZ = sl.p32(a.Grid[0]), sl.p32(a.Grid[1]), sl.p32(a.Grid[2])
		r.BlockX, r.BlockY, r.BlockZ = sl.p32(a.Block[0]), sl.p32(a.Block[1]), sl.p32(a.Block[2])
	}
	if a.Regs >= 0 {
		r.Registers = sl.p32(a.Regs)
	}
	if a.SharedMem >= 0 {
		r.SharedMem = sl.p64(a.SharedMem)
	}
	if a.Bytes >= 0 {
		r.Bytes = sl.p64(a.Bytes)
	}
	if a.PG != 0 {
		r.PG = sl.pstr(t.Str(a.PG))
	}
	if a.Seq >= 0 {
		r.Seq = sl.p64(a.Seq)
	}
}
