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
