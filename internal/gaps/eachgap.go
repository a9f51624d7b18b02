package gaps

import "github.com/tracetab/tracetab/internal/trace"

// lazyGaps are the listed gaps of a report made with Options.LazyGaps:
// the compact records, sorted, resolved into Gaps one at a time by
// EachGap instead of all at once into Report.Gaps.
type lazyGaps struct {
	t     *trace.Trace
	steps []trace.Step
	recs  []gapRec
}

// listGaps fills r's list of gaps from the listed records (sorted), or
// keeps them for EachGap with Options.LazyGaps.
func listGaps(r *Report, t *trace.Trace, o Options, recs []gapRec, steps []trace.Step) {
	if o.LazyGaps {
		r.lazy = &lazyGaps{t: t, steps: steps, recs: recs}
		return
	}
	r.Gaps = make([]Gap, 0, len(recs))
	for k := range recs {
		r.Gaps = append(r.Gaps, recs[k].gap(t, steps))
	}
}

// NumGaps is how many gaps the report lists (in Gaps or, with
// Options.LazyGaps, through EachGap).
func (r *Report) NumGaps() int {
	if r.lazy != nil {
		return len(r.lazy.recs)
	}
	return len(r.Gaps)
}

// EachGap calls f with every listed gap in the list's order (the longest
// first), stopping at f's first error. With Options.LazyGaps each Gap is
// made for the call only (f must not keep the pointer), so a report that
// lists every gap of a large trace does not hold them all resolved.
func (r *Report) EachGap(f func(*Gap) error) error {
	if r.lazy == nil {
		for k := range r.Gaps {
			if err := f(&r.Gaps[k]); err != nil {
				return err
			}
		}
		return nil
	}
	var g Gap
	for k := range r.lazy.recs {
		g = r.lazy.recs[k].gap(r.lazy.t, r.lazy.steps)
		if err := f(&g); err != nil {
			return err
		}
	}
	return nil
}
