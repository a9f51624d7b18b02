package gaps

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestReportEfficiencyPlugin: gaps' device row of the 2021 resnet50 trace
// carries the TensorBoard plugin's GPU Summary (GPU Utilization 55.51 %,
// Est. SM Efficiency 54.68 %, Est. Achieved Occupancy 49.13 %, the
// plugin's printed values; internal/kerneleff checks them against the
// oracle file and the raw events); --device narrows it to that device.
func TestReportEfficiencyPlugin(t *testing.T) {
	tr := load(t, filepath.Join(testenv.Shared(t), "traces", "kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"))
	r := Analyze(tr, Options{Device: -1, Stream: -1})
	d := r.Efficiency.Of(0)
	if d == nil || r.Efficiency.Window.Of != "steps" || !r.Efficiency.HasArgs {
		t.Fatalf("efficiency %+v", r.Efficiency)
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"utilization", d.UtilizationPct, 55.51}, {"SM efficiency", d.SMEfficiencyPct, 54.68}, {"occupancy", d.OccupancyPct, 49.13}} {
		if math.Abs(c.got-c.want) > 0.005 {
			t.Errorf("%s %.4f, plugin %.2f", c.what, c.got, c.want)
		}
	}
	if r := Analyze(tr, Options{Device: 1, Stream: -1}); r.Efficiency != nil && len(r.Efficiency.Devices) != 0 {
		t.Errorf("--device 1: %+v", r.Efficiency.Devices)
	}
}
