package parse

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/trace"
)

// evState accumulates one event's fields until its closing brace.
type evState struct {
	ph       byte
	cat      trace.StrID
	hasCat   bool
	name     trace.StrID
	pid, tid trace.ID
	hasPid   bool
	hasTid   bool
	ts, dur  int64
	hasTs    bool
	hasDur   bool
	badDur   bool // "dur" present but not a usable number
	tsStr    bool
	frac     bool
	id       int64
	hasID    bool

	extID, corr      int64
	flags            uint8
	dims, types, stk trace.StrID
	concrete         trace.StrID
	aux              trace.Aux
	hasAux           bool
	argName          string // M events: args.name
	memBytes, memTot int64
	memResv, memAddr int64
	memHas           uint8 // trace.MemHas* flags
	memDevType       int64
	memDevID         int64
	hasMemBytes      bool
	evIdx            bool
	stream           int64 // args.stream (device events)
	hasStream        bool
}

// blankEv is an evState before its event's first field: one copy of it
// resets the state (comparing the Aux to keep it cost more than the copy).
var blankEv = evState{memDevType: -1, memDevID: -1, aux: trace.NewAux()}

func (e *evState) reset() { *e = blankEv }

// event parses one event object at the current position into p.ev.
func (p *parser) event() {
	s := &p.sc
	e := &p.ev
	e.reset()
	if s.peek() != '{' {
		s.fail("expected an event object, found " + s.describe() + p.notTraceHint())
	}
	s.pos++
	if s.peek() == '}' {
		s.pos++
		return
	}
	for {
		key, esc := s.str()
		if esc {
			key = s.unescape(key)
		}
		s.expect(':')
		switch string(key) {
		case "ph":
			raw, _ := p.strOrWord()
			if len(raw) > 0 {
				e.ph = raw[0]
			}
		case "cat":
			e.cat = p.internValue()
			e.hasCat = true
		case "name":
			e.name = p.internValue()
		case "pid":
			e.pid = p.idValue()
			e.hasPid = true
		case "tid":
			e.tid = p.idValue()
			e.hasTid = true
		case "ts":
			e.ts, e.hasTs = p.nsValue()
		case "dur":
			e.dur, e.hasDur = p.nsValue()
			e.badDur = !e.hasDur
		case "id":
			id := p.idValue()
			if id.IsStr {
				e.id = -int64(id.Str) - 1
			} else {
				e.id = id.Int
			}
			e.hasID = true
		case "args":
			if p.opts.NoMemory && e.ph == 'i' && p.t.Strings[e.name] == "[memory]" {
				s.skipValue() // the record is only counted
				break
			}
			p.args()
		default:
			s.skipValue()
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return
		default:
			s.fail("expected ',' or '}' in event, found " + s.describe())
		}
	}
}

// args parses an event's args object, keeping the fields tracetab uses.
func (p *parser) args() {
	s := &p.sc
	e := &p.ev
	if s.peek() != '{' {
		s.skipValue()
		return
	}
	s.pos++
	if s.peek() == '}' {
		s.pos++
		return
	}
	for {
		key, esc := s.str()
		if esc {
			key = s.unescape(key)
		}
		s.expect(':')
		switch string(key) {
		case "External id":
			if v, ok := p.intValue(); ok {
				e.extID = v
				e.flags |= trace.FlagExtID
			}
		case "external id":
			if v, ok := p.intValue(); ok {
				e.extID = v
				e.flags |= trace.FlagExtID | trace.FlagLowerExtID
			}
		case "correlation":
			if v, ok := p.intValue(); ok {
				e.corr = v
				e.flags |= trace.FlagCorr
			}
		case "Input Dims", "Input dims", "Input type", "Concrete Inputs", "Call stack", "grid", "block", "registers per thread",
			"shared memory", "bytes":
			if p.opts.NoExtras || (p.opts.ShapesOnly && key[0] != 'I' && string(key) != "Concrete Inputs") ||
				(p.opts.DimsOnly && string(key) != "Input Dims" && string(key) != "Input dims") {
				s.skipValue()
				break
			}
			p.extraArg(key)
		case "Process Group Name", "pg_name", "Seq", "seq", "Collective name", "dtype", "In msg nelems", "Out msg nelems", "Group size",
			"wait_on_stream", "wait_on_cuda_event_record_corr_id", "blocks per SM", "est. achieved occupancy %":
			// rare (collectives, cuda_sync events) or few distinct values
			// (a kernel's efficiency estimates, shared through the Aux
			// cache): kept even with NoExtras
			p.extraArg(key)
		case "Ev Idx", "Profiler Event Index":
			e.evIdx = true
			s.skipValue()
		case "finished":
			raw, _ := p.strOrWord()
			if string(raw) == "false" {
				e.flags |= trace.FlagUnfinished
			}
		case "stream":
			e.stream, e.hasStream = p.intValue()
		case "Bytes":
			e.memBytes, e.hasMemBytes = p.intValue()
		case "Total Allocated":
			if v, ok := p.intValue(); ok {
				e.memTot = v
				e.memHas |= trace.MemHasTotal
			}
		case "Total Reserved":
			if v, ok := p.intValue(); ok {
				e.memResv = v
				e.memHas |= trace.MemHasReserved
			}
		case "Addr":
			if v, ok := p.intValue(); ok {
				e.memAddr = v
				e.memHas |= trace.MemHasAddr
			}
		case "Device Type":
			if v, ok := p.intValue(); ok {
				e.memDevType = v
			}
		case "Device Id":
			if v, ok := p.intValue(); ok {
				e.memDevID = v
			}
		case "name":
			if s.peek() == '"' {
				raw, esc := s.str()
				e.argName = p.t.Strings[p.internStr(raw, esc)]
			} else {
				s.skipValue()
			}
		default:
			s.skipValue()
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return
		default:
			s.fail("expected ',' or '}' in args, found " + s.describe())
		}
	}
}

// strOrWord returns the raw text of a string or bare value.
func (p *parser) strOrWord() ([]byte, bool) {
	s := &p.sc
	switch s.peek() {
	case '"':
		raw, _ := s.str()
		return raw, true
	case '{', '[':
		s.skipValue()
		return nil, false
	}
	return s.word(), false
}

// textValue reads a string value, its escapes decoded as an event name's
// are (a non-string scalar is its text; an object or array is "").
func (p *parser) textValue() string {
	s := &p.sc
	if s.peek() == '"' {
		raw, esc := s.str()
		return p.text(raw, esc)
	}
	raw, _ := p.strOrWord()
	return p.text(raw, false)
}

func (p *parser) internValue() trace.StrID {
	s := &p.sc
	if s.peek() != '"' {
		w, _ := p.strOrWord()
		return p.intern(w)
	}
	raw, esc := s.str()
	return p.internStr(raw, esc)
}

// intValue reads an integer, also from a string ("12"). Words, fractions
// and numbers beyond int64 give ok=false.
func (p *parser) intValue() (int64, bool) {
	raw, _ := p.strOrWord()
	return parseInt(raw)
}

// idValue reads a pid, tid or flow id: an integer or a string.
func (p *parser) idValue() trace.ID {
	s := &p.sc
	if s.peek() == '"' {
		raw, esc := s.str()
		return trace.ID{IsStr: true, Str: p.internStr(raw, esc)}
	}
	w, _ := p.strOrWord()
	if v, ok := parseInt(w); ok {
		return trace.ID{Int: v}
	}
	return trace.ID{IsStr: true, Str: p.intern(w)}
}

// nsValue reads ts or dur (a number, or a number in a string) as ns.
func (p *parser) nsValue() (int64, bool) {
	if v, ok := p.plainNs(); ok {
		return v, true
	}
	raw, quoted := p.strOrWord()
	v, frac, ok := parseNs(raw)
	if !ok {
		return 0, false
	}
	if frac {
		p.ev.frac = true
	}
	if quoted {
		p.ev.tsStr = true
	}
	return v, true
}

// plainNs reads a plain decimal count of microseconds (digits, then
// perhaps a point and digits: what Kineto writes) in one pass, as parseNs
// reads it; false, with nothing consumed, for any other text (an exponent,
// a sign, a string, a word, digits beyond int64), which nsValue then reads
// the general way.
func (p *parser) plainNs() (int64, bool) {
	s := &p.sc
	s.skipWS()
	buf := s.buf[:s.end]
	i := s.pos
	if d := buf[i] - '0'; d > 9 {
		return 0, false
	}
	var us int64
	for ; i < len(buf); i++ {
		d := buf[i] - '0'
		if d > 9 {
			break
		}
		if us > (math.MaxInt64/1000-9)/10 {
			return 0, false
		}
		us = us*10 + int64(d)
	}
	var sub int64
	frac := false
	if i < len(buf) && buf[i] == '.' {
		frac = true
		i++
		for scale := int64(100); i < len(buf); i++ {
			d := buf[i] - '0'
			if d > 9 {
				break
			}
			sub += int64(d) * scale
			scale /= 10
		}
	}
	if i >= len(buf) {
		s.more()
	}
	if isWordByte(buf[i]) {
		return 0, false // 1e3, 1.5.2, 12abc: the word and parseNs decide
	}
	s.pos = i
	if frac {
		p.ev.frac = true
	}
	return us*1000 + sub, true
}

func (p *parser) triple() (t [3]int32) {
	s := &p.sc
	if s.peek() != '[' {
		s.skipValue()
		return
	}
	s.pos++
	for i := 0; ; i++ {
		if s.peek() == ']' {
			s.pos++
			return
		}
		v, ok := p.intValue()
		if ok && i < 3 {
			t[i] = int32(v)
		}
		if s.peek() == ',' {
			s.pos++
		}
	}
}

// intern returns the id of b (text as the file wrote it, no escapes) in the
// string table, adding it when new.
func (p *parser) intern(b []byte) trace.StrID { return p.internText(b, b) }

// internStr interns the contents of a JSON string, decoding its escapes.
func (p *parser) internStr(raw []byte, esc bool) trace.StrID {
	if !esc {
		return p.intern(raw)
	}
	return p.internText(p.sc.unescape(raw), raw)
}

// internText interns b, whose text in the file is raw. A new string with
// raw control characters in the file's text is counted for the control-char
// warning (an escape such as \u0000 is not raw); one that is not valid UTF-8
// (invalid bytes, a lone surrogate escape such as \ud800) is stored mended,
// each invalid sequence replaced by U+FFFD, and counted for the
// invalid-utf8 warning. A segment worker notes where each was first met,
// for the merge.
func (p *parser) internText(b, raw []byte) trace.StrID {
	slot := &p.recent[recentSlot(b)]
	if slot.s == string(b) && (slot.id != 0 || len(b) == 0) {
		return slot.id
	}
	if id, ok := p.strIDs[string(b)]; ok {
		slot.s, slot.id = p.t.Strings[id], id
		if p.t.Strings[id] != string(b) {
			slot.s = string(b) // a mended string: its text as written
		}
		return id
	}
	var id trace.StrID
	if utf8.Valid(b) {
		id = p.add(string(b))
	} else {
		m := strings.ToValidUTF8(string(b), "\uFFFD")
		if known, ok := p.strIDs[m]; ok {
			p.strIDs[string(b)] = known
			return known
		}
		id = p.add(m)
		p.strIDs[string(b)] = id
		off := p.sc.offset()
		p.countMended(off)
		if p.seg != nil {
			if p.badAt == nil {
				p.badAt = map[trace.StrID]int64{}
			}
			p.badAt[id] = off
		}
	}
	if hasCtrl(raw) {
		off := p.sc.offset()
		p.countCtrl(off)
		if p.seg != nil {
			if p.ctrlAt == nil {
				p.ctrlAt = map[trace.StrID]int64{}
			}
			p.ctrlAt[id] = off
		}
	}
	return id
}

// recentSlots is the size of the parser's cache of recent strings: names
// and categories repeat event after event, and a hit costs one comparison
// instead of hashing the name (kernel names run to hundreds of bytes).
const recentSlots = 512

type recentStr struct {
	s  string
	id trace.StrID
}

// recentSlot picks b's slot from its length and three of its bytes.
func recentSlot(b []byte) int {
	n := len(b)
	if n == 0 {
		return 0
	}
	h := uint(n)*0x9e37 ^ uint(b[0])<<3 ^ uint(b[n-1])<<7 ^ uint(b[n/2])*0x45
	return int(h % recentSlots)
}

// text is the contents of a JSON string outside the string table (top-level
// keys and values, device names), mended and counted as internText does.
func (p *parser) text(raw []byte, esc bool) string {
	b := raw
	if esc {
		b = p.sc.unescape(raw)
	}
	if utf8.Valid(b) {
		return string(b)
	}
	s := &p.sc
	if s.mendedText == 0 {
		s.firstMendedText = s.offset()
	}
	s.mendedText++
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func (p *parser) countMended(off int64) {
	if p.mended == 0 {
		p.firstMended = off
	}
	p.mended++
}

func (p *parser) countCtrl(off int64) {
	if p.sc.ctrlChars == 0 {
		p.sc.firstCtrl = off
	}
	p.sc.ctrlChars++
}

// hasCtrl reports raw control characters (an escaped \u0001 decodes to
// one too: torch writes them raw, so the warning is about the text).
func hasCtrl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// add appends a new string to the table.
func (p *parser) add(str string) trace.StrID {
	p.strBytes += int64(len(str))
	id := trace.StrID(len(p.t.Strings))
	p.t.Strings = append(p.t.Strings, str)
	p.strIDs[str] = id
	return id
}

func (p *parser) idString(id trace.ID) string {
	if id.IsStr {
		return p.t.Strings[id.Str]
	}
	return strconv.FormatInt(id.Int, 10)
}

// compactStr is a shape arg's text as the file wrote it (a buffer reused
// by its slot) and the id of its compact JSON text.
type compactStr struct {
	raw []byte
	id  trace.StrID
}

// internCompact reads a shape arg (Input Dims, Input type, Concrete
// Inputs) and interns its compact JSON text (no white space outside
// strings). Op after op repeats the same shapes as written: a value is
// looked up by its text in a small direct-mapped cache (compactSlot) and
// compacted and interned only when it is not there.
func (p *parser) internCompact() trace.StrID {
	raw := p.sc.rawValue()
	slot := &p.compacted[compactSlot(raw)]
	if slot.id != 0 && string(slot.raw) == string(raw) {
		return slot.id
	}
	p.tmp = compactText(p.tmp[:0], raw)
	id := p.intern(p.tmp)
	slot.raw, slot.id = append(slot.raw[:0], raw...), id
	return id
}

// compactSlot picks raw's slot in the cache of shape args from all of its
// bytes, eight at a time (shapes differ anywhere: [[64, 64]] and [[64, 128]]).
func compactSlot(raw []byte) int {
	h := uint64(len(raw)) * 0x9e3779b97f4a7c15
	i := 0
	for ; i+8 <= len(raw); i += 8 {
		h = (h ^ binary.LittleEndian.Uint64(raw[i:])) * 0x100000001b3
		h ^= h >> 29
	}
	for ; i < len(raw); i++ {
		h = (h ^ uint64(raw[i])) * 0x100000001b3
	}
	h ^= h >> 32
	return int(h % recentSlots)
}

// auxInt reads an integer arg into one field of the event's Aux (kept as
// absent, -1, when the value is no integer).
func (p *parser) auxInt(dst *int64) {
	if v, ok := p.intValue(); ok {
		*dst = v
		p.ev.hasAux = true
	}
}

// auxFixed reads a decimal arg into one fixed-point field of the event's
// Aux (kept as absent, trace.NoValue, when the value is no number).
func (p *parser) auxFixed(dst *int64) {
	raw, _ := p.strOrWord()
	if v, ok := parseNano(raw); ok {
		*dst = v
		p.ev.hasAux = true
	}
}

// extraArg reads one of the args kept in Trace.Extras and Trace.Aux.
func (p *parser) extraArg(key []byte) {
	e := &p.ev
	switch string(key) {
	case "Input Dims", "Input dims":
		e.dims = p.internCompact()
	case "Input type":
		e.types = p.internCompact()
	case "Concrete Inputs":
		e.concrete = p.internCompact()
	case "Call stack":
		e.stk = p.internValue()
	case "grid":
		e.aux.Grid = p.triple()
		e.aux.HasLaunch = true
		e.hasAux = true
	case "block":
		e.aux.Block = p.triple()
		e.aux.HasLaunch = true
		e.hasAux = true
	case "registers per thread":
		if v, ok := p.intValue(); ok {
			e.aux.Regs = int32(v)
			e.hasAux = true
		}
	case "shared memory":
		p.auxInt(&e.aux.SharedMem)
	case "bytes":
		p.auxInt(&e.aux.Bytes)
	case "Process Group Name", "pg_name":
		e.aux.PG = p.internValue()
		e.hasAux = true
	case "Seq", "seq":
		p.auxInt(&e.aux.Seq)
	case "Collective name":
		e.aux.Coll = p.internValue()
		e.hasAux = true
	case "dtype":
		e.aux.Dtype = p.internValue()
		e.hasAux = true
	case "In msg nelems":
		p.auxInt(&e.aux.InNelems)
	case "Out msg nelems":
		p.auxInt(&e.aux.OutNelems)
	case "Group size":
		p.auxInt(&e.aux.GroupSize)
	case "wait_on_stream":
		p.auxInt(&e.aux.WaitStream)
	case "wait_on_cuda_event_record_corr_id":
		p.auxInt(&e.aux.WaitRecord)
	case "blocks per SM":
		p.auxFixed(&e.aux.BlocksPerSM)
	case "est. achieved occupancy %":
		p.auxFixed(&e.aux.OccupancyPct)
	}
}
