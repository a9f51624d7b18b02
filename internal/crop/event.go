package crop

import (
	"encoding/json"
	"unsafe"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// rawEvent holds the fields of one element of traceEvents that decide
// whether the crop keeps it, read from its text as tracetab's reader reads
// them.
type rawEvent struct {
	ph       byte
	cat      string
	hasCat   bool
	name     string
	pid, tid id
	ts, dur  int64
	hasTs    bool
	hasDur   bool
	flowID   id
	hasID    bool
	corr     int64
	hasCorr  bool
}

// id is a pid, tid or flow id: an integer or a string.
type id struct {
	s     string
	n     int64
	isStr bool
}

// fields reads the deciding fields of the event object el.
func fields(el []byte) (rawEvent, bool) {
	var e rawEvent
	ok := eachKey(el, func(key, v []byte) {
		switch string(key) {
		case "ph":
			if s := text(v); len(s) > 0 {
				e.ph = s[0]
			}
		case "cat":
			e.cat, e.hasCat = text(v), true
		case "name":
			e.name = text(v)
		case "pid":
			e.pid = idOf(v)
		case "tid":
			e.tid = idOf(v)
		case "ts":
			e.ts, e.hasTs = parse.Ns(unquote(v))
		case "dur":
			e.dur, e.hasDur = parse.Ns(unquote(v))
		case "id":
			e.flowID, e.hasID = idOf(v), true
		case "args":
			if len(v) > 0 && v[0] == '{' {
				eachKey(v, func(k, av []byte) {
					if string(k) == "correlation" {
						e.corr, e.hasCorr = parse.Int(unquote(av))
					}
				})
			}
		}
	})
	return e, ok
}

// kind classifies the event as tracetab's reader does (by its category;
// the legacy exporter's events have none and pid "CPU functions").
func (e *rawEvent) kind() trace.Kind {
	if !e.hasCat {
		if e.pid.isStr && e.pid.s == "CPU functions" {
			return trace.KindCPUOp
		}
		return trace.KindOther
	}
	return trace.KindOf(e.cat)
}

// eachKey calls f with each key (raw, escapes kept) and value of the
// object obj; it reports false when obj is not an object.
func eachKey(obj []byte, f func(key, v []byte)) bool {
	if len(obj) == 0 || obj[0] != '{' {
		return false
	}
	i := 1
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return true
		}
		if obj[i] == ',' {
			i++
			continue
		}
		if obj[i] != '"' {
			return false
		}
		e := stringEnd(obj, i)
		if e < 0 {
			return false
		}
		key := obj[i+1 : e-1]
		i = skipSpace(obj, e)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		i = skipSpace(obj, i+1)
		n, ok := valueEnd(obj[i:], true)
		if !ok {
			return false
		}
		f(key, obj[i:i+n])
		i += n
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// unquote is the text of a string value without its quotes, or the word.
func unquote(v []byte) []byte {
	if len(v) >= 2 && v[0] == '"' {
		return v[1 : len(v)-1]
	}
	return v
}

// text is a string value decoded (escapes are rare: decoded by
// encoding/json), or a bare word as written. Without escapes it is a view
// of v's bytes, not a copy: the fields of a rawEvent are read while its
// element's text is at hand (Write's keep) and never kept, and a copy per
// name, category and id was 3 allocations per event of the text streamed
// (TestWriteAllocs).
func text(v []byte) string {
	if len(v) == 0 {
		return ""
	}
	if v[0] != '"' {
		return unsafe.String(&v[0], len(v))
	}
	raw := v[1 : len(v)-1]
	for _, c := range raw {
		if c == '\\' {
			var s string
			if json.Unmarshal(appendClean(nil, v), &s) == nil {
				return s
			}
			break
		}
	}
	if len(raw) == 0 {
		return ""
	}
	return unsafe.String(&raw[0], len(raw))
}

// idOf reads a pid, tid or flow id as the reader does: an integer, else
// the text.
func idOf(v []byte) id {
	if len(v) > 0 && v[0] == '"' {
		return id{s: text(v), isStr: true}
	}
	if n, ok := parse.Int(v); ok {
		return id{n: n}
	}
	return id{s: string(v), isStr: true}
}
