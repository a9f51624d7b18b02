package parse

import (
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// TestHeaderStringsDecoded: deviceProperties names, the distributedInfo
// backend and other top-level strings have their JSON escapes decoded, as
// event names do (issue 19: `NVIDIA \"A100\" \u00e9` was printed as
// written, and escaped again in JSON).
func TestHeaderStringsDecoded(t *testing.T) {
	src := `{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA \"A100\" \u00e9\\x","totalGlobalMem":1}],` +
		`"distributedInfo":{"backend":"n\u0063cl\ttab","rank":0,"world_size":2},"displayTimeUnit":"m\u0073",` +
		`"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]}`
	seq, serr, par, perr := readBoth(t, writeTemp(t, "header.json", src), Options{}, 64)
	for _, tr := range []*trace.Trace{seq, par} {
		if serr != nil || perr != nil {
			t.Fatal(serr, perr)
		}
		if len(tr.Devices) != 1 || tr.Devices[0].Name != "NVIDIA \"A100\" é\\x" {
			t.Errorf("device name %q", tr.Devices)
		}
		if tr.Dist.Backend != "nccl\ttab" {
			t.Errorf("backend %q", tr.Dist.Backend)
		}
		if tr.Meta["displayTimeUnit"] != "ms" {
			t.Errorf("displayTimeUnit %q", tr.Meta["displayTimeUnit"])
		}
	}
}
