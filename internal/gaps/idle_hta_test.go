package gaps

import (
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestHTAIdleBreakdown: with HTA's three choices (whole-us rounding, the
// last step dropped, negative gaps summed) the totals equal HTA 0.6.1's
// get_idle_time_breakdown, checked by hand on five shared traces (us).
func TestHTAIdleBreakdown(t *testing.T) {
	shared := testenv.Shared(t)
	for _, c := range []struct {
		file                string
		host, kernel, other int64
	}{
		{"TraceLens__h100__google_owlv2-large-patch14-ensemble__1016001.json.gz", 504953, 11727, 0},
		{"kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz", 318934, 8529, 0},
		{"HTA__critical_path__alexnet__benchmark_result_2869224_1695835535_trace.json.gz", 24866725, 107, 0},
		{"HTA__nccl_parser_config__nccl_data.json.gz", 738746, 2155, 0},
		{"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz", 3653, 0, 0},
	} {
		t.Run(c.file[:24], func(t *testing.T) {
			tr := load(t, filepath.Join(shared, "traces", c.file))
			streams, devices := collect(tr, tr.Links(), func(int, *trace.Event) bool { return true })
			r := idleReport(tr, streams, devices, true, 0, 0)
			got := r.Total.WaitNs
			if got[HostWait] != c.host*1000 || got[KernelWait] != c.kernel*1000 || got[OtherWait] != c.other*1000 {
				t.Errorf("host/kernel/other %d/%d/%d ns, HTA %d/%d/%d us", got[HostWait], got[KernelWait], got[OtherWait], c.host, c.kernel, c.other)
			}
		})
	}
}

func load(t *testing.T, path string) *trace.Trace {
	t.Helper()
	tr, err := parse.Open(path, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
