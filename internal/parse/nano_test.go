package parse

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

func TestParseNano(t *testing.T) {
	for in, want := range map[string]int64{
		"0.148": 148_000_000, "100": 100_000_000_000, "0": 0, "-2.5": -2_500_000_000,
		"0.0092592592": 9_259_259, "135.515152": 135_515_152_000, "1e-3": 1_000_000, "7.": 7_000_000_000,
	} {
		if got, ok := parseNano([]byte(in)); !ok || got != want {
			t.Errorf("parseNano(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "-", ".", "abc", "1.2.3", "99999999999"} {
		if got, ok := parseNano([]byte(in)); ok {
			t.Errorf("parseNano(%q) = %d, ok; want not ok", in, got)
		}
	}
}

// TestKernelEffArgs: "blocks per SM" and "est. achieved occupancy %" are
// kept as fixed-point numbers, with and without NoExtras; a kernel
// without them has none.
func TestKernelEffArgs(t *testing.T) {
	const js = `{"traceEvents":[
{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2,"args":{"blocks per SM": 0.148, "est. achieved occupancy %": 3, "grid":[16,1,1]}},
{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":5,"dur":2,"args":{"grid":[16,1,1]}}]}`
	for _, lean := range []bool{false, true} {
		tr, err := Read(strings.NewReader(js), "eff", Options{NoExtras: lean})
		if err != nil {
			t.Fatal(err)
		}
		a := tr.AuxOf(0)
		if a == nil || a.BlocksPerSM != 148_000_000 || a.OccupancyPct != 3*trace.Nano {
			t.Errorf("lean %v: event 0 aux %+v", lean, a)
		}
		if b := tr.AuxOf(1); b != nil && (b.BlocksPerSM != trace.NoValue || b.OccupancyPct != trace.NoValue) {
			t.Errorf("lean %v: event 1 aux %+v", lean, b)
		}
	}
}
