package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/trend"
	"github.com/tracetab/tracetab/internal/units"
)

// leftOutNamed is how many runs left out of a series are named on stderr
// one a line; the rest are counted by what differs (a job's 1,024 ranks
// given to trend would otherwise print 1,023 notes). --format json lists
// every one under left_out.
const leftOutNamed = 10

// noteLeftOut says which runs trend kept out of the series.
func noteLeftOut(w io.Writer, left []trend.LeftOut) {
	for i, l := range left {
		if i == leftOutNamed {
			break
		}
		note(w, fmt.Sprintf("left out of the series: %s: %s %s, the newest run's is %s", l.Path,
			diff.MismatchLabel(l.Field), l.Value, l.Series))
	}
	if len(left) <= leftOutNamed {
		return
	}
	rest := left[leftOutNamed:]
	by := map[string]int{}
	for _, l := range rest {
		by[diff.MismatchLabel(l.Field)]++
	}
	labels := make([]string, 0, len(by))
	for k := range by {
		labels = append(labels, k)
	}
	sort.Slice(labels, func(i, j int) bool {
		if by[labels[i]] != by[labels[j]] {
			return by[labels[i]] > by[labels[j]]
		}
		return labels[i] < labels[j]
	})
	parts := make([]string, len(labels))
	for i, k := range labels {
		parts[i] = fmt.Sprintf("%d by %s", by[k], k)
	}
	note(w, fmt.Sprintf("left out of the series: %s, not comparable with the newest run (%s); --format json lists every one under left_out",
		units.Plural(len(rest), "more run", "more runs"), strings.Join(parts, ", ")))
}
