package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/render/sequenceview"
	"github.com/tracetab/tracetab/internal/sequences"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// sequenceOptions are table's flags for --by sequence.
type sequenceOptions struct {
	minLen   int
	top      int
	op       string
	key      sequences.Key
	limitSet bool // --limit was given (--by sequence takes --top)
}

func addSequenceFlags(cmd *cobra.Command, o *tableOptions) {
	f := cmd.Flags()
	f.IntVar(&o.seq.minLen, "min-len", 3, "with --by sequence: the fewest device ops a sequence has (HTA's min_pattern_len)")
	f.IntVar(&o.seq.top, "top", 10, "with --by sequence: list at most this many sequences (0: all)")
	f.StringVar(&o.seq.op, "op", "", "with --by sequence: the roots are the ops, annotations and Python frames whose name contains this text, at the shallowest depth (HTA's operator_name); default: the top-level ops")
}

// checkSequence checks the flags of --by sequence, and that its own flags
// go with it; --sort takes device (the default) or count.
func (o *tableOptions) checkSequence(cmd *cobra.Command) error {
	own := []string{"min-len", "top", "op"}
	if o.by != "sequence" {
		for _, f := range own {
			if cmd.Flags().Changed(f) {
				return usageErrorf("--%s is a flag of the sequence view: use it with --by sequence", f)
			}
		}
		return nil
	}
	if o.seq.minLen < 1 {
		return usageErrorf("--min-len %d: want 1 or more device ops", o.seq.minLen)
	}
	if o.seq.top < 0 {
		return usageErrorf("--top %d: want a number of sequences, or 0 for all", o.seq.top)
	}
	for _, f := range []struct {
		set  bool
		flag string
	}{{o.seq.limitSet, "--limit"}, {o.steps != "", "--steps"}, {o.match != "", "--match"}, {o.exclude != "", "--exclude"}, {o.groupShape, "--group-by-shape"},
		{o.groupStack > 0, "--group-by-stack"}, {o.topLevel, "--top-level"}} {
		if f.set {
			hint := ""
			if f.flag == "--limit" {
				hint = ": --top limits the sequences listed"
			} else if f.flag == "--match" || f.flag == "--top-level" {
				hint = ": --op picks the roots by name"
			}
			return usageErrorf("%s does not apply to --by sequence%s", f.flag, hint)
		}
	}
	k, ok := sequences.ParseKey(o.sort)
	if !ok {
		return usageErrorf("--sort %s: --by sequence sorts by %s", o.sort, strings.Join(sequences.SortKeys(), " or "))
	}
	o.seq.key = k
	return nil
}

func runSequenceView(e *env, o *tableOptions, t *trace.Trace) error {
	r := sequences.Build(t, sequences.Options{MinLen: o.seq.minLen, Op: o.seq.op, Sort: o.seq.key})
	if err := refuseNoSequence(o, r); err != nil {
		return err
	}
	return sequenceview.Write(e.stdout, o.format, o.path, r, sequenceview.Options{Top: o.seq.top, Width: e.textWidth(o.compact.width)})
}

// refuseNoSequence is the exit-2 error that says why there is no
// sequence to show, or nil.
func refuseNoSequence(o *tableOptions, r *sequences.Result) error {
	switch {
	case len(r.Sequences) > 0:
		return nil
	case r.DeviceOps == 0:
		return usageErrorf("%s has no device work (kernels, memcpys, memsets), so --by sequence has nothing to show", o.path)
	case r.Options.Op != "" && r.Candidates == 0:
		return usageErrorf("--op %q: no op, annotation or Python frame of %s has it in its name", r.Options.Op, o.path)
	case r.Roots == 0:
		return usageErrorf("%s: no device op was launched inside a root: %s launched outside any, %s no launch call in the trace", o.path,
			units.Plural(r.NoRoot, "device op was", "device ops were"), units.Plural(r.Unlinked, "device op has", "device ops have"))
	}
	return usageErrorf("%s: no sequence of at least %s: each of the %s that launched device work launched fewer on every stream (a smaller --min-len lists them)",
		o.path, units.Plural(o.seq.minLen, "device op", "device ops"), units.Plural(r.Roots, "root occurrence", "root occurrences"))
}
