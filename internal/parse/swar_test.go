package parse

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestQuoteOrEscape: on eight-byte words drawn from bytes near '"' and
// '\\' (and 0, 0x80, 0xff, where borrows and high bits start), the lowest
// byte quoteOrEscape marks is the first '"' or '\\', and none is marked
// when the word holds neither; then str finds every string's end across
// the eight-byte steps and the tail.
func TestQuoteOrEscape(t *testing.T) {
	alphabet := []byte{'"', '\\', '"' - 1, '"' + 1, '\\' - 1, '\\' + 1, 0, 1, 0x7f, 0x80, 0x81, 0xff, 'a', ' '}
	r := rand.New(rand.NewPCG(36, 1))
	var w [8]byte
	for n := 0; n < 200000; n++ {
		for k := range w {
			w[k] = alphabet[r.IntN(len(alphabet))]
		}
		want := bytes.IndexAny(w[:], "\"\\")
		m := quoteOrEscape(binary.LittleEndian.Uint64(w[:]))
		got := -1
		if m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if got != want {
			t.Fatalf("%q: first quote or backslash at %d, quoteOrEscape says %d", w[:], want, got)
		}
	}
	for n := 0; n < 70; n++ {
		body := bytes.Repeat([]byte{'x'}, n)
		text := append(append([]byte{'"'}, body...), `",`...)
		s := scanner{buf: text, end: len(text)}
		raw, esc := s.str()
		if string(raw) != string(body) || esc || s.pos != n+2 {
			t.Fatalf("a string of %d bytes read as %q (escaped %v), position %d", n, raw, esc, s.pos)
		}
		text = append(append([]byte{'"'}, body...), `\"y",`...)
		s = scanner{buf: text, end: len(text)}
		raw, esc = s.str()
		if string(raw) != string(body)+`\"y` || !esc {
			t.Fatalf("a string of %d bytes and an escape read as %q (escaped %v)", n, raw, esc)
		}
	}
}
