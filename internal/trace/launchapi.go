package trace

import "strings"

// IsLaunchAPI reports whether a runtime or driver call is one that enqueues
// device work by its name: kernel launches (cudaLaunchKernel, cuLaunchKernel,
// hipExtModuleLaunchKernel, ...), graph launches, memcpys and memsets.
// Occupancy queries, attribute calls, event records and queries and the
// *Synchronize calls are not launches: they enqueue nothing.
func IsLaunchAPI(name string) bool {
	return strings.Contains(name, "LaunchKernel") || strings.Contains(name, "LaunchCooperativeKernel") ||
		strings.Contains(name, "GraphLaunch") || strings.Contains(name, "Memcpy") || strings.Contains(name, "Memset")
}
