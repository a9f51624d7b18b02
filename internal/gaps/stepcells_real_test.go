package gaps

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// TestBusyCellsRaw: each step's cells of the gaps sparkline, on the
// sample and every shared trace with steps and device work, equal a
// computation from the raw JSON: the step's GPU window (its annotation,
// extended to the end of the device work whose launch call, by correlation
// id, starts inside it, less what an earlier window covers) cut into n
// cells at integer boundaries, and each device's union of device work in
// each cell, summed over the devices.
func TestBusyCellsRaw(t *testing.T) {
	t.Parallel()
	const n = 16
	checked, cells := 0, 0
	for _, f := range testTraces(t) {
		if strings.HasSuffix(f, ".tar.gz") {
			continue
		}
		tr, err := openCached(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(tr.StepWindows()) == 0 {
			continue
		}
		got := BusyCells(tr, Options{Device: -1, Stream: -1}, n)
		evs := readRaw(t, f)
		want := rawBusyCells(evs, n)
		if len(got) != len(want) {
			t.Fatalf("%s: %d steps, raw %d", filepath.Base(f), len(got), len(want))
		}
		origin := rawOrigin(evs)
		for k := range got {
			g, w := got[k], want[k]
			if g.Step != w.Step || !slices.Equal(g.BusyNs, w.BusyNs) || !slices.Equal(g.WidthNs, w.WidthNs) ||
				(len(w.BusyNs) > 0 && g.StartNs != w.StartNs-origin) {
				t.Errorf("%s step %d: cells %v of %v from %d; raw %v of %v from %d", filepath.Base(f), g.Step, g.BusyNs, g.WidthNs, g.StartNs,
					w.BusyNs, w.WidthNs, w.StartNs-origin)
			}
			cells += len(g.BusyNs)
		}
		checked++
	}
	if checked < 3 || cells == 0 {
		t.Errorf("only %d traces (%d cells) checked", checked, cells)
	}
}

// rawOrigin is the output contract's origin: the Trace event's start,
// else the earliest start.
func rawOrigin(evs []rawEvent) int64 {
	lo := int64(1 << 62)
	for _, e := range evs {
		if e.Cat == "Trace" {
			return e.Ts
		}
		lo = min(lo, e.Ts)
	}
	return lo
}

func rawBusyCells(evs []rawEvent, n int) []StepCells {
	type win struct {
		n, s, e, ext int64
	}
	var steps []*win
	for _, e := range evs {
		if !strings.HasPrefix(e.Name, "ProfilerStep#") || (e.Cat != "user_annotation" && e.Cat != "cpu_op" && e.Cat != "Operator") {
			continue
		}
		if num, ok := trace.StepNumber(e.Name); ok {
			steps = append(steps, &win{n: num, s: e.Ts, e: e.End, ext: e.End})
		}
	}
	slices.SortStableFunc(steps, func(a, b *win) int { return cmp.Compare(a.s, b.s) })
	calls := map[int64]int64{}
	for _, e := range evs {
		if rawIsLaunch(e.Cat) && e.HasCorr {
			if _, dup := calls[e.Corr]; !dup {
				calls[e.Corr] = e.Ts
			}
		}
	}
	byDev := map[string][][2]int64{}
	for _, e := range evs {
		if !rawIsDeviceWork(e.Cat) {
			continue
		}
		byDev[e.Pid] = append(byDev[e.Pid], [2]int64{e.Ts, e.End})
		at := e.Ts
		if c, ok := calls[e.Corr]; ok && e.HasCorr {
			at = c
		}
		// the latest-starting step holding the launch
		for k := len(steps) - 1; k >= 0; k-- {
			if steps[k].s <= at && at < steps[k].e {
				steps[k].ext = max(steps[k].ext, e.End)
				break
			}
		}
	}
	var unions [][][2]int64
	for _, iv := range byDev {
		slices.SortFunc(iv, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
		var u [][2]int64
		for _, x := range iv {
			if len(u) > 0 && x[0] <= u[len(u)-1][1] {
				u[len(u)-1][1] = max(u[len(u)-1][1], x[1])
				continue
			}
			u = append(u, x)
		}
		unions = append(unions, u)
	}
	var out []StepCells
	reach := int64(-1 << 62)
	for _, s := range steps {
		c := StepCells{Step: s.n}
		lo := max(s.s, reach)
		hi := max(lo, s.ext)
		reach = max(reach, s.ext)
		if hi == lo || len(unions) == 0 {
			out = append(out, c)
			continue
		}
		c.StartNs = lo
		for q := 0; q < n; q++ {
			a, b := lo+(hi-lo)*int64(q)/int64(n), lo+(hi-lo)*int64(q+1)/int64(n)
			var busy int64
			for _, u := range unions {
				for _, x := range u {
					if s, e := max(x[0], a), min(x[1], b); e > s {
						busy += e - s
					}
				}
			}
			c.WidthNs = append(c.WidthNs, (b-a)*int64(len(unions)))
			c.BusyNs = append(c.BusyNs, busy)
		}
		out = append(out, c)
	}
	return out
}
