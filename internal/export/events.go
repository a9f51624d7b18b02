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
