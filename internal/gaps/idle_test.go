package gaps

import "testing"

// ops builds a lane from (start, end, launch) triples; launch < 0: none.
func lane3(v ...int64) []op {
	var out []op
	for k := 0; k+2 < len(v); k += 3 {
		o := op{s: v[k], e: v[k+1], i: int32(k / 3), call: -1, launch: noLaunch}
		if v[k+2] >= 0 {
			o.call, o.launch = int32(100+k), v[k+2]
		}
		out = append(out, o)
	}
	return out
}

func TestLaneIdle(t *testing.T) {
	for _, c := range []struct {
		name                string
		ops                 []op
		host, kernel, other int64
		gaps                [3]int
	}{
		{"host wait: launched after the lane went idle", lane3(0, 10, 0, 50, 60, 40), 40, 0, 0, [3]int{1, 0, 0}},
		{"kernel wait: launched in time, under 30us", lane3(0, 10_000, 0, 20_000, 30_000, 5_000), 0, 10_000, 0, [3]int{0, 1, 0}},
		{"other wait: launched in time, 30us or more", lane3(0, 10_000, 0, 40_000, 50_000, 5_000), 0, 0, 30_000, [3]int{0, 0, 1}},
		{"no launch call: never a host wait", lane3(0, 10, 0, 50, 60, -1), 0, 40, 0, [3]int{0, 1, 0}},
		{"overlap makes no gap; the latest end counts", lane3(0, 100, 0, 10, 20, 5, 150, 160, 120), 50, 0, 0, [3]int{1, 0, 0}},
		{"launch exactly at the idle moment is in time", lane3(0, 10, 0, 50, 60, 10), 0, 40, 0, [3]int{0, 1, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := laneIdle(0, 7, &seq{ops: c.ops}, -5, 1000)
			if d.WaitNs != [3]int64{c.host, c.kernel, c.other} || d.Gaps != c.gaps {
				t.Errorf("got %v %v, want %d/%d/%d %v", d.WaitNs, d.Gaps, c.host, c.kernel, c.other, c.gaps)
			}
			if d.BeforeNs != c.ops[0].s+5 {
				t.Errorf("before %d", d.BeforeNs)
			}
		})
	}
}

func TestHTALaneIdle(t *testing.T) {
	// HTA takes each op's gap to the op before it in start order, even when
	// negative, and classifies it against that op's end.
	ops := lane3(0, 100, 0, 10, 20, 5, 150, 160, 120)
	d := htaLaneIdle(0, 7, ops)
	// 10-100 = -90 (kernel wait: launched before 100), 150-20 = 130 (host: 120 > 20)
	if d.WaitNs != [3]int64{130, -90, 0} {
		t.Errorf("%v", d.WaitNs)
	}
}

func TestHTAOps(t *testing.T) {
	ops := lane3(1_500, 3_700, 900, 5_000, 6_000, 4_999, 9_000, 9_500, 8_000)
	got := htaOps(ops, true, 5_000, true)
	// rounded: start up, end down; the cut keeps launches before 5us (rounded)
	if len(got) != 1 || got[0].s != 2_000 || got[0].e != 3_000 || got[0].launch != 1_000 {
		t.Errorf("%+v", got)
	}
	if n := len(htaOps(ops, false, 0, false)); n != 3 {
		t.Errorf("no cut: %d ops", n)
	}
	for _, c := range []struct{ in, floor, ceil int64 }{{1500, 1000, 2000}, {2000, 2000, 2000}, {-1500, -2000, -1000}, {0, 0, 0}} {
		if floorUs(c.in) != c.floor || ceilUs(c.in) != c.ceil {
			t.Errorf("%d: floor %d ceil %d", c.in, floorUs(c.in), ceilUs(c.in))
		}
	}
}
