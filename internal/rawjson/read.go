package rawjson

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
	"unsafe"
)

// Event is one element of a trace's traceEvents as written, read by
// encoding/json into a typed struct (no map per event).
type Event struct {
	Index         int    // position in traceEvents (file order)
	Name, Cat, Ph string // "" when absent
	Pid, Tid      string // as written: a number's digits or a string's text
	Ts, Dur       int64  // ns: the microseconds as written, exact, truncated toward zero; 0 when absent
	HasTs, HasDur bool   // ts, dur were written (not null)
	TsPoint       bool   // ts was written with a decimal point (fractional microseconds, even .000)
	SubNs         bool   // ts or dur was finer than a nanosecond (truncated to one)
	ID, Bp        string // flow id and binding point as written ("" when absent)
	Corr, ExtID   string // args.correlation and args["External id"] as written (exact keys), "" when absent
	// Args is the args object as written (nil when absent, and from Read:
	// only ReadArgs and Decode keep it). Read its values with Arg,
	// ArgText, ArgInt or ArgMap.
	Args json.RawMessage
}

// End is Ts+Dur.
func (e *Event) End() int64 { return e.Ts + e.Dur }

// Thread is "pid/tid" as written.
func (e *Event) Thread() string { return e.Pid + "/" + e.Tid }

// Arg is the value of args[key] as written (the exact key: no case
// folding), and whether it is there.
func (e *Event) Arg(key string) (json.RawMessage, bool) { return objectField(e.Args, key) }

// ArgText is args[key] as an id: a number's digits or a string's text;
// "" when absent or of another kind.
func (e *Event) ArgText(key string) string {
	v, _ := e.Arg(key)
	return rawText(v)
}

// ArgInt is args[key] as an integer written as a JSON number, and whether
// it is one.
func (e *Event) ArgInt(key string) (int64, bool) {
	v, ok := e.Arg(key)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	return n, err == nil
}

// ArgMap decodes the args afresh (numbers as json.Number), for the few
// checks that need more than a value or two; nil without an args object.
func (e *Event) ArgMap() map[string]any {
	if len(e.Args) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(e.Args))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil {
		return nil
	}
	return m
}

// wire is what encoding/json fills for one event.
type wire struct {
	Name string `json:"name"`
	Cat  string `json:"cat"`
	Ph   string `json:"ph"`
	Pid  span   `json:"pid"`
	Tid  span   `json:"tid"`
	Ts   span   `json:"ts"`
	Dur  span   `json:"dur"`
	ID   span   `json:"id"`
	Bp   span   `json:"bp"`
	Args span   `json:"args"`
}

// span is a value's text as written, a slice of the decoded document
// itself (json.RawMessage would copy each one): json.Unmarshal hands an
// Unmarshaler a slice of its input, which Decode checks (inside).
type span []byte

func (s *span) UnmarshalJSON(b []byte) error {
	*s = b
	return nil
}

// inside reports whether s lies within data (or is empty).
func (s span) inside(data []byte) bool {
	if len(s) == 0 {
		return true
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return p >= lo && p+uintptr(len(s)) <= lo+uintptr(len(data))
}

type key struct {
	path        string
	size, modNs int64
	args        bool
}

type decoded struct {
	evs []Event
	err error
}

// kept holds the decoded traces, a few at a time (testenv.Cache):
// TRACETAB_TEST_RAW sets how many (default 0: all; see testenv.Cache).
var kept = &testenv.Cache[key, decoded]{Max: testenv.CacheSize("TRACETAB_TEST_RAW", 0)}

// Read returns the events of the trace at path (.json or gzip, whatever
// its name): a read-only input (the shared reference data or the
// repository's testdata, as testenv.ReadOnlyInput says) is decoded once per
// path, size and modification time while it is kept (a few traces at a
// time, the most recently read), safe for parallel tests;
// any other file afresh on each call. The slice and its events are shared by every caller: read them,
// never change them (copy what a check needs to sort or edit). Their
// Args are nil (Corr and ExtID are read): ReadArgs keeps them (copied
// into one buffer: the file's text is not held).
func Read(path string) ([]Event, error) { return read(path, false) }

// ReadArgs is Read with each event's Args kept.
func ReadArgs(path string) ([]Event, error) { return read(path, true) }

func read(path string, args bool) ([]Event, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !testenv.ReadOnlyInput(path) {
		// a file a test wrote: read afresh, never kept
		evs, err := decodeFile(path, args)
		if err != nil {
			err = fmt.Errorf("%s: %w", path, err)
		}
		return evs, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	key := key{abs, st.Size(), st.ModTime().UnixNano(), args}
	d, _ := kept.Get(key, func() (decoded, error) {
		evs, err := decodeFile(path, args)
		if err != nil {
			err = fmt.Errorf("%s: %w", path, err)
		}
		return decoded{evs, err}, nil
	})
	return d.evs, d.err
}

// MustRead is Read, failing the test on an error.
func MustRead(t testing.TB, path string) []Event {
	t.Helper()
	evs, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// MustReadArgs is ReadArgs, failing the test on an error.
func MustReadArgs(t testing.TB, path string) []Event {
	t.Helper()
	evs, err := ReadArgs(path)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func decodeFile(path string, args bool) ([]Event, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if data, err = inflate(data); err != nil {
		return nil, err
	}
	evs, err := decode(data, args)
	if err == nil && args {
		compactArgs(evs)
	}
	return evs, err
}

// compactArgs copies the events' args into one buffer of their own, so a
// kept trace holds its args (120 MB of the shared traces' 260 MB of JSON)
// and not its whole text.
func compactArgs(evs []Event) {
	n := 0
	for k := range evs {
		n += len(evs[k].Args)
	}
	buf := make([]byte, 0, n)
	for k := range evs {
		if a := evs[k].Args; a != nil {
			at := len(buf)
			buf = append(buf, a...)
			evs[k].Args = json.RawMessage(buf[at:len(buf):len(buf)])
		}
	}
}

// inflate is data, gunzipped when it starts with gzip's magic bytes.
func inflate(data []byte) ([]byte, error) {
	if len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	}
	return data, nil
}

// Decode reads the events of a trace's JSON text: an object with
// traceEvents, or a bare array of events. Their Args are slices of data.
func Decode(data []byte) ([]Event, error) { return decode(data, true) }

func decode(data []byte, keepArgs bool) ([]Event, error) {
	var ws []wire
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(data, &ws); err != nil {
			return nil, err
		}
	} else {
		var doc struct {
			TraceEvents []wire `json:"traceEvents"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		ws = doc.TraceEvents
	}
	out := make([]Event, len(ws))
	// names, categories and threads repeat: one string each (the shared
	// traces' 807k events hold 46 MB of strings, most of them repeats)
	seen := map[string]string{}
	intern := func(s string) string {
		if v, ok := seen[s]; ok {
			return v
		}
		seen[s] = s
		return s
	}
	for k := range ws {
		w := &ws[k]
		for _, s := range []span{w.Pid, w.Tid, w.Ts, w.Dur, w.ID, w.Bp, w.Args} {
			if !s.inside(data) {
				return nil, fmt.Errorf("event %d: encoding/json handed span a copy, not its input: copy in span.UnmarshalJSON", k)
			}
		}
		e := &out[k]
		*e = Event{Index: k, Name: intern(w.Name), Cat: intern(w.Cat), Ph: intern(w.Ph), Pid: intern(rawText(w.Pid)),
			Tid: intern(rawText(w.Tid)), ID: rawText(w.ID), Bp: intern(rawText(w.Bp))}
		if len(w.Args) > 0 && w.Args[0] == '{' {
			e.Args = json.RawMessage(w.Args)
			e.Corr = e.ArgText("correlation")
			e.ExtID = e.ArgText("External id")
			if !keepArgs {
				e.Args = nil
			}
		}
		var err error
		var exactTs, exactDur bool
		e.TsPoint = bytes.IndexByte(w.Ts, '.') >= 0
		if e.Ts, e.HasTs, exactTs, err = rawNs(w.Ts); err != nil {
			return nil, fmt.Errorf("event %d ts: %w", k, err)
		}
		if e.Dur, e.HasDur, exactDur, err = rawNs(w.Dur); err != nil {
			return nil, fmt.Errorf("event %d dur: %w", k, err)
		}
		e.SubNs = !exactTs || !exactDur
	}
	return out, nil
}

// rawNs is a raw ts or dur (a number or a string of one) in ns, whether
// it is there, and whether it is a whole number of ns.
func rawNs(v []byte) (ns int64, has, exact bool, err error) {
	if len(v) == 0 || string(v) == "null" {
		return 0, false, true, nil
	}
	if v[0] == '"' {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return 0, false, true, err
		}
		ns, exact, err = nsText(s)
		return ns, true, exact, err
	}
	if v[0] == '-' || v[0] >= '0' && v[0] <= '9' {
		ns, exact, err = nsText(string(v))
		return ns, true, exact, err
	}
	return 0, false, true, nil // a bool, an object: not a time
}

// rawText is a raw value as an id: a number's digits, a string's text, "".
func rawText(v []byte) string {
	if len(v) == 0 {
		return ""
	}
	switch c := v[0]; {
	case c == '"':
		if bytes.IndexByte(v, '\\') < 0 {
			return string(v[1 : len(v)-1])
		}
		var s string
		json.Unmarshal(v, &s)
		return s
	case c == '-' || c >= '0' && c <= '9':
		return string(v)
	}
	return ""
}
