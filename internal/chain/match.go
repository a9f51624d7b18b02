package chain

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/editdist"
	"github.com/tracetab/tracetab/internal/trace"
)

// Matcher decides which event names a pattern selects. By default a
// pattern is an exact name as `table` prints it: the whole name,
// parentheses and all; "ProfilerStep*" (torch's row of every step) takes
// every ProfilerStep#N, and a name cut with "..." (head...tail) takes the
// names with that head and tail. With Regex it is a Go regular expression,
// unanchored.
type Matcher struct {
	Pattern string
	Regex   bool
	re      *regexp.Regexp
}

// NewMatcher compiles the pattern; the error is the regexp's.
func NewMatcher(pattern string, regex bool) (*Matcher, error) {
	m := &Matcher{Pattern: pattern, Regex: regex}
	if regex {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, err
		}
		m.re = re
	}
	return m, nil
}

// Match reports whether name is selected.
func (m *Matcher) Match(name string) bool {
	if m.re != nil {
		return m.re.MatchString(name)
	}
	if name == m.Pattern {
		return true
	}
	if m.Pattern == "ProfilerStep*" {
		_, ok := trace.StepNumber(name)
		return ok
	}
	if head, tail, ok := strings.Cut(m.Pattern, "..."); ok && head != "" {
		return len(name) >= len(head)+len(tail) && strings.HasPrefix(name, head) && strings.HasSuffix(name, tail)
	}
	return false
}

// chainable reports whether events of kind k can start a chain.
func chainable(k trace.Kind) bool { return k.IsCPU() || k.IsDeviceWork() }

// matchTable evaluates m once per distinct event name: the result is
// indexed by StrID.
func matchTable(t *trace.Trace, m *Matcher) []bool {
	seen := make([]uint8, len(t.Strings)) // 0 unseen, 1 no, 2 yes
	out := make([]bool, len(t.Strings))
	for _, c := range t.Events.Chunks() {
		for k := range c {
			e := &c[k]
			if !chainable(e.Kind) || seen[e.Name] != 0 {
				continue
			}
			seen[e.Name] = 1
			if m.Match(t.Strings[e.Name]) {
				seen[e.Name] = 2
				out[e.Name] = true
			}
		}
	}
	return out
}

// Closest returns up to n distinct event names nearest to pattern: names
// that contain it (ignoring case) first, then by edit distance.
func Closest(t *trace.Trace, pattern string, n int) []string {
	seen := make([]bool, len(t.Strings))
	type cand struct {
		name  string
		score int
	}
	var cs []cand
	lp := strings.ToLower(pattern)
	limit := max(3, len(pattern)/3)
	for _, c := range t.Events.Chunks() {
		for k := range c {
			e := &c[k]
			if !chainable(e.Kind) || seen[e.Name] {
				continue
			}
			seen[e.Name] = true
			name := t.Strings[e.Name]
			ln := strings.ToLower(name)
			switch {
			case strings.Contains(ln, lp) || (len(ln) >= 3 && strings.Contains(lp, ln)):
				cs = append(cs, cand{name, abs(len(name) - len(pattern))})
			default:
				if d := editdist.Within(lp, ln, limit); d <= limit {
					cs = append(cs, cand{name, 1_000_000 + d})
				}
			}
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if c := cmp.Compare(a.score, b.score); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, c.name)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
