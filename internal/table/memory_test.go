package table

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestDivRound: ns/1000 is correctly rounded, as Python's int / int. The
// truth is strconv's correctly rounded reading of the exact decimal.
func TestDivRound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		ns := r.Int64N(1 << 62)
		if i%3 == 0 {
			ns = 1767189312000000000 + r.Int64N(1e12)
		}
		want, err := strconv.ParseFloat(fmt.Sprintf("%d.%03d", ns/1000, ns%1000), 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := divRound(ns, 1000); got != want {
			t.Fatalf("%d / 1000: got %v, want %v", ns, got, want)
		}
	}
}

// TestMemWindow: 2.1x compares exact ns; earlier 2.x round-trips through
// float microseconds, which on epoch ns can move an end by a few ns.
func TestMemWindow(t *testing.T) {
	start, end := int64(1767189312005002477), int64(1767189312005002877)
	if lo, hi := memWindow(start, end, Version{2, 14}); lo != start || hi != end {
		t.Errorf("2.14: [%d, %d], want the exact ends", lo, hi)
	}
	lo, hi := memWindow(start, end, Version{2, 6})
	if lo < start-256 || lo > start+256 || hi < end-256 || hi > end+256 {
		t.Errorf("2.6: [%d, %d] is more than a float step from [%d, %d]", lo, hi, start, end)
	}
	if lo, hi := memWindow(start, end, Version{2, 3}); lo != start || hi != end {
		t.Errorf("2.3 (integer us): [%d, %d], want the exact ends", lo, hi)
	}
	// Below 2^53 the round trip is exact for whole microseconds.
	if lo, hi := memWindow(5000000, 7000000, Version{2, 6}); lo != 5000000 || hi != 7000000 {
		t.Errorf("small values: [%d, %d]", lo, hi)
	}
}
