package gaps

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// genFile writes the generated trace of cfg to a temporary file and
// returns its path and its parsed model.
func genFile(t *testing.T, cfg gen.Config) (string, *trace.Trace) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, cfg); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "g.json")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Read(bytes.NewReader(buf.Bytes()), p, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p, tr
}

func analyzeAll(tr *trace.Trace) *Report {
	return Analyze(tr, Options{Device: -1, Stream: -1, Top: 0})
}

// sameAsRaw: the verdict equals the raw reading of the file (verdict_raw_test.go).
func sameAsRaw(t *testing.T, path string, r *Report) {
	t.Helper()
	rv, ok := rawVerdictOf(readRaw(t, path))
	v := r.Verdict
	if !ok || v.IdleByCause != rv.byCause || v.Class != rv.class || v.SteadyClass != rv.steady || v.IdleNs != rv.idle {
		t.Errorf("verdict %s/%s %v, raw %s/%s %v", v.Class, v.SteadyClass, v.IdleByCause, rv.class, rv.steady, rv.byCause)
	}
}

// largestBetween is the longest gap between two ops.
func largestBetween(r *Report) Gap {
	var best Gap
	for _, g := range r.Gaps {
		if g.Edge == Between && g.LenNs > best.LenNs {
			best = g
		}
	}
	return best
}

// TestStartupKnobs: a 1 s first launch, a long cudaFree and stream/event
// creation in the first step make the verdict startup, the start-up idle
// is exactly those calls' time (read from the raw JSON: they lie in the
// gap before the first op, inside the first step), and the steady class
// is the class of the same trace generated without them.
func TestStartupKnobs(t *testing.T) {
	t.Parallel()
	for _, sc := range []string{"", "dataloader", "sync", "wait"} {
		t.Run("scenario "+sc, func(t *testing.T) {
			su := gen.Startup{FirstLaunchNs: 1_000_000_000, FreeNs: 800_000_000, CreateNs: 400_000_000}
			path, tr := genFile(t, gen.Config{Steps: 4, Scenario: sc, Startup: su})
			_, plain := genFile(t, gen.Config{Steps: 4, Scenario: sc})
			r, base := analyzeAll(tr), analyzeAll(plain)
			sameAsRaw(t, path, r)
			v := r.Verdict
			// from the raw events: the start-up calls by the documented rule
			var want int64
			launches := 0
			for _, e := range readRaw(t, path) {
				switch {
				case e.Name == "cudaLaunchKernel":
					if launches == 0 {
						want += e.End - e.Ts // the first launch of the trace
					}
					launches++
				case e.Name == "cudaFree" && e.End-e.Ts >= StartupMinNs,
					strings.Contains(e.Name, "StreamCreate"), strings.Contains(e.Name, "EventCreate"):
					want += e.End - e.Ts
				}
			}
			if want != su.FirstLaunchNs+su.FreeNs+su.CreateNs {
				t.Fatalf("raw start-up calls %d ns", want)
			}
			if v.Class != ClassStartup || v.StartupNs != want || v.IdleByCause[CauseStartup] != want {
				t.Errorf("class %s, start-up %d ns, raw %d: %s", v.Class, v.StartupNs, want, v.Headline)
			}
			if v.SteadyClass != base.Verdict.Class {
				t.Errorf("steady class %s, the trace without start-up calls %s", v.SteadyClass, base.Verdict.Class)
			}
			var sum int64
			names := map[string]bool{}
			for _, s := range v.StartupCalls {
				sum += s.IdleNs
				names[s.Name] = true
			}
			if sum != v.StartupNs || !names["cudaLaunchKernel"] || !names["cudaFree"] || !names["cudaStreamCreateWithFlags"] || !names["cudaEventCreateWithFlags"] {
				t.Errorf("start-up calls %+v sum to %d of %d", v.StartupCalls, sum, v.StartupNs)
			}
			for _, w := range []string{"startup", "profile after warm-up", "ProfilerStep#2 is cold", "the steady state without it is " + base.Verdict.Class} {
				if !strings.Contains(v.Headline+" "+v.Advice, w) {
					t.Errorf("headline and advice lack %q: %s / %s", w, v.Headline, v.Advice)
				}
			}
			// the gaps holding them: cause startup, named for their largest
			// call: the first launch before the first op, then cudaFree
			for _, g := range r.Gaps {
				want := ""
				switch {
				case g.Edge == BeforeFirst:
					want = "cudaLaunchKernel"
				case g.LenNs > su.FreeNs:
					want = "cudaFree"
				default:
					continue
				}
				if g.Cause != CauseStartup || g.Activity != want || g.ActivityPct > g.CausePct {
					t.Errorf("gap %+v: want cause startup inside %s", g, want)
				}
			}
		})
	}
}

// TestBlockingLaunchKnob: a launch call that starts while a 2 ms kernel
// runs and returns 20 ms later (its kernel 1 us after) makes a gap of
// cause launch, named for that call, never queued; the verdict is
// launch-bound and says the calls were still running.
func TestBlockingLaunchKnob(t *testing.T) {
	t.Parallel()
	const block = 20_000_000
	path, tr := genFile(t, gen.Config{Steps: 4, Startup: gen.Startup{BlockingNs: block}})
	r := analyzeAll(tr)
	sameAsRaw(t, path, r)
	g := largestBetween(r)
	if g.Cause != CauseLaunch || !g.BlockingLaunch || g.Activity != "cudaLaunchKernel" || g.LaunchCallNs != block || g.Shares[CauseQueued] != 0 {
		t.Errorf("gap %+v", g)
	}
	// the gap: from the 2 ms kernel's end to 1 us after the call returned
	if g.Shares[CauseDispatch] != 1_000 || g.Shares[CauseLaunch] != g.LenNs-1_000 {
		t.Errorf("shares %v of %d", g.Shares, g.LenNs)
	}
	v := r.Verdict
	if v.Class != ClassLaunch || v.BlockingLaunchNs != g.Shares[CauseLaunch] || !strings.Contains(v.Headline, "still running when the GPU went idle") {
		t.Errorf("%s: %s", v.Class, v.Headline)
	}
	if !strings.Contains(v.Advice, "block") || strings.Contains(v.Advice, "CUDA graphs") {
		t.Errorf("advice %q", v.Advice)
	}
}

// TestEventWaitKnob: a kernel waiting on an event that no traced stream
// records, every stream idle and the host in cudaEventSynchronize: cause
// dependency, the words say every stream was idle (never "behind another
// stream") and what the host did.
func TestEventWaitKnob(t *testing.T) {
	t.Parallel()
	path, tr := genFile(t, gen.Config{Steps: 4, Startup: gen.Startup{EventWaitNs: 50_000_000}})
	r := analyzeAll(tr)
	sameAsRaw(t, path, r)
	g := largestBetween(r)
	if g.Cause != CauseDependency || g.CausePct != 100 || g.HostActivity != "cudaEventSynchronize" || g.HostActivityPct < 99 || g.OtherStreamBusyNs != 0 {
		t.Errorf("gap %+v", g)
	}
	v := r.Verdict
	if v.Class != ClassDependency || !strings.Contains(v.Headline, "every stream of the device was idle") || strings.Contains(v.Headline, "behind another stream") {
		t.Errorf("%s: %s", v.Class, v.Headline)
	}
}

// TestOverlappingPythonKnob: Python frames that outlast their parent (an
// __exit__ past its caller, the profiler's step frame past ProfilerStep#N)
// leave every share within 0-100% and every gap's shares summing to it,
// and the class and the largest gap's cause are those of the same trace
// without them.
func TestOverlappingPythonKnob(t *testing.T) {
	t.Parallel()
	for _, sc := range []string{"", "dataloader", "sync"} {
		path, tr := genFile(t, gen.Config{Steps: 4, Scenario: sc, Startup: gen.Startup{OverlapPython: true}})
		_, plain := genFile(t, gen.Config{Steps: 4, Scenario: sc})
		r, base := analyzeAll(tr), analyzeAll(plain)
		sameAsRaw(t, path, r)
		checkShares(t, "overlap "+sc, r)
		if r.Verdict.Class != base.Verdict.Class || largestBetween(r).Cause != largestBetween(base).Cause {
			t.Errorf("%s: class %s, without the frames %s", sc, r.Verdict.Class, base.Verdict.Class)
		}
		// the frames are there and outlast their parents, and some gap's
		// window holds them: Python time counts (as cpu, or under the
		// loader as input)
		var cpu int64
		for _, g := range r.Gaps {
			cpu += g.Shares[CauseCPU]
		}
		var baseCPU int64
		for _, g := range base.Gaps {
			baseCPU += g.Shares[CauseCPU]
		}
		if cpu <= baseCPU {
			t.Errorf("%s: the Python frames add no CPU time (%d vs %d ns)", sc, cpu, baseCPU)
		}
	}
}

// checkShares asserts the share rules on every gap and on the verdict.
func checkShares(t *testing.T, what string, r *Report) {
	t.Helper()
	for _, g := range r.Gaps {
		var sum int64
		for _, ns := range g.Shares {
			if ns < 0 {
				t.Errorf("%s: gap at %d: a negative share %v", what, g.StartNs, g.Shares)
			}
			sum += ns
		}
		if sum != g.LenNs {
			t.Errorf("%s: gap at %d: shares sum to %d of %d", what, g.StartNs, sum, g.LenNs)
		}
		if g.CausePct < 0 || g.CausePct > 100 || g.ActivityPct < 0 || g.ActivityPct > g.CausePct || g.HostActivityPct < 0 || g.HostActivityPct > 100 {
			t.Errorf("%s: gap at %d: cause %v%%, activity %v%%, host %v%%", what, g.StartNs, g.CausePct, g.ActivityPct, g.HostActivityPct)
		}
		if g.InputPrepNs < 0 || g.InputPrepNs > g.Shares[CauseInput] {
			t.Errorf("%s: gap at %d: input preparation %d of input %d", what, g.StartNs, g.InputPrepNs, g.Shares[CauseInput])
		}
	}
	v := r.Verdict
	if r.NoGPU {
		return
	}
	var sum int64
	for _, ns := range v.IdleByCause {
		if ns < 0 {
			t.Errorf("%s: negative idle by cause %v", what, v.IdleByCause)
		}
		sum += ns
	}
	if sum != v.IdleNs {
		t.Errorf("%s: idle by cause sums to %d of %d", what, sum, v.IdleNs)
	}
	var su int64
	for _, s := range v.StartupCalls {
		su += s.IdleNs
	}
	if su != v.StartupNs || v.StartupNs != v.IdleByCause[CauseStartup] {
		t.Errorf("%s: start-up calls sum to %d, start-up %d", what, su, v.StartupNs)
	}
	if v.ActivityNs > v.ClassNs || v.ActivityNs < 0 || v.InputPrepNs+v.InputLoaderNs != v.IdleByCause[CauseInput] || v.InputPrepNs < 0 || v.InputLoaderNs < 0 {
		t.Errorf("%s: activity %d of class %d; input %d+%d of %d", what, v.ActivityNs, v.ClassNs, v.InputLoaderNs, v.InputPrepNs, v.IdleByCause[CauseInput])
	}
	for _, p := range []float64{v.IdlePct, v.StartupPct, v.SteadyIdlePct} {
		if p < 0 || p > 100 {
			t.Errorf("%s: a percentage %v", what, p)
		}
	}
}
