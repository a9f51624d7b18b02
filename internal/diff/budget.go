package diff

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tracetab/tracetab/internal/metricnames"
	"github.com/tracetab/tracetab/internal/stats"
)

// Budget is an absolute limit on one trace: a total (total.METRIC) or a
// row metric, for every row matching Match (all rows when nil).
type Budget struct {
	Text    string
	Metric  string
	Total   bool
	Match   *regexp.Regexp
	Max     float64 // ns, count, bytes or percent
	MaxText string  // as written
	Line    int     // in the budget file, 0 for flags
	// Min: Max is a floor (a budget file's "min:", check --min): the
	// budget fails when a value is below it (pct_peak: an op's efficiency).
	Min bool
}

// LimitText is the limit as written, with its unit where the writing may
// leave it out: "40" for a percent metric reads "40%", as its value does.
func (b Budget) LimitText() string {
	if UnitOf(b.Metric) == Pct && !strings.HasSuffix(b.MaxText, "%") {
		return b.MaxText + "%"
	}
	return b.MaxText
}

// BudgetError is a budget that cannot be used, with its line.
type BudgetError struct {
	File string
	Line int
	Msg  string
}

func (e *BudgetError) Error() string {
	if e.File == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// NewBudget checks a metric name and builds a budget.
func NewBudget(metric, match, max string) (Budget, error) {
	b := Budget{Text: metric + "<=" + max, MaxText: strings.TrimSpace(max)}
	if match != "" {
		b.Text += "@" + match
	}
	metric = strings.TrimSpace(metric)
	if IsCriticalPath(metric) {
		return criticalPathBudget(b, metric, match, max)
	}
	if m, ok := strings.CutPrefix(metric, "total."); ok {
		m = metricnames.Short(m)
		if !slices.Contains(TotalMetrics, m) {
			return b, fmt.Errorf("unknown total metric %q (one of total.%s%s)", metric, strings.Join(TotalMetrics, ", total."), AliasHint)
		}
		if match != "" {
			return b, fmt.Errorf("match does not apply to %s", metric)
		}
		b.Total, b.Metric = true, m
	} else {
		metric = metricnames.Short(metric)
		if !slices.Contains(RowMetrics, metric) && !IsMemoryMetric(metric) && !IsModelMetric(metric) {
			return b, fmt.Errorf("unknown metric %q (one of %s, %s, or total.%s, or per device %s%s)", metric, strings.Join(RowMetrics, ", "), strings.Join(ModelMetrics, ", "), strings.Join(TotalMetrics, ", total."), strings.Join(MemoryMetrics, ", "), AliasHint)
		}
		b.Metric = metric
	}
	if match != "" {
		re, err := regexp.Compile(match)
		if err != nil {
			return b, fmt.Errorf("bad match %q: %v", match, err)
		}
		b.Match = re
	}
	v, err := ParseAmount(max, b.Metric)
	if err != nil || math.IsNaN(v) {
		return b, fmt.Errorf("bad max: %v", err)
	}
	b.Max = v
	return b, nil
}

// NewMinBudget builds a floor: the value must be at least min.
func NewMinBudget(metric, match, min string) (Budget, error) {
	if !IsModelMetric(metricnames.Short(metric)) {
		return Budget{}, fmt.Errorf("min (a floor) applies to %s; %s takes max", strings.Join(ModelMetrics, ", "), strings.TrimSpace(metric))
	}
	b, err := NewBudget(metric, match, min)
	b.Min = true
	b.Text = strings.Replace(b.Text, "<=", ">=", 1)
	if err != nil {
		err = fmt.Errorf("%s", strings.Replace(err.Error(), "bad max", "bad min", 1))
	}
	return b, err
}

// ParseBudgetFile reads budgets from YAML or JSON:
//
//	budgets:
//	  - metric: total.gpu_idle_pct
//	    max: 40
//	  - metric: self_cuda_per_call
//	    match: ^aten::mm$
//	    max: 50us
func ParseBudgetFile(name string, data []byte) ([]Budget, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line := 0
		msg := err.Error()
		if i := strings.Index(msg, "line "); i >= 0 {
			fmt.Sscanf(msg[i:], "line %d", &line)
		}
		return nil, &BudgetError{name, line, "not YAML or JSON: " + msg}
	}
	if len(doc.Content) == 0 {
		return nil, &BudgetError{name, 1, "empty budget file"}
	}
	root := doc.Content[0]
	list := root
	if root.Kind == yaml.MappingNode {
		list = nil
		for k := 0; k+1 < len(root.Content); k += 2 {
			if root.Content[k].Value == "budgets" {
				list = root.Content[k+1]
			} else {
				return nil, &BudgetError{name, root.Content[k].Line, fmt.Sprintf("unknown key %q (want budgets)", root.Content[k].Value)}
			}
		}
	}
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, &BudgetError{name, root.Line, "want a list under budgets:"}
	}
	var out []Budget
	for _, item := range list.Content {
		if item.Kind != yaml.MappingNode {
			return nil, &BudgetError{name, item.Line, "each budget is a mapping with metric, max and optionally match"}
		}
		var metric, match, max string
		hasMax, hasMin := false, false
		for k := 0; k+1 < len(item.Content); k += 2 {
			key, val := item.Content[k], item.Content[k+1]
			if val.Kind != yaml.ScalarNode {
				return nil, &BudgetError{name, val.Line, fmt.Sprintf("%s: want a single value", key.Value)}
			}
			switch key.Value {
			case "metric":
				metric = val.Value
			case "match":
				match = val.Value
			case "max":
				max, hasMax = val.Value, true
			case "min":
				max, hasMin = val.Value, true
			default:
				return nil, &BudgetError{name, key.Line, fmt.Sprintf("unknown key %q (want metric, match, max or min)", key.Value)}
			}
		}
		if metric == "" || hasMax == hasMin {
			return nil, &BudgetError{name, item.Line, "a budget needs metric and one of max or min"}
		}
		newBudget := NewBudget
		if hasMin {
			newBudget = NewMinBudget
		}
		b, err := newBudget(metric, match, max)
		if err != nil {
			return nil, &BudgetError{name, item.Line, err.Error()}
		}
		b.Line = item.Line
		out = append(out, b)
	}
	if len(out) == 0 {
		return nil, &BudgetError{name, list.Line, "no budgets"}
	}
	return out, nil
}

// Outcome is one budget checked against one trace.
type Outcome struct {
	Budget  Budget
	Value   float64 // the largest median among matching rows (the smallest for a floor), or the total
	Row     string  // the row holding Value
	Rows    int     // rows the budget applied to
	Missing string  // why nothing was measured (n/a), "" when measured
	Failed  []Violation
}

// Check holds one side to its budgets. Row values and per-step totals are
// the medians over the steps (or the whole trace without steps or with
// --no-normalize); a budget whose metric the trace lacks or whose match
// selects no row is n/a.
func Check(s *Side, budgets []Budget) []Outcome {
	var out []Outcome
	for _, b := range budgets {
		o := Outcome{Budget: b}
		key := b.Key()
		if m, ok := s.Missing[key]; ok {
			o.Missing = key + ": " + m
			out = append(out, o)
			continue
		}
		if b.Total {
			xs := s.Totals[b.Metric]
			if len(xs) == 0 {
				o.Missing = key + ": not measured"
				out = append(out, o)
				continue
			}
			o.Value, o.Rows = stats.Summarize(xs).Median, 1
			if o.Value > b.Max {
				o.Failed = append(o.Failed, Violation{Rule: b.Text, Metric: key,
					Msg: fmt.Sprintf("%s is %s, over the budget of %s", key, FormatValue(b.Metric, o.Value), b.LimitText())})
			}
			out = append(out, o)
			continue
		}
		rows := s.Rows
		if s.Outside != nil {
			rows = append(slices.Clone(rows), *s.Outside)
		}
		o.Value = math.Inf(-1)
		if b.Min {
			o.Value = math.Inf(1)
		}
		for _, r := range rows {
			if b.Match != nil && !b.Match.MatchString(r.Key) {
				continue
			}
			xs := r.Samples[b.Metric]
			if len(xs) == 0 {
				continue
			}
			o.Rows++
			v := stats.Summarize(xs).Median
			if b.Min {
				if v < o.Value {
					o.Value, o.Row = v, r.Key
				}
				if v < b.Max {
					o.Failed = append(o.Failed, Violation{Rule: b.Text, Row: r.Key, Metric: b.Metric,
						Msg: fmt.Sprintf("%s: %s is %s, under the floor of %s", r.Key, b.Metric, FormatValue(b.Metric, v), b.LimitText())})
				}
				continue
			}
			if v > o.Value {
				o.Value, o.Row = v, r.Key
			}
			if v > b.Max {
				o.Failed = append(o.Failed, Violation{Rule: b.Text, Row: r.Key, Metric: b.Metric,
					Msg: fmt.Sprintf("%s: %s is %s, over the budget of %s", r.Key, b.Metric, FormatValue(b.Metric, v), b.LimitText())})
			}
		}
		if o.Rows == 0 {
			o.Value = 0
			o.Missing = noRowReason(b.Match)
		}
		out = append(out, o)
	}
	return out
}
