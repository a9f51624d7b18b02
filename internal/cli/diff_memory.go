package cli

import (
	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/trace"
)

// diffMemory compares the memory of the two sides when either has
// [memory] events or a rule asks for it, and applies the memory rules.
func diffMemory(d *diff.Diff, g *diff.Gate, sides [2][]*trace.Trace, rules []diff.Rule) {
	_, memRules := diff.SplitMemoryRules(rules)
	any := len(memRules) > 0
	for _, ts := range sides {
		for _, t := range ts {
			any = any || len(t.Mem) > 0
		}
	}
	if !any {
		return
	}
	var models [2][]*memory.Model
	for k, ts := range sides {
		for _, t := range ts {
			models[k] = append(models[k], memory.Build(t, memory.Options{}))
		}
	}
	d.Memory = diff.CompareMemory(models[0], models[1])
	v, na, checked := diff.EvaluateMemory(d.Memory, memRules)
	g.Violations = append(g.Violations, v...)
	g.NA = append(g.NA, na...)
	for r, n := range checked {
		g.Checked[r] += n
	}
}
