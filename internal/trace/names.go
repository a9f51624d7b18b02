package trace

import (
	"regexp"
	"strconv"
	"strings"
)

// commKernel matches the names of communication kernels: NCCL and RCCL
// (ncclKernel_*, ncclDevKernel_*), and collective kernels of other
// libraries named for what they do (vLLM's cross_device_reduce, custom
// all-reduce kernels). compile's kernel families and ranks' communication
// time use this one definition.
var commKernel = regexp.MustCompile(`(?i)nccl|rccl|allreduce|all_reduce|allgather|reducescatter|cross_device_reduce`)

// IsCommKernel reports whether a device op's name is a communication kernel.
func IsCommKernel(name string) bool { return commKernel.MatchString(name) }

// DeviceClass says what a device op does, the one definition for every
// view (table, gaps, export, report, roofline): "communication" for a
// kernel IsCommKernel names (NCCL/RCCL and the collectives ranks matches),
// "memory" for copies and sets (and MTIA's dma_request transfers, which the
// trace files as kernels), "wait" for MTIA's event_wait and CUDA syncs,
// else "compute".
func DeviceClass(k Kind, name string) string {
	switch {
	case k == KindMemcpy || k == KindMemset:
		return "memory"
	case k == KindSync:
		return "wait"
	case strings.HasPrefix(name, "dma_request"):
		return "memory"
	case strings.HasPrefix(name, "event_wait"):
		return "wait"
	case k == KindKernel && IsCommKernel(name):
		return "communication"
	}
	return "compute"
}

// StepNumber parses "ProfilerStep#N".
func StepNumber(name string) (int64, bool) {
	rest, ok := strings.CutPrefix(name, "ProfilerStep#")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	return n, err == nil
}

// IsGraphLaunch reports whether a runtime call launches a CUDA or HIP graph.
func IsGraphLaunch(name string) bool {
	return strings.HasPrefix(name, "cudaGraphLaunch") || strings.HasPrefix(name, "hipGraphLaunch")
}

// IsBlockingCall reports whether a runtime or driver call blocks the CPU
// until the GPU has caught up: the *Synchronize calls and synchronous
// memcpys. cudaStreamWaitEvent is not one: it makes a stream wait, not the
// CPU.
func IsBlockingCall(name string) bool {
	if strings.Contains(name, "Synchronize") {
		return true
	}
	for _, p := range []string{"cudaMemcpy", "hipMemcpy", "cuMemcpy"} {
		if strings.HasPrefix(name, p) && !strings.Contains(name, "Async") {
			return true
		}
	}
	return false
}
