package critpath

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	jsoniter "github.com/json-iterator/go"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/trace"
)

// OverlayStats is what WriteOverlay wrote.
type OverlayStats struct {
	Events int // events of the input written (all of them)
	Marked int // X events given args.critical = 1
	Flows  int // flow arrows added (each an "s" and an "f" event)
	Want   int // path events that should have been marked
	// Counters are the launch-queue counter events added (ph "C", one per
	// change of a stream's queue); Replaced, the input's own ones left
	// out (an earlier tracetab's, drawn again).
	Counters, Replaced int
}

// overlayEdges are the path edges drawn as flow arrows (HTA's default).
func overlayEdge(t EdgeType) bool {
	return t == EdgeLaunch || t == EdgeSync || t == EdgeDependency
}

// WriteOverlay copies the trace src (the JSON text t was read from) to
// dst for Perfetto or chrome://tracing: every event kept as written, the
// X events on a path of r given "critical": 1 in their args, and a flow
// arrow (ph "s" and "f", cat and name "critical_path", args type and
// weight_ns) for every launch, sync and dependency edge of the paths.
// Events are matched to the model's in file order, each checked by its
// start and duration. Each stream's launch queue in queues is added as a
// counter track (gaps.QueueTrack.AppendCounter), in place of any the input
// holds already.
func WriteOverlay(dst io.Writer, src io.Reader, t *trace.Trace, r *Result, queues []gaps.QueueTrack) (OverlayStats, error) {
	var st OverlayStats
	mark := map[int32]bool{}
	for _, w := range r.Windows {
		for _, e := range w.Events {
			if e.OnPath {
				mark[e.Index] = true
			}
		}
	}
	st.Want = len(mark)
	ow := &overlayWriter{t: t, mark: mark, w: bufio.NewWriterSize(dst, 1<<20), st: &st,
		sub: jsoniter.ParseBytes(jsoniter.ConfigDefault, nil)}
	it := jsoniter.Parse(jsoniter.ConfigDefault, src, 1<<16)
	switch it.WhatIsNext() {
	case jsoniter.ArrayValue:
		ow.w.WriteString("[")
		ow.events(it)
		ow.flows(r, st.Events == 0)
		ow.counters(queues, st.Events+st.Flows == 0)
		ow.w.WriteString("\n]\n")
	case jsoniter.ObjectValue:
		ow.w.WriteString("{")
		first := true
		it.ReadObjectCB(func(it *jsoniter.Iterator, key string) bool {
			if !first {
				ow.w.WriteString(",")
			}
			first = false
			kb, _ := json.Marshal(key)
			ow.w.Write(kb)
			ow.w.WriteString(": ")
			if key != "traceEvents" || it.WhatIsNext() != jsoniter.ArrayValue {
				ow.w.Write(it.SkipAndReturnBytes())
				return it.Error == nil
			}
			ow.w.WriteString("[")
			ow.events(it)
			ow.flows(r, st.Events == 0)
			ow.counters(queues, st.Events+st.Flows == 0)
			ow.w.WriteString("\n]")
			return it.Error == nil && ow.err == nil
		})
		ow.w.WriteString("}\n")
	default:
		return st, fmt.Errorf("reading the trace again: not a JSON object or list")
	}
	if it.Error != nil && it.Error != io.EOF {
		return st, fmt.Errorf("reading the trace again: %v", it.Error)
	}
	if ow.err != nil {
		return st, ow.err
	}
	return st, ow.w.Flush()
}

type overlayWriter struct {
	t    *trace.Trace
	mark map[int32]bool
	w    *bufio.Writer
	st   *OverlayStats
	next int // the model's next X event, in file order
	buf  []byte
	sub  *jsoniter.Iterator
	err  error
}

// events copies the elements of the traceEvents list.
func (ow *overlayWriter) events(it *jsoniter.Iterator) {
	it.ReadArrayCB(func(it *jsoniter.Iterator) bool {
		raw := it.SkipAndReturnBytes()
		if it.Error != nil {
			return false
		}
		if bytes.Contains(raw, []byte(gaps.QueueCounterCat)) && isQueueCounter(ow.sub, raw) {
			ow.st.Replaced++
			return true
		}
		if ow.st.Events > 0 {
			ow.w.WriteString(",")
		}
		ow.w.WriteString("\n")
		ow.st.Events++
		if idx := ow.match(raw); idx >= 0 && ow.mark[int32(idx)] {
			b, err := ow.markCritical(raw)
			if err != nil {
				ow.err = fmt.Errorf("reading the trace again: %v", err)
				return false
			}
			raw = b
			ow.st.Marked++
		}
		ow.w.Write(raw)
		return true
	})
}

// match returns the model's index of raw when it is the next X event the
// parser stored (same start, same duration), else -1.
func (ow *overlayWriter) match(raw []byte) int {
	if ow.next >= ow.t.NumEvents() || !bytes.Contains(raw, []byte(`"X"`)) {
		return -1
	}
	var ph string
	var ts, dur []byte
	it := ow.sub
	it.ResetBytes(raw)
	it.Error = nil
	it.ReadObjectCB(func(it *jsoniter.Iterator, key string) bool {
		switch key {
		case "ph":
			if it.WhatIsNext() == jsoniter.StringValue {
				ph = it.ReadString()
			} else {
				it.Skip()
			}
		case "ts":
			ts = it.SkipAndReturnBytes()
		case "dur":
			dur = it.SkipAndReturnBytes()
		default:
			it.Skip()
		}
		return true
	})
	if it.Error != nil || ph != "X" {
		return -1
	}
	e := ow.t.Ev(ow.next)
	start, ok := nsOf(ts)
	if !ok || start != e.Start {
		return -1
	}
	if d, ok := nsOf(dur); ok && max(d, 0) != e.Dur {
		return -1
	}
	ow.next++
	return ow.next - 1
}

// nsOf reads a ts (microseconds, a number or a string) as ns, exactly for
// decimal text.
func nsOf(raw []byte) (int64, bool) {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	if s == "" {
		return 0, false
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	if strings.ContainsAny(s, "eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, false
		}
		v := int64(f*1000 + 0.5)
		if neg {
			v = -v
		}
		return v, true
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, false
	}
	var f int64
	for i := 0; i < 3; i++ {
		f *= 10
		if i < len(frac) {
			if frac[i] < '0' || frac[i] > '9' {
				return 0, false
			}
			f += int64(frac[i] - '0')
		}
	}
	if len(frac) > 3 && frac[3] >= '5' { // round to the ns
		f++
	}
	v := w*1000 + f
	if neg {
		v = -v
	}
	return v, true
}

// markCritical sets args.critical = 1 in one event object: its fields
// copied as written, "critical": 1 first in its args (an args object
// added when it has none).
func (ow *overlayWriter) markCritical(raw []byte) ([]byte, error) {
	out := make([]byte, 0, len(raw)+32)
	out = append(out, '{')
	hasArgs := false
	it := ow.sub
	it.ResetBytes(raw)
	it.Error = nil
	n := 0
	it.ReadObjectCB(func(it *jsoniter.Iterator, key string) bool {
		if n > 0 {
			out = append(out, ", "...)
		}
		n++
		kb, _ := json.Marshal(key)
		out = append(append(out, kb...), ": "...)
		v := it.SkipAndReturnBytes()
		if key == "args" && !hasArgs && len(v) > 0 && v[0] == '{' {
			hasArgs = true
			out = append(out, `{"critical": 1`...)
			if inner := bytes.TrimSpace(v[1 : len(v)-1]); len(inner) > 0 {
				out = append(append(out, ", "...), inner...)
			}
			out = append(out, '}')
			return true
		}
		out = append(out, v...)
		return true
	})
	if it.Error != nil {
		return nil, it.Error
	}
	if !hasArgs {
		if n > 0 {
			out = append(out, ", "...)
		}
		out = append(out, `"args": {"critical": 1}`...)
	}
	return append(out, '}'), nil
}

// flows appends the arrows of every path's launch, sync and dependency edges.
func (ow *overlayWriter) flows(r *Result, first bool) {
	id := int64(0)
	for _, w := range r.Windows {
		for _, e := range w.Edges {
			if !overlayEdge(e.Type) {
				continue
			}
			from, to := w.Events[e.From], w.Events[e.To]
			id++
			ow.flow('s', id, from, e.FromEnd, e, first)
			first = false
			ow.flow('f', id, to, e.ToEnd, e, false)
			ow.st.Flows++
		}
	}
}

func (ow *overlayWriter) flow(ph byte, id int64, ev Event, atEnd bool, e PathEdge, first bool) {
	t := ow.t
	x := t.Ev(int(ev.Index))
	ts := x.Start
	if atEnd {
		// inside the event, so that the arrow binds to it
		ts = max(x.Start, x.End()-min(1000, x.Dur))
	}
	tr := &t.Tracks[x.Track]
	b := ow.buf[:0]
	if !first {
		b = append(b, ',')
	}
	b = append(b, "\n{\"ph\": \""...)
	b = append(b, ph)
	b = append(b, "\", \"id\": "...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, ", \"pid\": "...)
	b = appendID(b, t, tr.Pid)
	b = append(b, ", \"tid\": "...)
	b = appendID(b, t, tr.Tid)
	b = append(b, ", \"ts\": "...)
	b = appendUs(b, ts)
	b = append(b, ", \"cat\": \"critical_path\", \"name\": \"critical_path\""...)
	if ph == 'f' {
		b = append(b, ", \"bp\": \"e\""...)
	}
	b = append(b, ", \"args\": {\"type\": \""...)
	b = append(b, e.Type.String()...)
	b = append(b, "\", \"weight_ns\": "...)
	b = strconv.AppendInt(b, e.WeightNs, 10)
	b = append(b, "}}"...)
	ow.w.Write(b)
	ow.buf = b
}

func appendID(b []byte, t *trace.Trace, id trace.ID) []byte {
	if id.IsStr {
		s, _ := json.Marshal(t.Str(id.Str))
		return append(b, s...)
	}
	return strconv.AppendInt(b, id.Int, 10)
}

// appendUs writes ns as microseconds with three decimals.
func appendUs(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	b = append(b, '.')
	r := ns % 1000
	if r < 100 {
		b = append(b, '0')
	}
	if r < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, r, 10)
}

// counters appends each stream's launch queue as counter events.
func (ow *overlayWriter) counters(queues []gaps.QueueTrack, first bool) {
	for k := range queues {
		q := &queues[k]
		for _, p := range q.Points {
			b := ow.buf[:0]
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '\n')
			b = q.AppendCounter(b, ow.t, p)
			ow.w.Write(b)
			ow.buf = b
			ow.st.Counters++
		}
	}
}

// isQueueCounter reports whether raw is a launch-queue counter event a
// tracetab wrote (ph "C", cat gaps.QueueCounterCat).
func isQueueCounter(it *jsoniter.Iterator, raw []byte) bool {
	var ph, cat string
	it.ResetBytes(raw)
	it.Error = nil
	it.ReadObjectCB(func(it *jsoniter.Iterator, key string) bool {
		switch {
		case (key == "ph" || key == "cat") && it.WhatIsNext() == jsoniter.StringValue:
			if key == "ph" {
				ph = it.ReadString()
			} else {
				cat = it.ReadString()
			}
		default:
			it.Skip()
		}
		return true
	})
	return it.Error == nil && ph == "C" && cat == gaps.QueueCounterCat
}
