package cli

import (
	"slices"

	"github.com/spf13/cobra"
)

// useOrder is the order help lists the analysis commands in: the order a
// user meets them (look at the trace, tabulate it, find idle GPU time,
// follow one call, then compare and gate in CI).
var useOrder = []string{"info", "table", "gaps", "chain", "critical-path", "compile", "ranks", "roofline", "memory", "report", "diff", "check", "trend", "crop", "export"}

// cobra's sorting is a package variable: set once, before any Main runs
// (tests run Main on several goroutines).
func init() { cobra.EnableCommandSorting = false }

// groupCommands puts the analysis commands, in useOrder, under one help
// heading and the rest (version, completion, help) under another, whatever
// order they were added in.
func groupCommands(root *cobra.Command) {
	root.AddGroup(&cobra.Group{ID: "use", Title: "Commands, in the order of use:"},
		&cobra.Group{ID: "other", Title: "Other commands:"})
	cmds := slices.Clone(root.Commands())
	root.RemoveCommand(cmds...)
	rank := func(c *cobra.Command) int {
		if i := slices.Index(useOrder, c.Name()); i >= 0 {
			return i
		}
		return len(useOrder)
	}
	slices.SortStableFunc(cmds, func(a, b *cobra.Command) int { return rank(a) - rank(b) })
	for _, c := range cmds {
		if rank(c) < len(useOrder) {
			c.GroupID = "use"
		} else {
			c.GroupID = "other"
		}
		root.AddCommand(c)
	}
	root.SetHelpCommandGroupID("other")
	root.SetCompletionCommandGroupID("other")
}
