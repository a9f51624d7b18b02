package trend

import (
	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/trace"
)

// Summarize reduces t (read from path, as given) to a Run. The trace must
// have been read with its [memory] records for the peak.
func Summarize(t *trace.Trace, path string) (*Run, error) { return summarize(t, path, nil) }

// Reuse holds analyses of the trace that a caller of SummarizeReusing
// has already made (export writes them as datasets of their own before
// the trend row); a nil field is computed.
type Reuse struct {
	Diff  diff.Reuse     // the whole trace's op table and gaps report
	Ranks *ranks.Summary // ranks.Summarize(t, 0)
}

// SummarizeReusing is Summarize with what u holds taken as computed.
func SummarizeReusing(t *trace.Trace, path string, u *Reuse) (*Run, error) {
	return summarize(t, path, u)
}

func (u *Reuse) diff() *diff.Reuse {
	if u == nil {
		return nil
	}
	return &u.Diff
}

func (u *Reuse) ranks(t *trace.Trace) *ranks.Summary {
	if u != nil && u.Ranks != nil {
		return u.Ranks
	}
	return ranks.Summarize(t, 0)
}
