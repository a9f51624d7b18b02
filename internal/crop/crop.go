package crop

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Result counts what Write kept of the trace's text.
type Result struct {
	Events, EventsIn int // complete ("ph":"X") events kept, and read
	DeviceOps        int // kernels, memcpys and memsets kept
	Flows, FlowsIn   int // flow ends kept, and read
	Metadata         int // process and thread names ("ph":"M"), all kept
	Others, OthersIn int // instants ([memory] records), counters and the rest kept, and read
	// QueueCounters are the launch-queue counter events added (Plan);
	// Replaced, the input's own ones left out (an earlier crop's).
	QueueCounters, Replaced int
	Keys                    int    // top-level keys copied besides traceEvents
	BytesIn, BytesOut       int64  // JSON text read and written (decompressed)
	Truncated               bool   // the input ended early (allowed): the crop holds what was read
	Container               string // "object" or "array", as the input
	FileBytes               int64  // the size of the crop's file (compressed when Gzip)
	Gzip                    bool
}

// Error is text that cannot be cropped, at a byte offset of the input
// (of the decompressed text for gzip input).
type Error struct {
	File   string
	Offset int64
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: byte %d: %s", e.File, e.Offset, e.Msg) }

// Write streams the trace's text from in to out, keeping what the plan
// selects. Every element is copied as written, made strict JSON where the
// input was lenient (see appendClean); the other top-level keys
// (deviceProperties, distributedInfo, baseTimeNanoseconds, ...) are copied
// in their order. With allowTruncated, an input that ends early gives a
// complete crop of what was read.
func Write(p *Plan, in io.Reader, out io.Writer, allowTruncated bool) (*Result, error) {
	w := &writer{p: p, r: newReader(in), out: bufio.NewWriterSize(out, 1<<20), allow: allowTruncated, res: &Result{}}
	err := w.run()
	if err == nil {
		err = w.out.Flush()
	}
	w.res.BytesIn = w.r.offset()
	if err != nil {
		return nil, err
	}
	if w.res.Events != p.Expected {
		return nil, fmt.Errorf("the second reading kept %d complete events where the first decided on %d: did the file change while it was read?", w.res.Events, p.Expected)
	}
	return w.res, nil
}

type writer struct {
	p       *Plan
	r       *reader
	out     *bufio.Writer
	allow   bool
	res     *Result
	scratch []byte
	written int64
}

func (w *writer) write(b []byte) {
	n, _ := w.out.Write(b)
	w.written += int64(n)
	w.res.BytesOut = w.written
}

func (w *writer) fail(msg string) error {
	if w.r.err != nil {
		return &Error{Offset: w.r.offset(), Msg: "cannot read: " + w.r.err.Error()}
	}
	return &Error{Offset: w.r.offset(), Msg: msg}
}

// short reports an input that ended early: allowed (the crop is closed
// and complete) or an error.
func (w *writer) short() error {
	if w.r.err != nil || !w.allow {
		return w.fail("the input ends early (truncated; --allow-truncated crops what was read)")
	}
	w.res.Truncated = true
	return nil
}

func (w *writer) run() error {
	r := w.r
	c := r.skipWS()
	if c == 0xef && r.end-r.pos >= 3 && r.buf[r.pos+1] == 0xbb && r.buf[r.pos+2] == 0xbf {
		r.pos += 3 // a UTF-8 byte order mark: not part of the JSON
		c = r.skipWS()
	}
	switch c {
	case '[':
		w.res.Container = "array"
		return w.events()
	case '{':
		w.res.Container = "object"
		r.pos++
	default:
		return w.fail("not a trace: expected a JSON object or array")
	}
	w.write([]byte{'{'})
	first := true
	for {
		c := r.skipWS()
		switch c {
		case 0:
			if err := w.short(); err != nil {
				return err
			}
			w.write([]byte("\n}\n"))
			return nil
		case '}':
			r.pos++
			w.write([]byte("\n}\n"))
			return nil
		case ',':
			r.pos++
			continue
		}
		kv, err := r.value()
		if err != nil || kv[0] != '"' {
			if errors.Is(err, errShort) {
				if err := w.short(); err != nil {
					return err
				}
				w.write([]byte("\n}\n"))
				return nil
			}
			return w.fail("expected a key of the trace object")
		}
		key := append([]byte(nil), kv...)
		if r.skipWS() != ':' {
			if r.eof {
				if err := w.short(); err != nil {
					return err
				}
				w.write([]byte("\n}\n"))
				return nil
			}
			return w.fail("expected ':' after a key")
		}
		r.pos++
		if string(key) == `"traceEvents"` {
			w.sep(&first)
			w.write(appendClean(w.scratch[:0], key))
			w.write([]byte{':'})
			if err := w.events(); err != nil {
				return err
			}
			if w.res.Truncated {
				w.write([]byte("\n}\n"))
				return nil
			}
			continue
		}
		v, err := r.value()
		if err != nil {
			if errors.Is(err, errShort) {
				if err := w.short(); err != nil {
					return err
				}
				w.write([]byte("\n}\n"))
				return nil
			}
			return w.fail(err.Error())
		}
		w.sep(&first)
		w.scratch = appendClean(appendClean(w.scratch[:0], key), []byte{':'})
		w.scratch = appendClean(w.scratch, v)
		w.write(w.scratch)
		w.res.Keys++
	}
}

func (w *writer) sep(first *bool) {
	if *first {
		w.write([]byte{'\n'})
		*first = false
		return
	}
	w.write([]byte(",\n"))
}

// events copies the kept elements of the events array at the reader.
func (w *writer) events() error {
	r := w.r
	if r.skipWS() != '[' {
		return w.fail("expected the array of events")
	}
	r.pos++
	w.write([]byte{'['})
	first := true
	for {
		switch r.skipWS() {
		case 0:
			if err := w.short(); err != nil {
				return err
			}
			w.closeEvents(first)
			return nil
		case ']':
			r.pos++
			w.closeEvents(first)
			return nil
		case ',':
			r.pos++
			continue
		}
		el, err := r.value()
		if err != nil {
			if errors.Is(err, errShort) {
				if err := w.short(); err != nil {
					return err
				}
				w.closeEvents(first)
				return nil
			}
			return w.fail(err.Error())
		}
		if !w.keep(el) {
			continue
		}
		if first {
			w.write([]byte{'\n'})
			first = false
		} else {
			w.write([]byte(",\n"))
		}
		w.scratch = appendClean(w.scratch[:0], el)
		w.write(w.scratch)
	}
}

// closeEvents ends the events array: the launch-queue counters, then "]".
func (w *writer) closeEvents(first bool) {
	if w.p.QueueCounters > 0 {
		if first {
			w.write([]byte{'\n'})
		} else {
			w.write([]byte(",\n"))
		}
		w.write(w.p.queue)
		w.res.QueueCounters = w.p.QueueCounters
	}
	w.write([]byte("\n]"))
}

// keep decides one element of the events array and counts it.
func (w *writer) keep(el []byte) bool {
	e, ok := fields(el)
	if !ok {
		return false // not an event object: the reader would have refused the file
	}
	res := w.res
	switch e.ph {
	case 'X':
		res.EventsIn++
		if !w.p.keepX(&e) {
			return false
		}
		res.Events++
		if e.kind().IsDeviceWork() {
			res.DeviceOps++
		}
		return true
	case 's', 't', 'f':
		res.FlowsIn++
		if w.p.keepOther(&e) {
			res.Flows++
			return true
		}
		return false
	case 'M':
		res.Metadata++
		return true
	}
	if e.isQueueCounter() {
		res.Replaced++
		return false
	}
	res.OthersIn++
	if w.p.keepOther(&e) {
		res.Others++
		return true
	}
	return false
}
