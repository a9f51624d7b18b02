package gaps

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestHTAIdleBreakdown: with HTA's three choices (whole-us rounding, the
// last step dropped, negative gaps summed) the totals equal HTA 0.6.1's
// get_idle_time_breakdown on five shared traces; the figures and how they
// were obtained are in testdata/hta_idle_breakdown.json.
func TestHTAIdleBreakdown(t *testing.T) {
	shared := testenv.Shared(t)
	raw, err := os.ReadFile(filepath.Join("testdata", "hta_idle_breakdown.json"))
	if err != nil {
		t.Fatal(err)
	}
	var figs struct {
		Traces []struct {
			File   string `json:"file"`
			Host   int64  `json:"host_wait_us"`
			Kernel int64  `json:"kernel_wait_us"`
			Other  int64  `json:"other_wait_us"`
		} `json:"traces"`
	}
	if err := json.Unmarshal(raw, &figs); err != nil {
		t.Fatal(err)
	}
	if len(figs.Traces) != 5 {
		t.Fatalf("%d traces in the figures file, want 5", len(figs.Traces))
	}
	for _, c := range figs.Traces {
		t.Run(c.File[:24], func(t *testing.T) {
			tr := load(t, filepath.Join(shared, "traces", c.File))
			streams, devices := collect(tr, tr.Links(), func(int, *trace.Event) bool { return true })
			r := idleReport(tr, streams, devices, true, 0, 0)
			got := r.Total.WaitNs
			if got[HostWait] != c.Host*1000 || got[KernelWait] != c.Kernel*1000 || got[OtherWait] != c.Other*1000 {
				t.Errorf("host/kernel/other %d/%d/%d ns, HTA %d/%d/%d us", got[HostWait], got[KernelWait], got[OtherWait], c.Host, c.Kernel, c.Other)
			}
		})
	}
}

// load is the trace as tracetab reads it, parsed once per test binary
// (testcache): tests read it, never change it.
func load(t *testing.T, path string) *trace.Trace {
	t.Helper()
	tr, err := openCached(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// openCached is parse.Open through testcache.
func openCached(path string) (*trace.Trace, error) {
	tr, _, err := testcache.Open(path, parse.Options{})
	return tr, err
}
