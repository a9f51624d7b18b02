package gaps

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestGapRecRoundTrip: a record decodes to itself, extreme values and -1
// sentinels included, its encoding within maxRecBytes, and several
// records in one buffer decode at their own offsets.
func TestGapRecRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	i64 := func() int64 {
		switch rng.IntN(6) {
		case 0:
			return -1
		case 1:
			return 0
		case 2:
			return math.MaxInt64
		case 3:
			return math.MinInt64
		case 4:
			return int64(rng.IntN(1 << 20))
		}
		return int64(rng.Uint64())
	}
	i32 := func() int32 {
		switch rng.IntN(4) {
		case 0:
			return -1
		case 1:
			return math.MaxInt32
		case 2:
			return math.MinInt32
		}
		return int32(rng.IntN(1 << 24))
	}
	var buf []byte
	var recs []gapRec
	var offs []int
	base := i64()
	for range 5000 {
		g := gapRec{dev: int(i32()), s: i64(), e: i64(), clipped: i64(), edge: Edge(rng.IntN(256)), kind: IdleKind(rng.IntN(256)),
			prev: i32(), next: i32(), prevLaunchT: i64(), nextLaunchT: i64(), lag: i64(), cause: Cause(rng.IntN(256)),
			act: i32(), actNs: i64(), drained: i32(), prof: i32(), prepNs: i64(), prepTop: i32(), call: i32(),
			blocking: rng.IntN(2) == 0, host: i32(), hostNs: i64(), otherBusy: i64()}
		for k := range g.shares {
			g.shares[k] = i64()
		}
		n := len(buf)
		buf = appendRec(buf, &g, base)
		if len(buf)-n > maxRecBytes {
			t.Fatalf("%d bytes, over maxRecBytes %d: %+v", len(buf)-n, maxRecBytes, g)
		}
		recs, offs = append(recs, g), append(offs, n)
	}
	for k, g := range recs {
		got := readRec(buf[offs[k]:], base)
		if !reflect.DeepEqual(got, g) {
			t.Fatalf("record %d: decoded %+v, want %+v", k, got, g)
		}
		dev, s, e := keyOfRec(buf[offs[k]:], base)
		if dev != g.dev || s != g.s || e != g.e {
			t.Fatalf("record %d: key %d %d %d, want %d %d %d", k, dev, s, e, g.dev, g.s, g.e)
		}
	}
}
