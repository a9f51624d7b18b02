package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestChainQueueWithoutCorrelation: a device op that carries no
// correlation id has no launch call to measure its queue delay from, so
// chain prints "queue n/a" (null in JSON), never "queue 0.000us". The
// device ops are found by scanning the raw JSON of the real traces.
func TestChainQueueWithoutCorrelation(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json*"))
	// GPU work that chain walks up from (kernels, memcpys, memsets, syncs)
	work := map[string]bool{"kernel": true, "Kernel": true, "gpu_memcpy": true, "Memcpy": true, "gpu_memset": true, "Memset": true,
		"cuda_sync": true, "xpu_kernel": true, "xpu_memcpy": true, "xpu_memset": true, "mtia_ccp_events": true}
	found := 0
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.Size() > 1<<20 {
			continue // the small traces are enough, and fast
		}
		evs := readRawFile(t, f)
		uncorrelated := map[string]int{} // name -> device ops without a correlation id
		all := map[string]int{}          // name -> device ops of that name
		for _, e := range evs {
			if e.Ph != "X" || !work[e.Cat] {
				continue
			}
			all[e.Name]++
			if _, ok := e.Arg("correlation"); !ok {
				uncorrelated[e.Name]++
			}
		}
		for name, n := range uncorrelated {
			found++
			out, stderr, code := run(t, "chain", f, name, "--up", "--format", "json")
			if code != 0 {
				t.Errorf("%s: chain %q: exit %d %s", filepath.Base(f), name, code, stderr)
				continue
			}
			var doc struct {
				InTrace int `json:"instances_in_trace"`
				Chains  []struct {
					DeviceOp map[string]any `json:"device_op"`
				}
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.InTrace != all[name] {
				t.Errorf("%s %q: %d instances, the raw events have %d", filepath.Base(f), name, doc.InTrace, all[name])
			}
			nulls := 0
			for _, c := range doc.Chains {
				if c.DeviceOp["correlation"] == nil {
					nulls++
					if q, ok := c.DeviceOp["queue_ns"]; !ok || q != nil {
						t.Errorf("%s %q: a device op without correlation has queue_ns %v, want null", filepath.Base(f), name, q)
					}
				}
			}
			if nulls == 0 || nulls > n {
				t.Errorf("%s %q: %d chains without correlation, the raw events have %d", filepath.Base(f), name, nulls, n)
			}
			text, _, _ := run(t, "chain", f, name, "--up")
			if strings.Contains(text, "queue 0.000us") || !strings.Contains(text, "queue n/a") || !strings.Contains(text, "carries no correlation id") {
				t.Errorf("%s %q: want queue n/a and the reason:\n%s", filepath.Base(f), name, text)
			}
			if n == all[name] {
				sum, _, _ := run(t, "chain", f, name, "--up", "--summary", "--format", "json")
				var sdoc struct {
					Summary struct {
						Rows []map[string]any `json:"rows"`
					} `json:"summary"`
				}
				if err := json.Unmarshal([]byte(sum), &sdoc); err != nil || len(sdoc.Summary.Rows) == 0 {
					t.Fatalf("%s %q summary: %v %s", filepath.Base(f), name, err, sum)
				}
				for _, r := range sdoc.Summary.Rows {
					if q, ok := r["median_queue_ns"]; !ok || q != nil {
						t.Errorf("%s %q summary: median_queue_ns %v, want null", filepath.Base(f), name, q)
					}
				}
				st, _, _ := run(t, "chain", f, name, "--up", "--summary")
				if !strings.Contains(st, " n/a ") {
					t.Errorf("%s %q summary: want n/a in the Median queue column:\n%s", filepath.Base(f), name, st)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no real trace has a device op without a correlation id: the test checks nothing")
	}
}
