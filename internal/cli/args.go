package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// exactArgs is cobra.ExactArgs with a usage exit code.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErrorf("%s takes %d argument(s), got %d; see 'tracetab %s --help'", cmd.Name(), n, len(args), cmd.Name())
		}
		return nil
	}
}

// rangeArgs is cobra.RangeArgs with a usage exit code.
func rangeArgs(lo, hi int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usageErrorf("%s takes %d to %d arguments, got %d; see 'tracetab %s --help'", cmd.Name(), lo, hi, len(args), cmd.Name())
		}
		return nil
	}
}

func checkFormat(f string, allowed ...string) error {
	for _, a := range allowed {
		if f == a {
			return nil
		}
	}
	return usageErrorf("unknown --format %q: use %s", f, strings.Join(allowed, ", "))
}
