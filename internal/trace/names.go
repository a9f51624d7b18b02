package trace

import (
	"strconv"
	"strings"
)

// commNeedles are the substrings, matched without regard to ASCII case,
// that name communication kernels: NCCL and RCCL (ncclKernel_*,
// ncclDevKernel_*), and collective kernels of other libraries named for what
// they do (vLLM's cross_device_reduce, custom all-reduce kernels). compile's
// kernel families and ranks' communication time use this one definition.
//
// A hand scan, not a regexp: DeviceClass runs once per device op on export's
// and critical-path's passes, and the (?i) alternation regexp was 16% of
// export's CPU profile on the kineto bench shape (names of 100-300 bytes);
// the scan reads each byte once and allocates nothing. names_test.go checks
// it against the regexp it replaced.
var commNeedles = [...]string{"nccl", "rccl", "allreduce", "all_reduce", "allgather", "reducescatter", "cross_device_reduce"}

// IsCommKernel reports whether a device op's name is a communication kernel.
func IsCommKernel(name string) bool {
	for i := 0; i < len(name); i++ {
		switch lowerASCII(name[i]) {
		case 'n', 'r', 'a', 'c':
			for _, n := range commNeedles {
				if hasPrefixFold(name[i:], n) {
					return true
				}
			}
		}
	}
	return false
}

// lowerASCII folds an ASCII capital to lower case; other bytes are kept.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s begins with the lower-case ASCII needle,
// ignoring ASCII case in s.
func hasPrefixFold(s, needle string) bool {
	if len(s) < len(needle) {
		return false
	}
	for j := 0; j < len(needle); j++ {
		if lowerASCII(s[j]) != needle[j] {
			return false
		}
	}
	return true
}

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
