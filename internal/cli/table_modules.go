package cli

import (
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/render/moduleview"
	"github.com/tracetab/tracetab/internal/trace"
)

// moduleOptions are table's flags for --by module.
type moduleOptions struct {
	depth int
	key   modules.Key
}

func addModuleFlags(cmd *cobra.Command, o *tableOptions) {
	cmd.Flags().IntVar(&o.module.depth, "depth", 0, "with --by module: show at most this many levels of the module tree (1: the top-level modules); 0 shows all")
}

// checkModule checks the flags of --by module (and that --depth goes with
// it); --sort takes the view's own columns or the op table's metric names.
func (o *tableOptions) checkModule() error {
	if o.by != "module" {
		if o.module.depth != 0 {
			return usageErrorf("--depth limits the module tree: use it with --by module")
		}
		return nil
	}
	if o.module.depth < 0 {
		return usageErrorf("--depth %d: want 0 (all levels) or a number of levels from 1", o.module.depth)
	}
	for _, f := range []struct {
		set  bool
		flag string
	}{{o.steps != "", "--steps"}, {o.match != "", "--match"}, {o.exclude != "", "--exclude"}, {o.groupShape, "--group-by-shape"},
		{o.groupStack > 0, "--group-by-stack"}, {o.topLevel, "--top-level"}} {
		if f.set {
			return usageErrorf("%s does not apply to --by module (the module tree keeps every frame; --depth limits the levels shown)", f.flag)
		}
	}
	k, ok := modules.ParseKey(o.sort)
	if !ok {
		return usageErrorf("--sort %s: --by module sorts by one of %s", o.sort, strings.Join(modules.SortKeys(), ", "))
	}
	o.module.key = k
	return nil
}

func runModuleView(e *env, o *tableOptions, t *trace.Trace) error {
	tree := modules.Build(t)
	if len(tree.Nodes) == 0 {
		return noModuleFrames(o.path, "show")
	}
	return moduleview.Write(e.stdout, o.format, o.path, tree, moduleview.Options{Depth: o.module.depth, Sort: o.module.key,
		Limit: o.limit, Width: e.textWidth(o.compact.width)})
}

// noModuleFrames is the usage error of --by module on a trace without
// module frames (table: verb "show", diff "compare", check "check").
func noModuleFrames(path, verb string) error {
	return usageErrorf("%s has no nn.Module frames, so --by module has nothing to %s (record with with_modules=True or with_stack=True)", path, verb)
}

// needModuleFrames refuses --by module when one of traces (read from
// paths) has no module frames.
func needModuleFrames(traces []*trace.Trace, paths []string, verb string) error {
	for k, t := range traces {
		if !modules.HasFrames(t) {
			return noModuleFrames(paths[k], verb)
		}
	}
	return nil
}

// resolveModuleMatch resolves a rule's or budget's match on module rows
// (diff.ModuleMatch): a path or a unique module name selects that row; a
// name at several paths is a usage error listing them.
func resolveModuleMatch(rule string, re *regexp.Regexp, keys []string) (*regexp.Regexp, error) {
	m, err := diff.ModuleMatch(re, keys)
	if err != nil {
		return nil, usageErrorf("%s: %v", rule, err)
	}
	return m, nil
}
