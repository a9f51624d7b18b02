package parse

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// skipValueTokens is the token-by-token skipper skipValue replaced: the
// definition its byte loop must keep (same end, same error and offset,
// same bare words counted, same requests for more input).
func (s *scanner) skipValueTokens() {
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
	var st []byte
	for {
		c := s.peek()
		switch c {
		case '{', '[':
			st = append(st, c)
			s.pos++
		case '}', ']':
			if len(st) == 0 || (c == '}') != (st[len(st)-1] == '{') {
				s.fail("mismatched " + string(c))
			}
			st = st[:len(st)-1]
			s.pos++
			if len(st) == 0 {
				return
			}
		case ',', ':':
			s.pos++
		case '"':
			s.str()
		default:
			s.word()
		}
	}
}

type skipOutcome struct {
	pos       int
	err       string
	errOff    int64
	more      bool
	bare      int
	firstBare int64
}

func runSkip(data []byte, f func(*scanner)) (o skipOutcome) {
	s := &scanner{buf: data, end: len(data), off: 1000}
	err := s.try(func() { f(s) })
	o.pos, o.bare, o.firstBare = s.pos, s.bareWords, s.firstBare
	switch e := err.(type) {
	case nil:
	case *syntaxError:
		o.err, o.errOff = e.msg, e.off
	default:
		o.more = err == errMore
	}
	return
}

// TestSkipValueEqualsTokens: on hand-written values and 40000 random ones
// (JSON fragments, bare words, bad bytes, cut anywhere), the byte loop ends
// where the token skipper ends, fails with its message at its offset, asks
// for more input when it does, and counts the same bare words.
func TestSkipValueEqualsTokens(t *testing.T) {
	cases := []string{
		`{"a": [1, 2.5e3, -4], "b": {"c": "x\"y"}} tail`,
		`[[64, 512], [], [512]],`,
		`["", "0", "9223372036854775807"]}`,
		`{"x": N/A, "y": NaN, "z": [true, false, null, inf]}`,
		`[1 2 3]`, `{]`, `[}`, `[1, @]`, "[1, \x00]", `[`, `[1, 2`, `["abc`, `{"a": 12`,
		`[truex]`, `[-]`, `[+1, .5, /x, _y]`, `[1,,,2::3]`, `[[[[]]]]x`,
	}
	alphabet := []string{"{", "}", "[", "]", ",", ":", " ", "\n", "\"", `"ab"`, `"q\"r"`, "12", "-3.5e2", "true", "null",
		"N/A", "NaN", "x", "@", "\x00", "\t", "/", "_", "+", ".", "é"}
	rng := rand.New(rand.NewPCG(26, 1))
	for len(cases) < 40000 {
		var b bytes.Buffer
		b.WriteString([]string{"{", "["}[rng.IntN(2)])
		for k := rng.IntN(30); k > 0; k-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		for _, cut := range []int{len(c), rng.IntN(len(c) + 1)} {
			data := []byte(c[:cut])
			want := runSkip(data, (*scanner).skipValueTokens)
			got := runSkip(data, (*scanner).skipValue)
			if want.more {
				// the token skipper stops at its first request for
				// more input; the position is then rewound by unit
				got.pos, want.pos = 0, 0
				got.bare, want.bare, got.firstBare, want.firstBare = 0, 0, 0, 0
			}
			if got != want {
				t.Fatalf("%q: byte loop %+v, tokens %+v", data, got, want)
			}
		}
	}
}
