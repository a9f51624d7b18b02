package diff

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
)

// FormChanged is the status of two rows paired as one that changed form.
const FormChanged = "changed form"

// FormChange is a CPU row gone from BASE paired with one new in NEW that
// took most of its time: the same code under another name (a DataLoader
// iterator of num_workers=0 becoming the multi-process iterator, a renamed
// annotation). Times are the medians of cpu_total (inclusive CPU time) per
// sample.
type FormChange struct {
	Base, New     string // the row keys
	BaseNs, NewNs float64
}

// formMetric is the time a changed form carries over.
const formMetric = "cpu_total"

// pairForms pairs removed and added CPU rows: a pair has the same median
// count, a new time from half to twice the old one, and names that share
// at least half of their words (letters and digits, case kept). The
// largest removed rows pick first, each the candidate with the most shared
// words, then the nearest time.
func (d *Diff) pairForms() {
	var gone, came []int
	for i, r := range d.Rows {
		switch {
		case r.Device:
		case r.Status == "removed":
			gone = append(gone, i)
		case r.Status == "added":
			came = append(came, i)
		}
	}
	if len(gone) == 0 || len(came) == 0 {
		return
	}
	slices.SortStableFunc(gone, func(a, b int) int {
		return cmp.Compare(d.Rows[b].Metrics[formMetric].Base.Median, d.Rows[a].Metrics[formMetric].Base.Median)
	})
	used := map[int]bool{}
	for _, gi := range gone {
		g := &d.Rows[gi]
		gt, gc := g.Metrics[formMetric].Base.Median, g.Metrics["count"].Base.Median
		if !(gt > 0) {
			continue
		}
		best, bestJ, bestR := -1, 0.0, 0.0
		for _, ci := range came {
			if used[ci] {
				continue
			}
			c := &d.Rows[ci]
			ct, cc := c.Metrics[formMetric].New.Median, c.Metrics["count"].New.Median
			ratio := ct / gt
			if cc != gc || ratio < 0.5 || ratio > 2 {
				continue
			}
			j := jaccard(g.Key, c.Key)
			if j < 0.5 {
				continue
			}
			if best < 0 || j > bestJ || (j == bestJ && math.Abs(math.Log(ratio)) < math.Abs(math.Log(bestR))) {
				best, bestJ, bestR = ci, j, ratio
			}
		}
		if best < 0 {
			continue
		}
		used[best] = true
		c := &d.Rows[best]
		g.Status, c.Status = FormChanged, FormChanged
		g.Pair, c.Pair = c.Key, g.Key
		d.Forms = append(d.Forms, FormChange{Base: g.Key, New: c.Key, BaseNs: gt, NewNs: c.Metrics[formMetric].New.Median})
	}
}

// words are the runs of letters and digits of a name.
func words(s string) map[string]bool {
	w := map[string]bool{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		w[f] = true
	}
	return w
}

// jaccard is the share of the words of two names that both have.
func jaccard(a, b string) float64 {
	wa, wb := words(a), words(b)
	both := 0
	for w := range wa {
		if wb[w] {
			both++
		}
	}
	all := len(wa) + len(wb) - both
	if all == 0 {
		return 0
	}
	return float64(both) / float64(all)
}
