package cli

import (
	"cmp"
	"encoding/json"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// rawIdle is GPU idle by the documented definition (docs/output.md,
// "Definitions"), computed here from the raw JSON with its own
// arithmetic: the step windows extended to the end of the device work
// launched in them, their union, each device's busy time inside it.
type rawIdle struct {
	hasWork      bool
	spanNs       int64 // the union of the windows
	devices      int
	busyNs       int64
	idleNs       int64
	stepIdle     map[int64]int64 // ProfilerStep number -> its share's idle
	stepOrder    []int64
	stepsPresent bool
}

var (
	rawStepName = regexp.MustCompile(`^ProfilerStep#(\d+)$`)
	rawDevCats  = map[string]bool{"kernel": true, "Kernel": true, "gpu_memcpy": true, "Memcpy": true, "gpu_memset": true, "Memset": true}
	rawCallCats = map[string]bool{"cuda_runtime": true, "Runtime": true, "runtime": true, "cuda_driver": true, "hip_runtime": true}
)

type ivl struct{ lo, hi int64 }

// mergeIvl merges intervals into a sorted disjoint union.
func mergeIvl(in []ivl) []ivl {
	s := slices.Clone(in)
	slices.SortFunc(s, func(a, b ivl) int { return cmp.Compare(a.lo, b.lo) })
	var out []ivl
	for _, x := range s {
		if x.hi <= x.lo {
			continue
		}
		if n := len(out); n > 0 && x.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, x.hi)
			continue
		}
		out = append(out, x)
	}
	return out
}

// overlapIvl is the length of the intersection of two sorted unions.
func overlapIvl(a, b []ivl) int64 {
	var sum int64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if o := min(a[i].hi, b[j].hi) - max(a[i].lo, b[j].lo); o > 0 {
			sum += o
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return sum
}

func rawGPUIdle(t *testing.T, evs []rawEvent) rawIdle {
	type step struct {
		n, lo, hi, ext int64
	}
	var steps []step
	callStart := map[string]int64{} // correlation -> the launch call's start
	type dev struct {
		lo, hi int64
		pid    string
		corr   string
	}
	var work []dev
	for i := range evs {
		e := &evs[i]
		if e.Ph != "X" {
			continue
		}
		lo := e.Ts
		hi := lo + max(0, e.Dur) // a negative dur is read as 0
		switch {
		case (e.Cat == "user_annotation" || e.Cat == "cpu_op" || e.Cat == "Operator") && rawStepName.MatchString(e.Name):
			var n int64
			json.Unmarshal([]byte(rawStepName.FindStringSubmatch(e.Name)[1]), &n)
			steps = append(steps, step{n, lo, hi, hi})
		case rawCallCats[e.Cat]:
			if _, ok := e.Arg("correlation"); ok {
				callStart[e.Corr] = lo
			}
		case rawDevCats[e.Cat]:
			pid, _ := e.Pid, e.Tid
			work = append(work, dev{lo, hi, pid, e.Corr})
		}
	}
	r := rawIdle{stepIdle: map[int64]int64{}}
	if len(work) == 0 {
		return r
	}
	r.hasWork = true
	slices.SortStableFunc(steps, func(a, b step) int { return cmp.Compare(a.lo, b.lo) })
	byDev := map[string][]ivl{}
	for _, w := range work {
		byDev[w.pid] = append(byDev[w.pid], ivl{w.lo, w.hi})
		lt := w.lo
		if s, ok := callStart[w.corr]; ok && w.corr != "" {
			lt = s
		}
		for k := range steps {
			if steps[k].lo <= lt && lt < steps[k].hi {
				steps[k].ext = max(steps[k].ext, w.hi)
				break
			}
		}
	}
	r.devices = len(byDev)
	var shares []ivl
	if len(steps) == 0 {
		lo, hi := work[0].lo, work[0].hi
		for _, w := range work {
			lo, hi = min(lo, w.lo), max(hi, w.hi)
		}
		shares = []ivl{{lo, hi}}
	} else {
		r.stepsPresent = true
		reach := int64(math.MinInt64)
		for _, s := range steps {
			lo := max(s.lo, reach)
			shares = append(shares, ivl{lo, max(lo, s.ext)})
			reach = max(reach, s.ext)
		}
	}
	union := mergeIvl(shares)
	for _, u := range union {
		r.spanNs += u.hi - u.lo
	}
	for _, iv := range byDev {
		m := mergeIvl(iv)
		r.busyNs += overlapIvl(m, union)
		for k, s := range steps {
			r.stepIdle[s.n] -= overlapIvl(m, []ivl{shares[k]})
		}
	}
	r.idleNs = r.spanNs*int64(r.devices) - r.busyNs
	for k, s := range steps {
		r.stepIdle[s.n] += (shares[k].hi - shares[k].lo) * int64(r.devices)
		r.stepOrder = append(r.stepOrder, s.n)
	}
	return r
}

func jsonOf(t *testing.T, what, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return m
}

func jnum(v any) float64 {
	f, _ := v.(float64)
	return f
}

// TestGPUIdleOneDefinition: on the sample and every shared trace, gaps'
// verdict, gaps' and table's step rows, check's total.gpu_idle_pct and
// diff's gpu_idle and gpu_idle_pct give the same GPU idle, and that is the
// figure the definition gives when computed from the raw JSON here.
func TestGPUIdleOneDefinition(t *testing.T) {
	files := []string{filepath.Join("..", "..", "testdata", "sample.pt.trace.json")}
	if dir, ok := testenv.SharedDir(); ok {
		shared, _ := filepath.Glob(filepath.Join(dir, "traces", "*.json*"))
		files = append(files, shared...)
	} else {
		testenv.Shared(t) // counted as skipped; the sample still runs below
	}
	checked := 0
	for _, f := range files {
		name := filepath.Base(f)
		truth := rawGPUIdle(t, readRawFile(t, f))
		out, stderr, code := run(t, "gaps", "--format", "json", f)
		if code != 0 {
			t.Errorf("%s: gaps exit %d: %s", name, code, stderr)
			continue
		}
		g := jsonOf(t, name, out)
		v, _ := g["verdict"].(map[string]any)
		if !truth.hasWork {
			if g["has_gpu_lane"] != false {
				t.Errorf("%s: no device work in the JSON, but gaps has a GPU lane", name)
			}
			continue
		}
		checked++
		if int64(jnum(v["gpu_idle_ns"])) != truth.idleNs || int64(jnum(v["gpu_busy_ns"])) != truth.busyNs ||
			int64(jnum(v["span_ns"])) != truth.spanNs || int(jnum(v["devices"])) != truth.devices {
			t.Errorf("%s: verdict idle %v busy %v span %v on %v devices; the raw JSON gives %d, %d, %d on %d",
				name, v["gpu_idle_ns"], v["gpu_busy_ns"], v["span_ns"], v["devices"], truth.idleNs, truth.busyNs, truth.spanNs, truth.devices)
		}
		den := truth.spanNs * int64(truth.devices)
		wantPct := math.Round(float64(truth.idleNs)*1e4/float64(den)) / 100
		if jnum(v["gpu_idle_pct"]) != wantPct {
			t.Errorf("%s: verdict gpu_idle_pct %v, want %v", name, v["gpu_idle_pct"], wantPct)
		}
		// the step rows of gaps and table: each step's share, summing to the verdict's
		if truth.stepsPresent {
			out, _, code = run(t, "table", "--by", "step", "--format", "json", f)
			if code != 0 {
				t.Fatalf("%s: table --by step exit %d", name, code)
			}
			tb := jsonOf(t, name, out)
			gSteps, _ := g["steps"].([]any)
			tSteps, _ := tb["steps"].([]any)
			if len(gSteps) != len(truth.stepOrder) || len(tSteps) != len(truth.stepOrder) {
				t.Errorf("%s: %d steps in gaps, %d in table, %d in the JSON", name, len(gSteps), len(tSteps), len(truth.stepOrder))
			} else {
				var sum int64
				for k := range gSteps {
					gs, ts := gSteps[k].(map[string]any), tSteps[k].(map[string]any)
					n := int64(jnum(gs["step"]))
					want := truth.stepIdle[n]
					if int64(jnum(gs["gpu_idle_ns"])) != want || int64(jnum(ts["gpu_idle_ns"])) != want {
						t.Errorf("%s: step %d idle: gaps %v, table %v, raw JSON %d", name, n, gs["gpu_idle_ns"], ts["gpu_idle_ns"], want)
					}
					sum += int64(jnum(gs["gpu_idle_ns"]))
				}
				if sum != int64(jnum(v["gpu_idle_ns"])) {
					t.Errorf("%s: the steps' idle sums to %d, the verdict's is %v", name, sum, v["gpu_idle_ns"])
				}
			}
		}
		// check's budget and diff's totals
		out, stderr, code = run(t, "check", "--max", "total.gpu_idle_pct=100", "--format", "json", f)
		if code != 0 {
			t.Errorf("%s: check exit %d: %s", name, code, stderr)
		} else {
			c := jsonOf(t, name, out)
			b := c["budgets"].([]any)[0].(map[string]any)
			if jnum(b["value_pct"]) != wantPct {
				t.Errorf("%s: check total.gpu_idle_pct %v, gaps %v", name, b["value_pct"], wantPct)
			}
		}
		if strings.Contains(name, "worker1") { // the pair's second rank: diff reads the first
			continue
		}
		out, stderr, code = run(t, "diff", "--format", "json", f, f)
		if code != 0 {
			t.Errorf("%s: diff exit %d: %s", name, code, stderr)
			continue
		}
		d := jsonOf(t, name, out)
		tot := d["totals"].(map[string]any)
		if p := jnum(tot["gpu_idle_pct"].(map[string]any)["base_pct"]); p != wantPct {
			t.Errorf("%s: diff gpu_idle_pct %v, gaps %v", name, p, wantPct)
		}
		idle := int64(jnum(tot["gpu_idle"].(map[string]any)["base_ns"]))
		want := truth.idleNs
		if truth.stepsPresent {
			per := make([]int64, 0, len(truth.stepOrder))
			for _, n := range truth.stepOrder {
				per = append(per, truth.stepIdle[n])
			}
			slices.Sort(per)
			m := len(per)
			want = per[m/2]
			if m%2 == 0 {
				want = per[m/2-1] + (per[m/2]-per[m/2-1]+1)/2
			}
		}
		if idle != want {
			t.Errorf("%s: diff gpu_idle %d, want %d (the median per step, or the whole trace's without steps)", name, idle, want)
		}
	}
	if checked == 0 {
		t.Fatal("no trace with device work checked")
	}
	t.Logf("GPU idle checked on %d traces", checked)
}
