package diff

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/metricnames"
	"github.com/tracetab/tracetab/internal/units"
)

// Rule is a threshold: METRIC>REL%, METRIC>ABS or METRIC>REL%&ABS, with an
// optional @REGEX restricting it to matching rows; total.METRIC applies to
// the totals. A change counts only when every given part is exceeded and
// it is not noise (a Mann-Whitney test over the steps that does not reach
// alpha).
type Rule struct {
	Text   string
	Metric string
	Total  bool
	Rel    float64 // fraction; NaN when absent
	Abs    float64 // ns, count, bytes or percentage points; NaN when absent
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
	metric = metricnames.Short(metric)
	if m, ok := strings.CutPrefix(metric, "total."); ok {
		r.Total, metric = true, metricnames.Short(m)
		if !slices.Contains(TotalMetrics, metric) {
			return r, fmt.Errorf("rule %q: unknown total metric %q (one of %s%s)", s, metric, strings.Join(TotalMetrics, ", "), AliasHint)
		}
		if r.Match != nil {
			return r, fmt.Errorf("rule %q: @REGEX does not apply to totals", s)
		}
	} else if !slices.Contains(RowMetrics, metric) && !IsMemoryMetric(metric) {
		return r, fmt.Errorf("rule %q: unknown metric %q (one of %s, or total.%s, or per device %s%s)", s, metric, strings.Join(RowMetrics, ", "), strings.Join(TotalMetrics, ", total."), strings.Join(MemoryMetrics, ", "), AliasHint)
	}
	r.Metric = metric
	for _, part := range strings.Split(limits, "&") {
		part = strings.TrimSpace(part)
		if p, ok := strings.CutSuffix(part, "%"); ok && UnitOf(metric) != Pct {
			v, err := strconv.ParseFloat(p, 64)
			if err != nil || math.IsNaN(v) || v < 0 || math.IsInf(v, 0) || !math.IsNaN(r.Rel) {
				return r, fmt.Errorf("rule %q: bad relative part %q", s, part)
			}
			r.Rel = v / 100
			continue
		}
		v, err := ParseAmount(part, metric)
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

// ParseAmount reads an amount of a metric: a time with its unit ("50us",
// "1.5ms", "2s") in ns, a size ("512MB", "1GiB", plain bytes) in
// bytes, a count, or a percentage (gpu_idle_pct: "40" or "40%").
func ParseAmount(s, metric string) (float64, error) {
	s = strings.TrimSpace(s)
	num := func(x string) (float64, error) {
		v, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		return v, nil
	}
	switch UnitOf(metric) {
	case Count:
		return num(s)
	case Pct:
		return num(strings.TrimSuffix(s, "%"))
	case Bytes:
		u := strings.ToUpper(s)
		for _, m := range []struct {
			suf string
			f   float64
		}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}} {
			if x, ok := strings.CutSuffix(u, m.suf); ok {
				v, err := num(strings.TrimSpace(x))
				if err != nil {
					return 0, fmt.Errorf("%q is not a size such as 512MB or 1GiB", s)
				}
				return v * m.f, nil
			}
		}
		return num(s)
	}
	ns, err := units.ParseDur(s) // a unit is always required (docs/output.md)
	if err != nil {
		return 0, err
	}
	return float64(ns), nil
}

// exceeded reports whether a change is past every part of the rule.
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

// NA is a rule or budget that measured nothing: its metric is not in the
// trace or its pattern matches no row. It fails the gate unless allowed.
type NA struct {
	Rule   string
	Reason string
}

// Evaluate applies the rules to a diff; checked counts the rows each rule
// looked at.
func Evaluate(d *Diff, rules []Rule) (viol []Violation, na []NA, checked map[string]int) {
	checked = map[string]int{}
	for _, r := range rules {
		if IsMemoryMetric(r.Metric) {
			continue // EvaluateMemory (memory.go)
		}
		if r.Total {
			c := d.Totals[r.Metric]
			if c.Verdict == Unmeasured {
				na = append(na, NA{r.Text, "total." + r.Metric + ": " + c.Missing})
				continue
			}
			checked[r.Text]++
			if c.Counts() && r.exceeded(c) {
				viol = append(viol, Violation{Rule: r.Text, Metric: "total." + r.Metric, Change: c,
					Msg: "total." + r.Metric + " " + ChangeText(c)})
			}
			continue
		}
		if m := missingOf(d.Base, d.New, r.Metric); m != "" {
			na = append(na, NA{r.Text, r.Metric + ": " + m})
			continue
		}
		rows := d.Rows
		if d.Outside != nil {
			rows = append(slices.Clone(rows), *d.Outside)
		}
		for _, row := range rows {
			if r.Match != nil && !r.Match.MatchString(row.Key) {
				continue
			}
			checked[r.Text]++
			if c := row.Metrics[r.Metric]; c.Counts() && r.exceeded(c) {
				viol = append(viol, Violation{Rule: r.Text, Row: row.Key, Metric: r.Metric, Change: c,
					Msg: row.Key + ": " + r.Metric + " " + ChangeText(c)})
			}
		}
		if checked[r.Text] == 0 {
			na = append(na, NA{r.Text, noRowReason(r.Match)})
		}
	}
	return viol, na, checked
}

func noRowReason(re *regexp.Regexp) string {
	if re == nil {
		return "the traces have no rows"
	}
	return "no row matches " + re.String() + " (a typo would disable the rule)"
}

// ChangeText says how a change went: "grew from 1.000ms to 1.300ms
// (+30.0%, p=0.000, n=8+8)".
func ChangeText(c Change) string {
	verb := "grew"
	if c.Abs < 0 {
		verb = "fell"
	} else if c.Abs == 0 {
		verb = "stayed"
	}
	s := fmt.Sprintf("%s from %s to %s (%s", verb, FormatValue(c.Metric, median0(c.Base)), FormatValue(c.Metric, median0(c.New)), RelText(c))
	if !math.IsNaN(c.P) {
		s += ", p=" + PText(c.P)
	} else if c.Verdict == TooFew {
		s += ", too few samples to test"
	}
	return s + fmt.Sprintf(", n=%d+%d)", c.Base.N, c.New.N)
}

// PText formats a p-value with three significant decimals.
func PText(p float64) string {
	if p < 0.001 {
		return strconv.FormatFloat(p, 'e', 1, 64)
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

// RelText is the relative change ("+30.0%", "new", "+3.30 pp" for shares).
func RelText(c Change) string {
	if UnitOf(c.Metric) == Pct {
		return signed(units.Pct(c.Abs)) + " pp"
	}
	switch {
	case math.IsInf(c.Rel, 1):
		return "new"
	case math.IsNaN(c.Rel):
		return "0.0%"
	}
	return signed(strconv.FormatFloat(c.Rel*100, 'f', 1, 64)) + "%"
}

func signed(s string) string {
	if s == "-0.0" || s == "-0.00" {
		s = s[1:]
	}
	if !strings.HasPrefix(s, "-") {
		return "+" + s
	}
	return s
}

// FormatValue formats a metric value for people.
func FormatValue(metric string, v float64) string {
	switch UnitOf(metric) {
	case Pct:
		return units.Pct(v) + "%"
	case Count:
		if v == math.Trunc(v) {
			return strconv.FormatFloat(v, 'f', 0, 64)
		}
		return strconv.FormatFloat(v, 'f', 1, 64)
	case Bytes:
		return units.Bytes(int64(math.Round(v)))
	}
	return units.Dur(int64(math.Round(v)))
}

// FormatDelta formats an absolute change with its sign.
func FormatDelta(metric string, v float64) string {
	if UnitOf(metric) == Pct {
		return signed(units.Pct(v)) + " pp"
	}
	s := FormatValue(metric, math.Abs(v))
	if math.Round(v) < 0 || (UnitOf(metric) == Count && v < 0) {
		return "-" + s
	}
	return "+" + s
}
