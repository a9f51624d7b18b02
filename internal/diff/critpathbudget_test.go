package diff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

func critTrace(t *testing.T, events ...string) *trace.Trace {
	t.Helper()
	src := `{"traceEvents": [` + strings.Join(events, ",\n") + `]}`
	tr, err := parse.Read(strings.NewReader(src), "critpath", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestAddCriticalPath: three steps, each one CPU op (10, 30, 20 us) and
// nothing else, so each step's path is its op: path_time is the median
// of the three lengths (20 us) and cpu_pct is 100 in every step, the
// other shares 0.
func TestAddCriticalPath(t *testing.T) {
	var evs []string
	for k, d := range []int{10, 30, 20} {
		s := 100 * k
		evs = append(evs,
			fmt.Sprintf(`{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":90}`, k+1, s),
			fmt.Sprintf(`{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":%d,"dur":%d}`, s+5, d))
	}
	s := &Side{Totals: map[string][]float64{}, Missing: map[string]string{}}
	AddCriticalPath(critTrace(t, evs...), s, true)
	if len(s.Missing) != 0 {
		t.Fatalf("missing %v", s.Missing)
	}
	if got := s.Totals[CriticalPathPrefix+"path_time"]; len(got) != 1 || got[0] != 20_000 {
		t.Errorf("path_time %v, want [20000] ns", got)
	}
	for _, m := range CriticalPathMetrics[1:] {
		want := 0.0
		if m == "cpu_pct" {
			want = 100
		}
		got := s.Totals[CriticalPathPrefix+m]
		if len(got) != 3 {
			t.Errorf("%s: %d samples %v, want one per step", m, len(got), got)
			continue
		}
		for _, v := range got {
			if v != want {
				t.Errorf("%s: %v, want %v in every step", m, got, want)
				break
			}
		}
	}
}

// TestAddCriticalPathNone: a trace with no event that has a duration has
// no critical path; every critical-path metric is missing, with a reason.
func TestAddCriticalPathNone(t *testing.T) {
	s := &Side{Totals: map[string][]float64{}, Missing: map[string]string{}}
	AddCriticalPath(critTrace(t, `{"ph":"i","s":"t","cat":"cpu_instant_event","name":"mark","pid":1,"tid":1,"ts":5}`), s, false)
	if len(s.Totals) != 0 {
		t.Errorf("totals %v, want none", s.Totals)
	}
	for _, m := range CriticalPathMetrics {
		if !strings.Contains(s.Missing[CriticalPathPrefix+m], "no window") {
			t.Errorf("%s: missing %q", m, s.Missing[CriticalPathPrefix+m])
		}
	}
}
