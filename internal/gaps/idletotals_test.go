package gaps

import (
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// idleTotalsAgree asserts that IdleTotalsOf(tr) is the verdict's idle
// accounting of the whole report; it reports whether the trace had device
// work.
func idleTotalsAgree(t *testing.T, name string, tr *trace.Trace) bool {
	t.Helper()
	v := Analyze(tr, Options{Device: -1, Stream: -1, Top: 1}).Verdict
	got := IdleTotalsOf(tr)
	want := IdleTotals{SpanNs: v.SpanNs, Devices: v.Devices, BusyNs: v.BusyNs, IdleNs: v.IdleNs}
	if got != want {
		t.Errorf("%s: IdleTotalsOf %+v, Analyze's verdict %+v", name, got, want)
	}
	return want.Devices > 0
}

// TestIdleTotalsAreTheVerdicts: on every shared trace and on generated
// ones (with and without steps, several devices, stalls), the idle
// totals alone equal the full report's verdict.
func TestIdleTotalsAreTheVerdicts(t *testing.T) {
	withGPU := 0
	for _, p := range testenv.SharedTraces(t) {
		tr, err := openCached(p)
		if err != nil {
			continue // the reader refuses it: no report either
		}
		if idleTotalsAgree(t, filepath.Base(p), tr) {
			withGPU++
		}
	}
	if withGPU < 15 {
		t.Errorf("%d shared traces with device work compared, want at least 15", withGPU)
	}
	for name, cfg := range map[string]gen.Config{
		"default":  {Steps: 3},
		"gpubound": {Steps: 3, Layers: 2, GPUBound: true, Noise: gen.Noise{Seed: 2, Jitter: 0.1}},
		"wait":     {Steps: 3, Scenario: "wait"},
		"kineto":   {Steps: 2, Kineto: gen.Kineto{Export: true}},
		"rank":     {Steps: 3, World: 4, Rank: 1, Straggler: 1, StragglerDelay: 2_000_000},
	} {
		_, tr := genFile(t, cfg)
		if !idleTotalsAgree(t, name, tr) {
			t.Errorf("%s: no device work in a generated trace", name)
		}
	}
}
