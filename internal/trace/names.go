package trace

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// commKernel matches the names of communication kernels: NCCL and RCCL
// (ncclKernel_*, ncclDevKernel_*), and collective kernels of other
// libraries named for what they do (vLLM's cross_device_reduce, custom
// all-reduce kernels). compile's kernel families and ranks' communication
// time use this one definition.
var commKernel = regexp.MustCompile(`(?i)nccl|rccl|allreduce|all_reduce|allgather|reducescatter|cross_device_reduce`)

// commNeedles are commKernel's alternatives, for the ASCII fast path.
var commNeedles = []string{"nccl", "rccl", "allreduce", "all_reduce", "allgather", "reducescatter", "cross_device_reduce"}

// IsCommKernel reports whether a device op's name is a communication kernel
// (commKernel matches it). An ASCII name is searched without the regexp
// (export classifies every device event: the backtracking matcher took a
// sixth of its time on long template names); a name with other bytes goes
// to the regexp, whose Unicode case folding (ſ for s) it keeps.
func IsCommKernel(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return commKernel.MatchString(name)
		}
	}
	for _, n := range commNeedles {
		if containsFoldASCII(name, n) {
			return true
		}
	}
	return false
}

// containsFoldASCII reports whether the ASCII s holds lower (lower case)
// in any case.
func containsFoldASCII(s, lower string) bool {
	for i := 0; i+len(lower) <= len(s); i++ {
		j := 0
		for j < len(lower) {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
			j++
		}
		if j == len(lower) {
			return true
		}
	}
	return false
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
