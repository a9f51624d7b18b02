package cli

import (
	"slices"

	"github.com/spf13/cobra"
)

// completeFlag registers fn as the shell completion of cmd's flag name,
// and only when this run is the shell asking for completions (cobra's
// hidden __complete commands). Cobra keeps flag completions in a
// package-level map keyed by flag that nothing ever empties, so a process
// that runs Main many times (this package's tests, thousands of runs) kept
// every run's flags and through their values its options, its command tree
// and its output buffers: 1.1 GB of internal/cli's test binary at its end
// (heap profile, 2026-12-07), growing with every run.
func (e *env) completeFlag(cmd *cobra.Command, name string, fn cobra.CompletionFunc) {
	if e.completing {
		cmd.RegisterFlagCompletionFunc(name, fn)
	}
}

// completionRequest reports whether args ask for shell completions.
func completionRequest(args []string) bool {
	return len(args) > 0 && slices.Contains([]string{cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd}, args[0])
}
