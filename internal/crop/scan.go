package crop

import (
	"bytes"
	"errors"
	"io"
)

// reader streams JSON text through a buffer that always holds the whole
// value being read: the buffer grows to the largest single value (one
// event, or a top-level key's value), never to the file.
type reader struct {
	r   io.Reader
	buf []byte
	pos int   // next unread byte
	end int   // end of the valid bytes
	off int64 // input offset of buf[0]
	eof bool
	err error // a read error other than io.EOF
}

const readBuf = 4 << 20

func newReader(r io.Reader) *reader {
	return &reader{r: r, buf: make([]byte, readBuf)}
}

// errShort is the input ending inside a value.
var errShort = errors.New("the input ends inside a value")

// more reads more input, keeping the bytes from pos on; it reports false
// at the end of the input.
func (r *reader) more() bool {
	if r.eof {
		return false
	}
	if r.pos > 0 {
		n := copy(r.buf, r.buf[r.pos:r.end])
		r.off += int64(r.pos)
		r.pos, r.end = 0, n
	}
	if r.end == len(r.buf) {
		nb := make([]byte, 2*len(r.buf))
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	for {
		n, err := r.r.Read(r.buf[r.end:])
		r.end += n
		if err == io.EOF {
			r.eof = true
			return n > 0
		}
		if err != nil {
			r.err, r.eof = err, true
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// offset is the input offset of the next unread byte.
func (r *reader) offset() int64 { return r.off + int64(r.pos) }

// skipWS moves past white space and reports the next byte (0 at the end).
func (r *reader) skipWS() byte {
	for {
		for r.pos < r.end {
			c := r.buf[r.pos]
			if c != ' ' && c != '\n' && c != '\r' && c != '\t' {
				return c
			}
			r.pos++
		}
		if !r.more() {
			return 0
		}
	}
}

// value returns the next JSON value (after white space) and moves past it.
// The slice is valid until the next call.
func (r *reader) value() ([]byte, error) {
	if r.skipWS() == 0 {
		return nil, errShort
	}
	for {
		n, ok := valueEnd(r.buf[r.pos:r.end], r.eof)
		if ok {
			v := r.buf[r.pos : r.pos+n]
			r.pos += n
			return v, nil
		}
		if n < 0 {
			return nil, errBadValue
		}
		if !r.more() {
			return nil, errShort
		}
	}
}

var errBadValue = errors.New("mismatched brackets")

// valueEnd is the length of the JSON value at the start of b. ok is false
// when b ends first (n >= 0) or the brackets do not match (n < 0). It is
// as lenient as tracetab's reader: raw control characters in strings and
// bare words such as N/A pass.
func valueEnd(b []byte, eof bool) (n int, ok bool) {
	if len(b) == 0 {
		return 0, false
	}
	switch b[0] {
	case '"':
		e := stringEnd(b, 0)
		return max(e, 0), e >= 0
	case '{', '[':
	default:
		i := 0
		for i < len(b) && isWordByte(b[i]) {
			i++
		}
		if i == len(b) && !eof {
			return 0, false
		}
		if i == 0 {
			return -1, false
		}
		return i, true
	}
	depth := 0
	for i := 0; i < len(b); {
		switch c := b[i]; c {
		case '"':
			e := stringEnd(b, i)
			if e < 0 {
				return 0, false
			}
			i = e
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return 0, false
}

// stringEnd returns the index after the string that opens at b[i], or -1
// when b ends first.
func stringEnd(b []byte, i int) int {
	i++
	for {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		// count the backslashes before the quote
		j := i + q
		k := j - 1
		for k >= i && b[k] == '\\' {
			k--
		}
		if (j-1-k)%2 == 0 {
			return j + 1
		}
		i = j + 1
	}
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '-' || c == '+' || c == '/' || c == '_'
}
