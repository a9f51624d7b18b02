package parse

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
	"sync/atomic"
)

// scanner is a hand-written, lenient JSON tokenizer over a refillable
// buffer. Parsing proceeds in "units" (one event, one top-level value): a
// unit that runs off the end of the buffer is restarted after the buffer is
// compacted and refilled, so token slices stay valid for the whole unit and
// the file is never held whole.
type scanner struct {
	src      io.Reader
	progress *atomic.Int64 // bytes read, for a progress display; may be nil
	buf      []byte
	pos      int
	end      int
	off      int64 // offset in the stream of buf[0]
	eof      bool
	rerr     error

	maxBuf  int
	retries int // units restarted after a refill (a test checks it stays logarithmic)

	// lenient-JSON observations, reported as warnings by the caller
	ctrlChars int
	bareWords int
	firstCtrl int64
	firstBare int64
	// strings mended to valid UTF-8 outside the string table (top-level
	// keys and values): counted per unit, so rolled back on a retry
	mendedText      int
	firstMendedText int64
	scratch         []byte
	depthStack      []byte
}

// errMore signals that a unit needs more bytes than the buffer holds.
var errMore = errors.New("need more input")

type syntaxError struct {
	off int64
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// more aborts the current unit: the caller refills and retries.
func (s *scanner) more() { panic(errMore) }

func (s *scanner) fail(msg string) {
	panic(&syntaxError{off: s.off + int64(s.pos), msg: msg})
}

// unit runs f until it completes without running out of input. White
// space before the unit is consumed first, so a long run of it never has to
// fit in the buffer. Counts the scanner keeps (bare words, mended text) are rolled back
// when a unit is retried, so they do not depend on where reads ended.
func (s *scanner) unit(f func()) (err error) {
	if err := s.skipLeadingWS(); err != nil {
		return err
	}
	for {
		mark := s.pos
		bare, firstBare := s.bareWords, s.firstBare
		mended, firstMended := s.mendedText, s.firstMendedText
		err = s.try(f)
		if err != errMore {
			return err
		}
		s.pos = mark
		s.bareWords, s.firstBare = bare, firstBare
		s.mendedText, s.firstMendedText = mended, firstMended
		if s.eof {
			return io.ErrUnexpectedEOF
		}
		s.retries++
		if err := s.fill(); err != nil {
			return err
		}
	}
}

// skipLeadingWS consumes JSON white space, refilling the buffer as needed.
func (s *scanner) skipLeadingWS() error {
	for {
		for s.pos < s.end && isWS(s.buf[s.pos]) {
			s.pos++
		}
		if s.pos < s.end || s.eof {
			return nil
		}
		if err := s.fill(); err != nil {
			return err
		}
	}
}

// isWS reports JSON white space: space, tab, line feed, carriage return.
// Other control bytes (NUL above all: /dev/zero, a file of zeros) are not.
func isWS(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t'
}

func (s *scanner) try(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case error:
				if e == errMore {
					err = errMore
					return
				}
				if se, ok := e.(*syntaxError); ok {
					err = se
					return
				}
			}
			panic(r)
		}
	}()
	f()
	return nil
}

// fill moves the unread bytes (from pos) to the front, grows the buffer when
// it is full, and reads more.
func (s *scanner) fill() error {
	if s.pos > 0 {
		n := copy(s.buf, s.buf[s.pos:s.end])
		s.off += int64(s.pos)
		s.end = n
		s.pos = 0
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= s.maxBuf {
			return &syntaxError{off: s.off, msg: "a single value is larger than the read buffer limit"}
		}
		nb := make([]byte, len(s.buf)*2)
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	// Read until the buffer is full, whatever the size of each read (a
	// pipe gives 64 KiB, gzip a block): a unit that ran off the end is
	// retried only after the buffer holds at least twice what it had, so a
	// value of n bytes is scanned O(1) times per byte, not n/64Ki times.
	for s.end < len(s.buf) && !s.eof {
		n, err := s.src.Read(s.buf[s.end:])
		s.end += n
		if s.progress != nil {
			s.progress.Add(int64(n))
		}
		if err == io.EOF {
			s.eof = true
			break
		}
		if err != nil {
			s.rerr = err
			s.eof = true
			return err
		}
	}
	return nil
}

// offset is the stream offset of the current position.
func (s *scanner) offset() int64 { return s.off + int64(s.pos) }

func (s *scanner) skipWS() {
	buf := s.buf[:s.end]
	for i := s.pos; i < len(buf); i++ {
		if c := buf[i]; c > ' ' || !isWS(c) {
			s.pos = i
			return
		}
	}
	s.pos = len(buf)
	s.more()
}

// peek skips white space and returns the next byte without consuming it.
func (s *scanner) peek() byte {
	s.skipWS()
	return s.buf[s.pos]
}

func (s *scanner) expect(c byte) {
	if s.peek() != c {
		s.fail("expected '" + string(c) + "', found " + s.describe())
	}
	s.pos++
}

func (s *scanner) describe() string {
	if s.pos >= s.end {
		return "end of input"
	}
	c := s.buf[s.pos]
	if c >= 0x20 && c < 0x7f {
		return "'" + string(c) + "'"
	}
	return "byte 0x" + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15])
}

// str reads a JSON string at the current position (after white space). It
// returns the raw bytes between the quotes and whether they hold escapes.
// Raw control characters are accepted; intern reports them.
func (s *scanner) str() (raw []byte, escaped bool) {
	buf := s.buf[:s.end]
	i := s.pos
	for i < len(buf) && buf[i] <= ' ' && isWS(buf[i]) {
		i++
	}
	if i >= len(buf) {
		s.pos = i
		s.more()
	}
	if buf[i] != '"' {
		s.pos = i
		s.fail("expected a string, found " + s.describe())
	}
	start := i + 1
	i = start
	for {
		// short strings (keys) eight bytes at a time, long ones (kernel
		// names) by the vectorised IndexByte
		lim := min(i+32, len(buf))
		for i < lim {
			if i+8 <= lim {
				if m := quoteOrEscape(binary.LittleEndian.Uint64(buf[i:])); m != 0 {
					i += bits.TrailingZeros64(m) >> 3
					break
				}
				i += 8
				continue
			}
			c := buf[i]
			if c == '"' || c == '\\' {
				break
			}
			i++
		}
		if i == lim {
			q := bytes.IndexByte(buf[i:], '"')
			if q < 0 {
				s.more()
			}
			if b := bytes.IndexByte(buf[i:i+q], '\\'); b >= 0 {
				i += b
			} else {
				i += q
			}
		}
		if i >= len(buf) {
			s.more()
		}
		if buf[i] == '"' {
			s.pos = i + 1
			return buf[start:i], escaped
		}
		escaped = true
		i += 2
	}
}

// quoteOrEscape marks the bytes of x (eight bytes of text, the first in
// the low bits) that are '"' or '\\': each such byte's high bit is set in
// the result. Bits above the lowest marked byte may be set falsely (a
// borrow), so only the lowest one is to be read.
func quoteOrEscape(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ ones*'"'
	b := x ^ ones*'\\'
	return ((q-ones)&^q | (b-ones)&^b) & highs
}

// unescape decodes JSON escapes of raw into the scratch buffer.
func (s *scanner) unescape(raw []byte) []byte {
	out := s.scratch[:0]
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			out = append(out, c)
			continue
		}
		i++
		switch raw[i] {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			if i+4 < len(raw) {
				r, ok := hex4(raw[i+1 : i+5])
				if ok {
					i += 4
					if r >= 0xd800 && r < 0xdc00 && i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
						if r2, ok2 := hex4(raw[i+3 : i+7]); ok2 && r2 >= 0xdc00 && r2 < 0xe000 {
							r = 0x10000 + (r-0xd800)<<10 + (r2 - 0xdc00)
							i += 6
						}
					}
					out = appendRune(out, r)
					continue
				}
			}
			out = append(out, '\\', 'u')
		default:
			out = append(out, raw[i])
		}
	}
	s.scratch = out
	return out
}

func hex4(b []byte) (rune, bool) {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

func appendRune(out []byte, r rune) []byte {
	switch {
	case r < 0x80:
		return append(out, byte(r))
	case r < 0x800:
		return append(out, 0xc0|byte(r>>6), 0x80|byte(r&0x3f))
	case r < 0x10000:
		return append(out, 0xe0|byte(r>>12), 0x80|byte(r>>6&0x3f), 0x80|byte(r&0x3f))
	default:
		return append(out, 0xf0|byte(r>>18), 0x80|byte(r>>12&0x3f), 0x80|byte(r>>6&0x3f), 0x80|byte(r&0x3f))
	}
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '-' || c == '+' || c == '/' || c == '_'
}

// word reads a bare token: a number, true/false/null, or a lenient word such
// as N/A or NaN that real traces contain.
func (s *scanner) word() []byte {
	s.skipWS()
	start := s.pos
	i := start
	buf := s.buf[:s.end]
	for i < len(buf) && isWordByte(buf[i]) {
		i++
	}
	if i >= len(buf) {
		s.more()
	}
	if i == start {
		s.fail("expected a value, found " + s.describe())
	}
	s.pos = i
	w := buf[start:i]
	if !isStdWord(w) {
		if s.bareWords == 0 {
			s.firstBare = s.off + int64(start)
		}
		s.bareWords++
	}
	return w
}

func isStdWord(w []byte) bool {
	switch string(w) {
	case "true", "false", "null":
		return true
	}
	c := w[0]
	return c == '-' || c >= '0' && c <= '9'
}

// Byte classes of skipValue's loop.
const (
	clBad   = iota // not JSON outside strings: a syntax error
	clWS           // white space
	clSep          // ',' or ':'
	clOpen         // '{' or '['
	clClose        // '}' or ']'
	clQuote        // '"'
	clNum          // a word that is a number: a digit or '-'
	clWord         // a word byte that may start a bare word: letters, . + / _
)

var skipClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		switch {
		case isWS(b):
			t[c] = clWS
		case b == ',' || b == ':':
			t[c] = clSep
		case b == '{' || b == '[':
			t[c] = clOpen
		case b == '}' || b == ']':
			t[c] = clClose
		case b == '"':
			t[c] = clQuote
		case b >= '0' && b <= '9' || b == '-':
			t[c] = clNum
		case isWordByte(b):
			t[c] = clWord
		}
	}
	return
}()

// skipValue skips one JSON value of any depth without recursion. Objects
// and arrays are walked byte by byte in one loop (the args a command does
// not read: shapes, strides, launch parameters, memory records), with the
// checks and counts of the token functions: brackets must match, a byte
// that starts no token fails where it stands, a bare word such as N/A is
// counted.
func (s *scanner) skipValue() {
	c := s.peek()
	switch c {
	case '"':
		s.str()
		return
	case '{', '[':
	default:
		s.word()
		return
	}
	st := s.depthStack[:0]
	buf := s.buf[:s.end]
	i := s.pos
	for {
		if i >= len(buf) {
			s.pos = i
			s.more()
		}
		c := buf[i]
		switch skipClass[c] {
		case clWS, clSep:
			i++
		case clOpen:
			st = append(st, c)
			i++
		case clClose:
			if len(st) == 0 || (c == '}') != (st[len(st)-1] == '{') {
				s.pos = i
				s.fail("mismatched " + string(c))
			}
			st = st[:len(st)-1]
			i++
			if len(st) == 0 {
				s.pos = i
				s.depthStack = st
				return
			}
		case clQuote:
			s.pos = i
			s.str()
			i = s.pos
		case clNum:
			j := i + 1
			for j < len(buf) && skipClass[buf[j]] >= clNum {
				j++
			}
			if j >= len(buf) {
				s.pos = i
				s.more()
			}
			i = j
		case clWord:
			j := i + 1
			for j < len(buf) && skipClass[buf[j]] >= clNum {
				j++
			}
			if j >= len(buf) {
				s.pos = i
				s.more()
			}
			if !isStdWord(buf[i:j]) {
				if s.bareWords == 0 {
					s.firstBare = s.off + int64(i)
				}
				s.bareWords++
			}
			i = j
		default:
			s.pos = i
			s.fail("expected a value, found " + s.describe())
		}
	}
}

// rawValue skips one JSON value and returns its text as the file wrote it
// (valid until the buffer is refilled).
func (s *scanner) rawValue() []byte {
	s.skipWS()
	start := s.pos
	s.skipValue()
	return s.buf[start:s.pos]
}

// compactText appends the JSON text raw without its white space outside
// strings to dst.
func compactText(dst, raw []byte) []byte {
	in, esc := false, false
	for _, c := range raw {
		switch {
		case in:
			dst = append(dst, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
		case c == '"':
			in = true
			dst = append(dst, c)
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
