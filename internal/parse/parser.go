// Package parse reads a PyTorch profiler Chrome trace (.json or .json.gz,
// any era) into a *trace.Trace, streaming: the file's text is never held
// whole and no generic map is built per event.
package parse

// Why a hand-written scanner (scanner.go) while jsoniter stays in go.mod
// (JSON output, the critical-path overlay): speed, and input jsoniter
// refuses. BenchmarkParseVsJsoniter (jsoniter_bench_test.go) reads one
// generated Kineto-style trace (tracegen -kineto, 40 steps, 3.9 MB, 12,965
// events) from memory: this parser on one worker without extras, building
// the whole *trace.Trace, beside jsoniter's Iterator doing less (each
// event's ph, cat, name, pid, tid, ts, dur, id, External id and
// correlation into a plain struct, nothing interned or linked). On the
// shared 2-core dev machine, median of 5 runs of 10 iterations,
// 2026-12-07:
//
//	hand scanner   51 ms/op (76 MB/s)   2.5 MB/op      280 allocs/op
//	jsoniter      111 ms/op (35 MB/s)   8.4 MB/op  215,798 allocs/op
//
// (runs scattered 31-63 ms and 88-147 ms with the machine's load). The
// scanner also reads what a profiler killed mid-export or a lenient
// writer leaves (see scanner.go): raw control characters in strings, bare
// words such as NaN, a truncated file; jsoniter's Iterator stops with an
// error on each of these three (tried 2026-12-07). Large files are read by
// several workers (parallel.go).

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/tracetab/tracetab/internal/gctune"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"github.com/tracetab/tracetab/internal/trace"
)

// Options control how a trace is read.
type Options struct {
	// AllowTruncated keeps the events read before the input ended early
	// (a process killed while exporting) instead of failing.
	AllowTruncated bool
	// Stdin is read for the path "-" (os.Stdin when nil).
	Stdin io.Reader
	// Sequential turns off the parallel reading of large files.
	Sequential bool
	// Progress, when set, is advanced by the bytes of JSON read so far
	// (decompressed for gzip input), for a progress display.
	Progress *atomic.Int64
	// MaxMemory, when > 0, bounds the memory the trace may need: reading
	// stops with an *Error (TooLarge) when the estimate passes it.
	MaxMemory int64
	// NoExtras skips the args only some commands read: input shapes and
	// types, call stacks, launch parameters and bytes moved
	// (Trace.Extras and Trace.Aux then hold only the process group and
	// sequence number of collective kernels). The events, their names,
	// times, ids and links are the same.
	NoExtras bool
	// NoMemory counts the [memory] records (Trace.MemRecords) instead of
	// storing them in Trace.Mem, and skips their args unread, for the
	// commands that never attribute memory. [OutOfMemory] records are
	// still stored.
	NoMemory bool
	// ShapesOnly keeps, of those args, the ones a performance model reads:
	// "Input Dims", "Input type" and "Concrete Inputs" (roofline).
	ShapesOnly bool
	// DimsOnly keeps, of those args, "Input Dims" alone (report's
	// timeline shows an op's input shapes and nothing else of them).
	DimsOnly bool
}

// Error is an input that cannot be read as a trace. It names the file and
// the byte offset (in the decompressed text for gzip input) where reading
// failed.
type Error struct {
	File      string
	Offset    int64
	Msg       string
	Gzip      bool
	Truncated bool // the input ended early
	NotTrace  bool // valid JSON, but not a Chrome trace
	TooLarge  bool // the trace needs more memory than Options.MaxMemory
}

func (e *Error) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	where := fmt.Sprintf("byte %d", e.Offset)
	if e.Gzip {
		where += " of the decompressed text"
	}
	return fmt.Sprintf("%s: %s: %s", e.File, where, e.Msg)
}

// Open reads the trace at path ("-" for standard input).
func Open(path string, opts Options) (*trace.Trace, error) {
	var r io.Reader
	if path == "-" {
		r = opts.Stdin
		if r == nil {
			r = os.Stdin
		}
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, &Error{File: path, Offset: -1, Msg: "cannot open: " + errText(err)}
		}
		defer f.Close()
		st, err := f.Stat()
		if err == nil && st.IsDir() {
			return nil, &Error{File: path, Offset: -1, Msg: "is a directory, not a trace file"}
		}
		if err == nil && st.Mode().IsRegular() && st.Size() >= parallelMin && !opts.Sequential {
			var magic [2]byte
			if n, _ := f.ReadAt(magic[:], 0); n == 2 && !(magic[0] == 0x1f && magic[1] == 0x8b) {
				p := newParser(f, path, opts)
				p.ra, p.size = f, st.Size()
				p.inSize = p.size
				t, err := p.run()
				// The workers' stores and the parser's tables are garbage
				// now: collect them, so what is built next (the links)
				// takes their place instead of growing the heap.
				gctune.Collect()
				return t, err
			}
		}
		r = f
		if err == nil && st.Mode().IsRegular() {
			par := !opts.Sequential && gzipLarge(f, st.Size())
			t, _, err := readStreamPar(r, path, opts, st.Size(), par)
			if par {
				gctune.Collect() // as after a plain parallel reading
			}
			return t, err
		}
	}
	return Read(r, path, opts)
}

func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Read reads a trace from r; name is used in messages. Gzip input is
// detected by its magic bytes.
func Read(r io.Reader, name string, opts Options) (*trace.Trace, error) {
	t, _, err := readStream(r, name, opts, -1)
	return t, err
}

// readStream is Read, also returning the parser (for tests of its counters).
// size is the input's size in bytes (compressed for gzip), -1 when unknown.
func readStream(r io.Reader, name string, opts Options, size int64) (*trace.Trace, *parser, error) {
	return readStreamPar(r, name, opts, size, false)
}

// gzipLarge reports whether f is gzip whose text may pass gzParallelMin:
// by the size its trailer gives (the last member's, modulo 4 GiB) or its
// own size. Only the speed depends on the answer: both readings give the
// same trace.
func gzipLarge(f *os.File, size int64) bool {
	var b [4]byte
	if n, _ := f.ReadAt(b[:2], 0); n != 2 || b[0] != 0x1f || b[1] != 0x8b || size < 24 {
		return false
	}
	if size >= gzParallelMin/4 {
		return true
	}
	if n, _ := f.ReadAt(b[:], size-4); n != 4 {
		return false
	}
	return int64(b[0])|int64(b[1])<<8|int64(b[2])<<16|int64(b[3])<<24 >= gzParallelMin
}

// spoolMinMemory is the least --max-memory gzip input is read in parallel
// under.
const spoolMinMemory = 256 << 20

// readStreamPar is readStream; par reads gzip input in parallel (spool.go).
func readStreamPar(r io.Reader, name string, opts Options, size int64, par bool) (*trace.Trace, *parser, error) {
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 1<<16)
	magic, _ := br.Peek(2)
	gz := len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	var src io.Reader = br
	var gs *gzStream
	var sp *spool
	if gz {
		var err error
		gs, err = newGzStream(br)
		if err != nil {
			return nil, nil, &Error{File: name, Msg: "corrupt gzip header: " + err.Error(), Gzip: true}
		}
		defer gs.Close()
		// the parallel reading holds tens of MiB of text ahead of the
		// parsers: under a tight --max-memory the stream is read in order
		if par && (opts.MaxMemory <= 0 || opts.MaxMemory >= spoolMinMemory) {
			sp = newSpool(gs)
			defer sp.close()
			src = sp.reader(-1, 0)
		} else {
			ra := newReadahead(gs)
			defer ra.Close()
			src = ra
		}
	}
	var buf []byte
	if !gz && size > 0 && size < 1<<20 {
		// a small file needs no 1 MiB buffer (ranks reads a thousand of
		// them, one after another); the buffer grows when it must
		buf = make([]byte, max(size+1, 4<<10))
	}
	p := newParserBuf(src, name, opts, buf)
	p.spool = sp
	p.gz = gz
	p.gzs = gs
	p.inSize = size
	if gz {
		p.gzIn = cr
	}
	t, err := p.run()
	if err != nil {
		return nil, p, err
	}
	return t, p, nil
}

type parser struct {
	sc     scanner
	t      *trace.Trace
	name   string
	opts   Options
	gz     bool
	gzs    *gzStream // gzip input: how its compressed data ended
	ev     evState
	tmp    []byte
	strIDs map[string]trace.StrID

	tracks     map[trackKey]int32
	lastKey    trackKey
	lastTrack  int32
	recentTr   [8]recentTrack
	nextRecent int
	catKind    []trace.Kind // by StrID of the category, filled lazily
	catKnown   []bool
	catCounts  map[trace.StrID]int
	threadName map[trackKey]string
	// argStream is each device track's args.stream (argStreamMixed: it
	// gave several), the stream its lane is named by (streams.go)
	argStream      map[int32]int64
	argStreamMixed map[int32]bool
	sawPh          bool
	elements       int
	topKeys        []string
	minStart       int64
	maxEnd         int64
	anyEvent       bool
	truncAt        int64
	endedArray     bool
	ra             io.ReaderAt // set when the events may be read in parallel
	size           int64
	seg            *segment
	segSize        int64 // the segment size of this reading (parallel.go)
	noTs           int
	eventUnit      func()

	// memory bound (memory.go)
	inSize    int64           // size of the input (compressed for gzip), -1 when unknown
	gzIn      *countingReader // compressed bytes read, for gzip input
	startOff  int64           // where this parser started reading (segment workers)
	projFrom  int64           // where the events start: a worker's density is projected from there
	nextCheck int64
	strBytes  int64 // bytes of the interned strings

	// segment workers only (parallel.go): what the merge needs to give
	// the sequential reading's warnings
	ctrlAt  map[trace.StrID]int64 // first offset of each new string with control characters
	metaLog []metaName            // process_name and thread_name events, in file order

	badAt map[trace.StrID]int64 // first offset of each new string mended to valid UTF-8

	lastEnd int64 // offset after the last complete event (-1: none yet in this segment)

	mended      int // strings mended to valid UTF-8
	firstMended int64

	dd *dedup // shared Extras and Auxes (dedup.go)

	recent [recentSlots]recentStr // recent strings and their ids (internText)

	compacted [recentSlots]compactStr // recent shape args as written and their ids (internCompact)

	mem trace.Store[trace.MemEvent] // a segment worker's [memory] records

	spool *spool // gzip input read in parallel (spool.go)
}

// metaName is one process_name or thread_name event seen by a segment worker.
type metaName struct {
	thread bool
	key    trackKey // pid (and tid for threads)
	name   string
	off    int64
}

type trackKey struct {
	pid, tid trace.ID
}

func newParser(src io.Reader, name string, opts Options) *parser {
	return newParserBuf(src, name, opts, nil)
}

// newParserBuf is newParser reading into buf (a new 1 MiB buffer when nil).
func newParserBuf(src io.Reader, name string, opts Options, buf []byte) *parser {
	if buf == nil {
		buf = make([]byte, 1<<20)
	}
	p := &parser{
		name:       name,
		opts:       opts,
		strIDs:     map[string]trace.StrID{"": 0},
		tracks:     map[trackKey]int32{},
		lastTrack:  -1,
		catCounts:  map[trace.StrID]int{},
		threadName: map[trackKey]string{},
	}
	p.sc = scanner{src: src, buf: buf, maxBuf: 256 << 20, progress: opts.Progress}
	p.t = &trace.Trace{
		File:         name,
		Strings:      []string{""},
		Meta:         map[string]string{},
		ProcessNames: map[int64]string{},
		CatCounts:    map[string]int{},
	}
	p.eventUnit = p.eventAndStore
	return p
}

func (p *parser) errAt(off int64, msg string) *Error {
	return &Error{File: p.name, Offset: off, Msg: msg, Gzip: p.gz}
}

func (p *parser) wrap(err error) error {
	var se *syntaxError
	switch {
	case errors.As(err, &se):
		return p.errAt(se.off, se.msg)
	case errors.Is(err, io.ErrUnexpectedEOF):
		e := p.errAt(p.sc.off+int64(p.sc.end), "unexpected end of input: the trace is truncated")
		e.Truncated = !p.opts.AllowTruncated // a cut that reading past cannot help is not offered the flag
		return e
	case err != nil:
		msg := err.Error()
		if p.gz {
			msg = "corrupt gzip data: " + msg
		}
		return p.errAt(p.sc.off+int64(p.sc.end), msg)
	}
	return nil
}

func (p *parser) run() (*trace.Trace, error) {
	s := &p.sc
	if err := s.fill(); err != nil {
		return nil, p.wrap(err)
	}
	if s.end >= 3 && s.buf[0] == 0xef && s.buf[1] == 0xbb && s.buf[2] == 0xbf {
		s.pos = 3 // a UTF-8 byte order mark, as some editors write: not part of the JSON
	}
	var first byte
	err := s.unit(func() { first = s.peek() })
	if err == io.ErrUnexpectedEOF {
		if s.end == 0 && p.gzs != nil && p.gzs.cut {
			e := p.errAt(0, "the gzip data ends before any text: the trace is truncated")
			e.Truncated = !p.opts.AllowTruncated
			return nil, e
		}
		if s.end == 0 {
			return nil, p.errAt(0, "empty file: expected a Chrome trace (a JSON object with traceEvents, or an array of events)")
		}
		return nil, p.errAt(s.offset(), "only white space: expected a Chrome trace")
	}
	if err != nil {
		return nil, p.wrap(err)
	}
	switch first {
	case '{':
		p.t.Container = "object"
		err = p.object()
	case '[':
		p.t.Container = "array"
		err = p.eventArray()
	default:
		return nil, p.errAt(s.offset(), "not JSON: expected a Chrome trace (a JSON object with traceEvents, or an array of events), found "+s.describe())
	}
	if err != nil {
		return nil, err
	}
	p.t.BytesRead = s.offset() // the end of the top-level value, before trailing white space
	if p.t.Truncated {
		p.t.BytesRead = p.lastEnd
	}
	if p.t.Truncated {
		p.t.Warn("truncated", p.truncAt, fmt.Sprintf("the trace is truncated at byte %d: kept the %d complete events read before it", p.truncAt, p.t.NumEvents()))
	} else if err := p.trailing(); err != nil {
		return nil, err
	}
	if p.elements > 0 && !p.sawPh {
		e := p.errAt(0, "not a Chrome trace: none of its "+fmt.Sprint(p.elements)+" events has a \"ph\" field")
		e.NotTrace = true
		return nil, e
	}
	p.finish()
	return p.t, nil
}

// trailing checks that only white space follows the top-level value.
func (p *parser) trailing() error {
	s := &p.sc
	err := s.unit(func() { s.peek() })
	if err == io.ErrUnexpectedEOF {
		return nil
	}
	if err != nil {
		return p.wrap(err)
	}
	return p.errAt(s.offset(), "unexpected "+s.describe()+" after the end of the trace")
}

// cutShort reports whether err is the input ending early where the user
// allows it; the trace is then marked truncated at the current unit.
func (p *parser) cutShort(err error) bool {
	if err != io.ErrUnexpectedEOF || !p.opts.AllowTruncated {
		return false
	}
	s := &p.sc
	p.t.Truncated = true
	p.truncAt = s.off + int64(s.end)
	p.lastEnd = s.offset()
	return true
}

func (p *parser) object() error {
	s := &p.sc
	var key string
	err := s.unit(func() {
		s.expect('{')
	})
	if err != nil {
		return p.wrap(err)
	}
	seenEvents := false
	for i := 0; ; i++ {
		done := false
		err := s.unit(func() {
			c := s.peek()
			if c == '}' {
				s.pos++
				done = true
				return
			}
			if i > 0 {
				if c != ',' {
					s.fail("expected ',' or '}' between top-level keys, found " + s.describe())
				}
				s.pos++
			}
			raw, esc := s.str()
			key = p.text(raw, esc)
			s.expect(':')
		})
		if p.cutShort(err) {
			return nil
		}
		if err != nil {
			return p.wrap(err)
		}
		if done {
			break
		}
		if len(p.topKeys) < 12 {
			p.topKeys = append(p.topKeys, key)
		}
		if key == "traceEvents" {
			seenEvents = true
			if err := p.eventArray(); err != nil {
				return err
			}
			if p.t.Truncated {
				return nil
			}
			continue
		}
		if err := s.unit(func() { p.topValue(key) }); err != nil {
			if p.cutShort(err) {
				return nil
			}
			return p.wrap(err)
		}
	}
	if !seenEvents {
		e := p.errAt(s.offset(), "not a Chrome trace: the JSON object has no \"traceEvents\" key (keys: "+strings.Join(p.topKeys, ", ")+")"+hintForKeys(p.topKeys))
		e.NotTrace = true
		return e
	}
	return nil
}

func hintForKeys(keys []string) string {
	for _, k := range keys {
		if k == "nodes" {
			return "; this looks like a PyTorch execution trace, not a profiler trace"
		}
	}
	return ""
}

func (p *parser) notTraceHint() string {
	if p.t.NumEvents() == 0 && p.t.Container == "array" {
		return "; this is not a Chrome trace (a memory timeline is an array of arrays)"
	}
	return ""
}

// topValue reads one top-level value other than traceEvents.
func (p *parser) topValue(key string) {
	s := &p.sc
	switch key {
	case "baseTimeNanoseconds":
		if v, ok := p.intValue(); ok {
			p.t.Base = v
			p.t.HasBase = true
		}
		return
	case "deviceProperties":
		p.deviceProps()
		return
	case "distributedInfo":
		p.distInfo()
		return
	}
	switch s.peek() {
	case '{':
		s.skipValue()
		p.t.Meta[key] = "{…}"
	case '[':
		s.skipValue()
		p.t.Meta[key] = "[…]"
	case '"':
		raw, esc := s.str()
		p.t.Meta[key] = p.text(raw, esc)
	default:
		p.t.Meta[key] = string(s.word())
	}
}

// fields calls f for each key of the object at the current position, with
// the scanner on the key's value; f must consume the value. Cold paths
// only: the event and args loops are written out for speed.
func (p *parser) fields(f func(key string)) {
	s := &p.sc
	if s.peek() != '{' {
		s.skipValue()
		return
	}
	s.pos++
	for s.peek() != '}' {
		if s.peek() == ',' {
			s.pos++
			continue
		}
		raw, _ := s.str()
		k := string(raw)
		s.expect(':')
		f(k)
	}
	s.pos++
}

func (p *parser) deviceProps() {
	s := &p.sc
	if s.peek() != '[' {
		s.skipValue()
		return
	}
	s.pos++
	for {
		c := s.peek()
		if c == ']' {
			s.pos++
			return
		}
		if c == ',' {
			s.pos++
			continue
		}
		d := trace.DeviceProp{ID: -1}
		p.fields(func(k string) {
			var v int64
			switch k {
			case "name":
				d.Name = p.textValue()
				return
			case "id", "totalGlobalMem", "numSms", "computeMajor", "computeMinor":
				v, _ = p.intValue()
			default:
				s.skipValue()
				return
			}
			switch k {
			case "id":
				d.ID = int(v)
			case "totalGlobalMem":
				d.TotalMem = v
			case "numSms":
				d.NumSMs = int(v)
			case "computeMajor":
				d.ComputeMajor = int(v)
			case "computeMinor":
				d.ComputeMinor = int(v)
			}
		})
		p.t.Devices = append(p.t.Devices, d)
	}
}

func (p *parser) distInfo() {
	p.t.Dist = trace.DistInfo{Present: true, Rank: -1, WorldSize: -1}
	p.fields(func(k string) {
		switch k {
		case "backend":
			p.t.Dist.Backend = p.textValue()
		case "rank":
			p.t.Dist.Rank, _ = p.intValue()
		case "world_size":
			p.t.Dist.WorldSize, _ = p.intValue()
		default:
			p.sc.skipValue()
		}
	})
}

// eventArray reads the array of events, one unit per event.
func (p *parser) eventArray() error {
	s := &p.sc
	if err := s.unit(func() { s.expect('[') }); err != nil {
		if p.cutShort(err) {
			return nil
		}
		return p.wrap(err)
	}
	p.lastEnd = s.offset()
	if p.ra != nil || p.spool != nil {
		return p.parallelEvents()
	}
	return p.eventLoop(true)
}

// eventLoop reads events up to the closing ']'. A segment worker (p.seg set)
// also stops at the first candidate boundary it reaches exactly.
func (p *parser) eventLoop(first bool) error {
	s := &p.sc
	for {
		done := false
		err := s.unit(func() {
			c := s.peek()
			if c == ']' {
				s.pos++
				done = true
				p.endedArray = true
				return
			}
			if !first {
				if c != ',' {
					s.fail("expected ',' or ']' between events, found " + s.describe())
				}
				s.pos++
				if s.peek() == ']' { // trailing comma: lenient
					s.pos++
					done = true
					p.endedArray = true
					return
				}
			}
			if p.seg != nil && p.seg.atBoundary(s.offset()) {
				done = true
				return
			}
			p.eventUnit()
		})
		if err == io.ErrUnexpectedEOF && p.opts.AllowTruncated {
			p.t.Truncated = true
			p.truncAt = s.off + int64(s.end)
			return nil
		}
		if err != nil {
			return p.wrap(err)
		}
		if done {
			p.nextCheck = 0 // the whole array against the bound
			return p.memCheck()
		}
		p.lastEnd = s.offset()
		if err := p.memCheck(); err != nil {
			return err
		}
		first = false
	}
}

func (p *parser) eventAndStore() {
	p.event()
	p.store()
}

var legacyPid = []byte("CPU functions")

// tsLimit bounds every start and end (ns, ts + dur) in absolute value: the
// difference of any two stays within int64, so no end, gap or span wraps.
const tsLimit = int64(1) << 62

// store turns the parsed fields of p.ev into model entries.
func (p *parser) store() {
	e := &p.ev
	t := p.t
	p.elements++
	if e.ph != 0 {
		p.sawPh = true
	}
	if e.hasTs && (e.ts <= -tsLimit || e.ts >= tsLimit || e.hasDur && e.dur >= tsLimit-e.ts) {
		t.Warn("ts-range", p.sc.offset(), "an event whose \"ts\" or end lies beyond ±2^62 ns (146 years) was skipped: differences of its times would not fit in int64")
		return
	}
	switch e.ph {
	case 'X':
	case 'i', 'I', 'n':
		p.instant()
		return
	case 's', 'f', 't':
		p.flow()
		return
	case 'M':
		p.metadata()
		return
	case 'C':
		t.Counters++
		return
	default:
		t.OtherPhases++
		return
	}
	if !e.hasTs {
		p.noTs++
		if p.noTs == 1 {
			t.Warn("no-ts", p.sc.offset(), "an X event without a usable \"ts\" was skipped")
		} else {
			t.Warn("no-ts", 0, "")
		}
		return
	}
	if e.badDur {
		t.Warn("bad-dur", p.sc.offset(), "an X event with an unusable \"dur\" (null, NaN, infinite or beyond int64) was read as 0")
	}
	if e.tsStr {
		t.Warn("ts-string", p.sc.offset(), "\"ts\" or \"dur\" written as a JSON string; read as a number")
	}
	if e.frac {
		t.FractionalTs = true
	}
	if e.dur < 0 {
		t.Warn("neg-dur", p.sc.offset(), "an event with a negative \"dur\" was clamped to 0")
		e.dur = 0
	}
	if e.evIdx {
		t.EvIdx = true
	}
	kind := p.kindOf(e)
	p.catCounts[e.cat]++
	tr := p.track(e.pid, e.tid)
	if e.hasStream && kind.IsDevice() {
		p.noteStream(tr, e.stream)
	}
	ev := trace.Event{
		Start: e.ts, Dur: e.dur,
		Name: e.name, Track: tr, Extra: -1, Kind: kind, Flags: e.flags,
	}
	t.SetIDs(&ev, e.extID, e.corr)
	if e.tsStr {
		ev.Flags |= trace.FlagTsString
	}
	if e.flags&trace.FlagLowerExtID != 0 {
		t.LowerExtID = true
	}
	if e.dims != 0 || e.types != 0 || e.stk != 0 || e.concrete != 0 || e.hasAux {
		x := trace.Extra{InputDims: e.dims, InputTypes: e.types, Stack: e.stk, Concrete: e.concrete, Aux: -1}
		if e.hasAux {
			x.Aux = p.addAux(e.aux)
		}
		ev.Extra = p.addExtra(x)
	}
	if kind == trace.KindTraceSpan && !t.HasTraceSpan {
		t.TraceStart = e.ts
		t.HasTraceSpan = true
	}
	if !p.anyEvent || e.ts < p.minStart {
		p.minStart = e.ts
	}
	if !p.anyEvent || ev.End() > p.maxEnd {
		p.maxEnd = ev.End()
	}
	p.anyEvent = true
	t.Events.Append(ev)
}

func (p *parser) kindOf(e *evState) trace.Kind {
	if !e.hasCat {
		if e.pid.IsStr && p.t.Strings[e.pid.Str] == string(legacyPid) {
			p.t.LegacyExport = true
			return trace.KindCPUOp
		}
		return trace.KindOther
	}
	c := int(e.cat)
	for len(p.catKind) <= c {
		p.catKind = append(p.catKind, 0)
		p.catKnown = append(p.catKnown, false)
	}
	if !p.catKnown[c] {
		p.catKind[c] = trace.KindOf(p.t.Strings[c])
		p.catKnown[c] = true
	}
	return p.catKind[c]
}

func (p *parser) track(pid, tid trace.ID) int32 {
	k := trackKey{pid, tid}
	if p.lastTrack >= 0 && k == p.lastKey {
		return p.lastTrack
	}
	// the tracks seen last, before the map: a trace's events alternate
	// between a few threads and streams, and hashing the key (two IDs)
	// for every event was 4% of the parse (200 MB default bench trace)
	for j := range p.recentTr {
		if r := &p.recentTr[j]; r.id > 0 && r.key == k {
			p.lastKey, p.lastTrack = k, r.id-1
			return r.id - 1
		}
	}
	id, ok := p.tracks[k]
	if !ok {
		id = int32(len(p.t.Tracks))
		p.t.Tracks = append(p.t.Tracks, trace.Track{Pid: pid, Tid: tid, Kind: trace.TrackOther})
		p.tracks[k] = id
	}
	p.recentTr[p.nextRecent] = recentTrack{k, id + 1}
	p.nextRecent = (p.nextRecent + 1) % len(p.recentTr)
	p.lastKey, p.lastTrack = k, id
	return id
}

// recentTrack is a track the parser looked up lately (id: its index + 1,
// 0 for none).
type recentTrack struct {
	key trackKey
	id  int32
}

func (p *parser) instant() {
	e := &p.ev
	t := p.t
	name := t.Strings[e.name]
	switch name {
	case "[memory]", "[OutOfMemory]":
		if !e.hasTs {
			return
		}
		t.MemRecords++
		tr := p.track(e.pid, e.tid) // a record's thread is a track, stored or not
		if p.opts.NoMemory && name == "[memory]" {
			return
		}
		m := trace.MemEvent{
			Ts: e.ts, Bytes: e.memBytes, TotalAlloc: e.memTot, TotalReserved: e.memResv, Addr: e.memAddr, Has: e.memHas, Track: tr,
			DevType: int8(e.memDevType), DevID: int8(e.memDevID), OOM: name == "[OutOfMemory]",
		}
		if p.seg != nil {
			p.mem.Append(m) // a segment's records, in chunks: merge copies them once
		} else {
			t.Mem = append(t.Mem, m)
		}
	case "Record Window End":
		if e.hasTs {
			t.WindowEnd = e.ts
			t.HasWindowEnd = true
		}
	default:
		t.Instants++
	}
}

func (p *parser) flow() {
	e := &p.ev
	if !e.hasTs || !e.hasID {
		return
	}
	k := trace.FlowOther
	switch p.t.Strings[e.cat] {
	case "ac2g", "async_gpu", "async_cpu_to_gpu", "async":
		// Device ops carry the same id as "correlation"; counting is enough.
		p.t.LaunchFlows++
		return
	case "fwdbwd", "fwd_bwd", "forward_backward":
		k = trace.FlowFwdBwd
	}
	p.t.Flows = append(p.t.Flows, trace.Flow{ID: e.id, Ts: e.ts, Track: p.track(e.pid, e.tid), Kind: k, Phase: e.ph})
}

func (p *parser) metadata() {
	e := &p.ev
	t := p.t
	t.MetaEvents++
	var m metaName
	switch t.Strings[e.name] {
	case "process_name":
		if e.pid.IsStr {
			return
		}
		m = metaName{key: trackKey{pid: e.pid}, name: e.argName, off: p.sc.offset()}
	case "thread_name":
		m = metaName{thread: true, key: trackKey{e.pid, e.tid}, name: e.argName, off: p.sc.offset()}
	default:
		return
	}
	if p.seg != nil {
		// a worker cannot know the names earlier segments gave: the
		// merge replays its names in order
		p.metaLog = append(p.metaLog, m)
		return
	}
	p.nameMeta(m)
}

// nameMeta records a process or thread name; a second, different name is
// warned about and the first kept.
func (p *parser) nameMeta(m metaName) {
	t := p.t
	if !m.thread {
		if old, dup := t.ProcessNames[m.key.pid.Int]; dup && old != m.name {
			t.Warn("dup-meta", m.off, fmt.Sprintf("process %d is named twice (%q, then %q); kept the first", m.key.pid.Int, old, m.name))
			return
		}
		t.ProcessNames[m.key.pid.Int] = m.name
		return
	}
	if old, dup := p.threadName[m.key]; dup && old != m.name {
		t.Warn("dup-meta", m.off, fmt.Sprintf("thread %s is named twice (%q, then %q); kept the first", p.idString(m.key.tid), old, m.name))
		return
	}
	p.threadName[m.key] = m.name
}

// finish derives track kinds, names and trace-level facts after the last event.
func (p *parser) finish() {
	t := p.t
	s := &p.sc
	if s.ctrlChars > 0 {
		t.Warnings = append(t.Warnings, trace.Warning{Key: "control-char", Offset: s.firstCtrl, Count: s.ctrlChars,
			Msg: fmt.Sprintf("raw control characters inside JSON strings (first at byte %d); kept as they are", s.firstCtrl)})
	}
	if g := p.gzs; g != nil && g.cut && !t.Truncated {
		t.Warn("gzip-cut", 0, "the gzip data ends early (no CRC trailer): the JSON text is complete, but its checksum was not verified")
	}
	if g := p.gzs; g != nil && g.padding > 0 {
		t.Warn("gzip-padding", 0, fmt.Sprintf("ignored %d zero bytes after the gzip data (tar or dd padding)", g.padding))
	}
	if n := p.mended + s.mendedText; n > 0 {
		first := p.firstMended
		if p.mended == 0 || s.mendedText > 0 && s.firstMendedText < first {
			first = s.firstMendedText
		}
		t.Warnings = append(t.Warnings, trace.Warning{Key: "invalid-utf8", Offset: first, Count: n,
			Msg: fmt.Sprintf("strings that are not valid UTF-8 (invalid bytes or lone surrogate escapes; first at byte %d); each bad sequence replaced by U+FFFD", first)})
	}
	if s.bareWords > 0 {
		t.Warnings = append(t.Warnings, trace.Warning{Key: "bare-word", Offset: s.firstBare, Count: s.bareWords,
			Msg: fmt.Sprintf("unquoted non-JSON values such as N/A (first at byte %d); read as absent", s.firstBare)})
	}
	for id, n := range p.catCounts {
		t.CatCounts[t.Strings[id]] += n
	}
	for _, c := range t.Events.Chunks() {
		for i := range c {
			e := &c[i]
			tr := &t.Tracks[e.Track]
			switch {
			case e.Kind.IsDevice():
				tr.Kind = trace.TrackDevice
			case e.Kind.IsCPU() && tr.Kind != trace.TrackDevice:
				tr.Kind = trace.TrackCPU
			}
		}
	}
	for i := range t.Tracks {
		tr := &t.Tracks[i]
		tr.Name = p.threadName[trackKey{tr.Pid, tr.Tid}]
		if tr.Kind == trace.TrackDevice {
			if !tr.Pid.IsStr {
				tr.Device = int(tr.Pid.Int)
			}
			tr.Stream = p.laneStream(int32(i), tr.Tid)
		}
	}
	if !t.HasTraceSpan {
		t.TraceStart = p.minStart
	}
	if t.HasWindowEnd && p.anyEvent {
		const hour = int64(3600) * 1e9
		if t.WindowEnd > p.maxEnd+hour || t.WindowEnd < p.minStart {
			t.Warn("window-end", 0, fmt.Sprintf("\"Record Window End\" lies %s outside the events; ignored",
				fmtGap(t.WindowEnd, p.minStart, p.maxEnd)))
			t.HasWindowEnd = false
		}
	}
	if t.NumEvents() == 0 && !p.sawPh && p.t.Container == "array" && (t.MetaEvents == 0) {
		t.Warn("empty", 0, "the trace holds no events")
	}
	if p.t.Container == "object" && t.NumEvents() == 0 {
		t.Warn("empty", 0, "traceEvents holds no complete (\"ph\":\"X\") events")
	}
}

func fmtGap(w, lo, hi int64) string {
	d := w - hi
	if w < lo {
		d = lo - w
	}
	return fmt.Sprintf("%.1f h", float64(d)/3.6e12)
}

// streamOf reads a stream id from a GPU tid: 7, "7" or "stream 7 ...".
func streamOf(tid trace.ID, t *trace.Trace) int64 {
	if !tid.IsStr {
		return tid.Int
	}
	s := t.Strings[tid.Str]
	s = strings.TrimPrefix(s, "stream ")
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	if v, ok := parseInt([]byte(s)); ok {
		return v
	}
	return -1
}
