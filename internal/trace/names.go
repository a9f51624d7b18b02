package trace

import (
	"strconv"
	"strings"
)

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
