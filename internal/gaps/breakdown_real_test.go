package gaps

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestBreakdownTBPlugin: every step's seven numbers equal the TensorBoard
// plugin's Overview for the 2021 resnet50 num_workers=0 trace (the plugin
// printed integer us; that trace's times are whole us).
func TestBreakdownTBPlugin(t *testing.T) {
	shared := testenv.Shared(t)
	f, err := os.Open(filepath.Join(shared, "traces", "oracles", "tb_plugin", "resnet50_num_workers_0.result_check.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	sc.Scan()
	var o struct {
		Steps struct {
			Rows [][]any `json:"rows"`
		} `json:"steps"`
		Performance []struct {
			Value    int64 `json:"value"`
			Children []struct {
				Name  string `json:"name"`
				Value int64  `json:"value"`
			} `json:"children"`
		} `json:"performance"`
	}
	if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
		t.Fatal(err)
	}
	tr := load(t, filepath.Join(shared, "traces", "kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"))
	b := stepBreakdown(tr, tr.Links(), func(int64) bool { return true })
	if b == nil || len(b.Steps) != len(o.Steps.Rows) {
		t.Fatalf("steps: %+v, plugin %d", b, len(o.Steps.Rows))
	}
	for k, row := range o.Steps.Rows {
		var want []int64
		for _, v := range row[1:] {
			if x, ok := v.(float64); ok {
				want = append(want, int64(x))
			}
		}
		s := b.Steps[k]
		t.Logf("step %d: %v, plugin %v", s.Step, s.Ns, want)
		if n, _ := strconv.ParseInt(row[0].(string), 10, 64); n != s.Step {
			t.Errorf("row %d: step %d, plugin %d", k, s.Step, n)
		}
		for r, ns := range s.Ns {
			if ns%1000 != 0 || ns/1000 != want[r] {
				t.Errorf("step %d %s: %d ns, plugin %d us", s.Step, Role(r), ns, want[r])
			}
		}
	}
	// The plugin's Average Step Time: the totals over the steps, rounded.
	n := int64(len(b.Steps))
	avg := func(ns int64) int64 { return (ns/1000 + n/2) / n }
	if len(o.Performance) != 1 || avg(b.Total.TotalNs) != o.Performance[0].Value {
		t.Errorf("average step %d us, plugin %+v", avg(b.Total.TotalNs), o.Performance)
	}
	for r, c := range o.Performance[0].Children {
		if c.Name != Role(r).String() || avg(b.Total.Ns[r]) != c.Value {
			t.Errorf("average %s: %d us, plugin %s %d us", Role(r), avg(b.Total.Ns[r]), c.Name, c.Value)
		}
	}
}
