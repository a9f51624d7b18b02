package diff

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/units"
)

var inf = math.Inf(1)

// Rule is a threshold: METRIC>REL%, METRIC>ABS or METRIC>REL%&ABS, with an
// optional @REGEX restricting it to matching rows; total.METRIC applies to
// the totals. A change counts only when every given part is exceeded, so
// noise below the absolute part never fails a job.
type Rule struct {
	Text   string
	Metric string
	Total  bool
	Rel    float64 // fraction; NaN when absent
	Abs    float64 // us (or count); NaN when absent
	Match  *regexp.Regexp
}

// ParseRule reads a --fail-on rule.
func ParseRule(s string) (Rule, error) {
	r := Rule{Text: s, Rel: math.NaN(), Abs: math.NaN()}
	body := s
	if i := strings.Index(s, "@"); i >= 0 {
		re, err := regexp.Compile(s[i+1:])
		if err != nil {
			return r, fmt.Errorf("rule %q: bad regular expression: %v", s, err)
		}
		r.Match, body = re, s[:i]
	}
	metric, limits, ok := strings.Cut(body, ">")
	if !ok {
		return r, fmt.Errorf("rule %q: want METRIC>REL%%, METRIC>ABS or METRIC>REL%%&ABS, optionally @REGEX", s)
	}
	metric = strings.TrimSpace(metric)
	if m, ok := strings.CutPrefix(metric, "total."); ok {
		r.Total, metric = true, m
		if !slices.Contains(TotalMetrics, metric) {
			return r, fmt.Errorf("rule %q: unknown total metric %q (one of %s)", s, metric, strings.Join(TotalMetrics, ", "))
		}
		if r.Match != nil {
			return r, fmt.Errorf("rule %q: @REGEX does not apply to totals", s)
		}
	} else if !slices.Contains(RowMetrics, metric) {
		return r, fmt.Errorf("rule %q: unknown metric %q (one of %s, or total.%s)", s, metric, strings.Join(RowMetrics, ", "), strings.Join(TotalMetrics, ", total."))
	}
	r.Metric = metric
	for _, part := range strings.Split(limits, "&") {
		part = strings.TrimSpace(part)
		if p, ok := strings.CutSuffix(part, "%"); ok {
			v, err := strconv.ParseFloat(p, 64)
			if err != nil || v < 0 || !math.IsNaN(r.Rel) {
				return r, fmt.Errorf("rule %q: bad relative part %q", s, part)
			}
			r.Rel = v / 100
			continue
		}
		v, err := ParseAmount(part, IsCount(metric))
		if err != nil || !math.IsNaN(r.Abs) {
			return r, fmt.Errorf("rule %q: bad absolute part %q: %v", s, part, err)
		}
		r.Abs = v
	}
	if math.IsNaN(r.Rel) && math.IsNaN(r.Abs) {
		return r, fmt.Errorf("rule %q: no threshold", s)
	}
	return r, nil
}

// ParseAmount reads a time with its unit ("50us", "1.5ms", "2s") or, for count
// metrics, a plain number.
func ParseAmount(s string, count bool) (float64, error) {
	s = strings.TrimSpace(s)
	if count {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		return v, nil
	}
	ns, err := units.ParseDur(s) // a unit is always required (docs/output.md)
	if err != nil {
		return 0, err
	}
	return float64(ns) / 1e3, nil
}

// exceeded reports whether a change breaks the rule.
func (r Rule) exceeded(c Change) bool {
	if !math.IsNaN(r.Rel) && !(c.Rel > r.Rel) {
		return false
	}
	if !math.IsNaN(r.Abs) && !(c.Abs > r.Abs) {
		return false
	}
	return true
}

// Violation is one rule broken by one row (or a total).
type Violation struct {
	Rule   string
	Row    string // "" for a total
	Metric string
	Change Change
	Msg    string
}

// Evaluate applies the rules to a diff; every rule's checked rows are
// counted so a report can show passing rules too.
func Evaluate(d *Diff, rules []Rule) (viol []Violation, checked map[string]int) {
	checked = map[string]int{}
	for _, r := range rules {
		if r.Total {
			checked[r.Text]++
			if c := d.Totals[r.Metric]; r.exceeded(c) {
				viol = append(viol, Violation{Rule: r.Text, Metric: "total." + r.Metric, Change: c,
					Msg: fmt.Sprintf("total.%s grew from %s to %s (%s)", r.Metric, fmtVal(r.Metric, c.Base), fmtVal(r.Metric, c.New), fmtRel(c.Rel))})
			}
			continue
		}
		for _, row := range d.Rows {
			if r.Match != nil && !r.Match.MatchString(row.Key) {
				continue
			}
			checked[r.Text]++
			if c := row.Metrics[r.Metric]; r.exceeded(c) {
				viol = append(viol, Violation{Rule: r.Text, Row: row.Key, Metric: r.Metric, Change: c,
					Msg: fmt.Sprintf("%s: %s grew from %s to %s (%s)", row.Key, r.Metric, fmtVal(r.Metric, c.Base), fmtVal(r.Metric, c.New), fmtRel(c.Rel))})
			}
		}
	}
	return viol, checked
}

func fmtVal(metric string, v float64) string { return FormatValue(metric, v) }

func fmtRel(r float64) string {
	if math.IsInf(r, 1) {
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", r*100)
}
