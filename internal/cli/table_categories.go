package cli

import (
	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/render/categoryview"
	"github.com/tracetab/tracetab/internal/render/viewkit"
	"github.com/tracetab/tracetab/internal/trace"
)

// checkCategory checks the flags of --by category (and that --all goes
// with it): --steps selects steps; the row filters and groupings do not
// apply to its fixed rows.
func (o *tableOptions) checkCategory() error {
	if o.by != "category" {
		return nil
	}
	for _, f := range []struct {
		set  bool
		flag string
	}{{o.sort != "", "--sort"}, {o.match != "", "--match"}, {o.exclude != "", "--exclude"}, {o.groupShape, "--group-by-shape"},
		{o.groupStack > 0, "--group-by-stack"}, {o.topLevel, "--top-level"}} {
		if f.set {
			return usageErrorf("%s does not apply to --by category (its rows are the eight categories; --steps selects steps)", f.flag)
		}
	}
	return nil
}

func runCategoryView(e *env, o *tableOptions, t *trace.Trace) error {
	var sel *categories.Range
	if o.stepsEnabled {
		sel = &categories.Range{First: o.stepLo, Last: o.stepHi}
	}
	res := categories.Build(t, sel)
	if res.Kernels == 0 {
		if sel != nil {
			return usageErrorf("steps %s launched no device work (kernels, memcpys, memsets), so --by category has nothing to show", o.steps)
		}
		return usageErrorf("%s has no device work (kernels, memcpys, memsets), so --by category has nothing to show", o.path)
	}
	return categoryview.Write(e.stdout, o.format, o.path, res, categoryview.Options{Width: e.textWidth(o.compact.width),
		AllSteps: o.all, Unicode: e.glyphs() == viewkit.Blocks, Range: sel})
}
