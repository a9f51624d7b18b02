package rawjson

import (
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// ratNs is the slow reference: big.Rat times 1000, truncated toward zero;
// ok is false when the result is outside int64.
func ratNs(s string) (int64, bool) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("big.Rat refused " + s)
	}
	r.Mul(r, big.NewRat(1000, 1))
	q := new(big.Int).Quo(r.Num(), r.Denom())
	return q.Int64(), q.IsInt64()
}

func randDigits(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(byte('0' + r.IntN(10)))
	}
	return b.String()
}

// TestNsAgainstRat: 100k random decimals (signs, leading zeros, long
// fractions, exponents, values near and past the int64 edge) give what
// big.Rat gives, or an error exactly when big.Rat's value is outside int64.
func TestNsAgainstRat(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 2))
	errs, vals := 0, 0
	for range 100000 {
		s := ""
		if r.IntN(3) == 0 {
			s = "-"
		}
		s += randDigits(r, 1+r.IntN(18))
		if r.IntN(4) != 0 {
			s += "." + randDigits(r, 1+r.IntN(12))
		}
		if r.IntN(4) == 0 {
			e := r.IntN(31) - 15
			s += []string{"e", "E"}[r.IntN(2)]
			if e < 0 {
				s += "-"
			} else if r.IntN(2) == 0 {
				s += "+"
			}
			s += strings.Repeat("0", r.IntN(2)) + strconv.Itoa(abs(e))
		}
		want, fits := ratNs(s)
		got, exact, err := nsText(s)
		if r, _ := new(big.Rat).SetString(s); fits && exact != r.Mul(r, big.NewRat(1000, 1)).IsInt() {
			t.Fatalf("nsText(%s): exact %v, big.Rat says the opposite", s, exact)
		}
		switch {
		case !fits && err == nil:
			t.Fatalf("NsText(%s) = %d, want an error (outside int64)", s, got)
		case fits && (err != nil || got != want):
			t.Fatalf("NsText(%s) = %d, %v; big.Rat gives %d", s, got, err, want)
		case fits:
			vals++
		default:
			errs++
		}
	}
	if vals < 80000 || errs < 100 {
		t.Errorf("the draw checked %d values and %d out-of-range ones; want at least 80000 and 100", vals, errs)
	}
}

func abs(n int) int { return max(n, -n) }

func TestNs(t *testing.T) {
	for _, c := range []struct {
		in   any
		want int64
	}{
		{json.Number("1.5"), 1500}, {"2.0005", 2000}, {json.Number("-0.0019"), -1}, {json.Number("1695835535123456.789"), 1695835535123456789},
		{json.Number("1.5e3"), 1500000}, {json.Number("-2E-3"), -2}, {"0", 0}, {"-0.0", 0}, {"9223372036854775.807", 9223372036854775807},
		{"-9223372036854775.808", -9223372036854775808}, {"000012.5", 12500}, {"1e-400", 0},
		{nil, 0}, {true, 0},
	} {
		got, err := Ns(c.in)
		if err != nil || got != c.want {
			t.Errorf("Ns(%v) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"N/A", "", "-", ".", "1e", "1e+", "1.2.3", "1/2", "0x10", "9223372036854775.808", "1e400", "1e99999999999", "NaN", " 1"} {
		if got, err := Ns(bad); err == nil {
			t.Errorf("Ns(%q) = %d, no error", bad, got)
		}
	}
	if ID(json.Number("42")) != "42" || ID("x") != "x" || ID(3.0) != "" {
		t.Error("ID")
	}
}
