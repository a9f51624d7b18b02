package gaps

import (
	"encoding/json"
	"strconv"

	"github.com/tracetab/tracetab/internal/trace"
)

// The counter events that draw a stream's launch queue on a timeline
// (Perfetto names the track "Queue Length stream 7", in the GPU's process).
const (
	QueueCounterName = "Queue Length"
	QueueCounterCat  = "tracetab_queue"
)

// Clip is the part of the series inside [lo, hi) on the trace clock: the
// length in force at lo (when the series began before it), then every
// point inside.
func (qt *QueueTrack) Clip(lo, hi int64) []QueuePoint {
	var out []QueuePoint
	for k, p := range qt.Points {
		switch {
		case p.Ns < lo:
			if k+1 == len(qt.Points) || qt.Points[k+1].Ns > lo {
				out = append(out, QueuePoint{lo, p.Len})
			}
		case p.Ns < hi:
			out = append(out, p)
		}
	}
	return out
}

// AppendCounter appends one counter event ("ph": "C") of the track's
// series, the value p.Len under the key "stream N", at p.Ns (microseconds
// with three decimals, as the trace's own events are read).
func (qt *QueueTrack) AppendCounter(b []byte, t *trace.Trace, p QueuePoint) []byte {
	b = append(b, `{"ph": "C", "cat": "`+QueueCounterCat+`", "name": "`+QueueCounterName+`", "pid": `...)
	b = appendTraceID(b, t, qt.Pid)
	b = append(b, `, "tid": `...)
	b = appendTraceID(b, t, qt.Tid)
	b = append(b, `, "ts": `...)
	b = appendMicros(b, p.Ns)
	b = append(b, `, "args": {"stream `...)
	b = strconv.AppendInt(b, qt.Stream, 10)
	b = append(b, `": `...)
	b = strconv.AppendInt(b, int64(p.Len), 10)
	return append(b, "}}"...)
}

func appendTraceID(b []byte, t *trace.Trace, id trace.ID) []byte {
	if id.IsStr {
		s, _ := json.Marshal(t.Str(id.Str))
		return append(b, s...)
	}
	return strconv.AppendInt(b, id.Int, 10)
}

// appendMicros writes ns as microseconds with three decimals.
func appendMicros(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	r := ns % 1000
	b = append(b, '.', byte('0'+r/100), byte('0'+r/10%10), byte('0'+r%10))
	return b
}
