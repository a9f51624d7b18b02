package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/names"
)

// TestTrendKernelLabels: at 80 columns trend names the ops and kernels by
// the table views' labels (names.Labels over the kernels of the series),
// in the metric column and in the change points' lines, never a C++ name
// cut in its middle; the JSON keeps the full names.
func TestTrendKernelLabels(t *testing.T) {
	dir := writeNights(t, 16, nil, func(k int, c *gen.Config) {
		if k >= 9 {
			c.Noise.Slow = []gen.Slow{{Pattern: regexp.MustCompile("elementwise"), Factor: 1.3}}
		}
	})
	js, _, _ := run(t, "trend", dir, "--format", "json")
	var doc trendDoc
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	var kernels []string
	changed := ""
	for _, m := range doc.Metrics {
		if rest, ok := strings.CutPrefix(m.Name, "kernel:"); ok {
			kernels = append(kernels, rest)
			if len(m.ChangePoints) > 0 && strings.Contains(rest, "elementwise") {
				changed = rest
			}
		}
	}
	if changed == "" || !strings.Contains(changed, "<") {
		t.Fatalf("no change point on a templated elementwise kernel: %q", kernels)
	}
	labels := names.Labels(kernels, names.LabelWidth-len("kernel:"))
	want := ""
	for i, k := range kernels {
		if k == changed {
			want = "kernel:" + labels[i]
		}
	}
	out, _, _ := run(t, "trend", dir, "--width", "80")
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, want+" ") {
		t.Errorf("the change point's line does not name %q:\n%s", want, out)
	}
	if strings.Contains(out, "void at...") || strings.Contains(flat, changed) {
		t.Errorf("a kernel's full or middle-cut C++ name at 80 columns:\n%s", out)
	}
}
