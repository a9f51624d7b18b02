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

// nsValueWords is nsValue without its one-pass path: the word, then parseNs.
func (p *parser) nsValueWords() (int64, bool) {
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

type nsOutcome struct {
	v, pos          int
	ok, frac, tsStr bool
	err             string
	more            bool
	bare            int
}

func runNs(data []byte, f func(*parser) (int64, bool)) (o nsOutcome) {
	p := &parser{sc: scanner{buf: data, end: len(data)}}
	var v int64
	err := p.sc.try(func() { v, o.ok = f(p) })
	o.v, o.pos, o.frac, o.tsStr, o.bare = int(v), p.sc.pos, p.ev.frac, p.ev.tsStr, p.sc.bareWords
	if se, ok := err.(*syntaxError); ok {
		o.err = se.msg
	}
	o.more = err == errMore
	return
}

// TestPlainNsEqualsWords: ts and dur read in one pass give what the word
// and parseNs give, on Kineto's forms and on random numeric text.
func TestPlainNsEqualsWords(t *testing.T) {
	cases := []string{"1712195495519689.047,", "0.000}", "12 ", "5.,", "1.5e3,", "-3,", "+3,", "9223372036854775807,",
		"9223372036854775,", "922337203685477,", "1.23456789}", "1.2.3,", "12abc,", `"12",`, "N/A,", "12", "1.5", "007.010]"}
	rng := rand.New(rand.NewPCG(26, 2))
	alphabet := "0123456789012345678901234567890123456789..eE-+x"
	for len(cases) < 40000 {
		var b []byte
		for k := 1 + rng.IntN(22); k > 0; k-- {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
		b = append(b, ",} \n]x\"/"[rng.IntN(8)])
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		want := runNs([]byte(c), (*parser).nsValueWords)
		got := runNs([]byte(c), (*parser).nsValue)
		if got != want {
			t.Fatalf("%q: one pass %+v, words %+v", c, got, want)
		}
	}
}
