package gaps

import (
	"strconv"

	"github.com/tracetab/tracetab/internal/trace"
)

// noGPUHeadline says why a trace has no GPU lane: no launch call at all (a
// CPU-only trace), or launch calls whose device work is missing (CUDA
// activity not recorded, or CUPTI failed).
func noGPUHeadline(t *trace.Trace) string {
	launches := 0
	for i := range t.NumEvents() {
		if t.Ev(i).Kind.IsLaunch() && trace.IsLaunchAPI(t.NameOf(i)) {
			launches++
		}
	}
	if launches == 0 {
		return "the trace has no kernels, memcpys or memsets (a CPU-only trace)"
	}
	n := "1 launch call"
	if launches > 1 {
		n = strconv.Itoa(launches) + " launch calls"
	}
	return "the trace has " + n + " but no kernels, memcpys or memsets: was ProfilerActivity.CUDA on, or did CUPTI fail to record?"
}
