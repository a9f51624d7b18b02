package duckdb_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// categoryQuery is docs/schema.md's DuckDB query of the categories
// dataset (device time per category per trace), as written.
func categoryQuery(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join(testenv.Root(), "docs", "schema.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## categories\n.*?```sql\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("docs/schema.md has no sql block under ## categories")
	}
	return string(m[1])
}

type categoryJSON struct {
	DeviceNs   int64 `json:"device_ns"`
	Categories []struct {
		Category string   `json:"category"`
		DeviceNs int64    `json:"device_ns"`
		Pct      *float64 `json:"pct"`
		Kernels  int64    `json:"kernels"`
	} `json:"categories"`
}

// TestCategoryQuery: the query's rows of each exported trace are the
// categories with device work that table --by category --format json
// gives over the trace, with their device time, calls and share (the
// share computed in SQL from the rows, the view's rounded to 2 places);
// a trace the view refuses (no device work) has no row.
func TestCategoryQuery(t *testing.T) {
	t.Parallel()
	dir, traces, ids := exported(t)
	got := fleetQuery(t, dir, categoryQuery(t))
	byPath := map[string][][]string{}
	for _, r := range got {
		byPath[r[0]] = append(byPath[r[0]], r[1:])
	}
	withWork := 0
	for _, tr := range traces {
		if ids[tr] == "" {
			t.Fatalf("%s was not exported", tr)
		}
		out, stderr, code := run(t, "table", "--by", "category", "--format", "json", tr)
		rows := byPath[tr]
		if code == 2 {
			if len(rows) != 0 {
				t.Errorf("%s: table --by category refuses it (%s), the query gives %d rows", filepath.Base(tr), stderr, len(rows))
			}
			continue
		}
		var doc categoryJSON
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: %v", tr, err)
		}
		want := map[string][]string{}
		for _, c := range doc.Categories {
			if c.Kernels > 0 {
				want[c.Category] = []string{itoa(c.DeviceNs), itoa(c.Kernels), strconv.FormatFloat(*c.Pct, 'f', -1, 64)}
			}
		}
		if len(rows) != len(want) {
			t.Errorf("%s: %d categories from the query, %d with device work in the view", filepath.Base(tr), len(rows), len(want))
		}
		var prev int64 = -1
		for _, r := range rows {
			w, ok := want[r[0]]
			if !ok || r[1] != w[0] || r[2] != w[1] {
				t.Errorf("%s %s: query %v, view %v", filepath.Base(tr), r[0], r[1:], w)
				continue
			}
			p, _ := strconv.ParseFloat(r[3], 64)
			v, _ := strconv.ParseFloat(w[2], 64)
			if d := p - v; d > 0.0051 || d < -0.0051 {
				t.Errorf("%s %s: share %s%% in SQL, %s%% in the view", filepath.Base(tr), r[0], r[3], w[2])
			}
			n, _ := strconv.ParseInt(r[1], 10, 64)
			if prev >= 0 && n > prev {
				t.Errorf("%s: not by device time: %v", filepath.Base(tr), rows)
			}
			prev = n
		}
		withWork++
	}
	if withWork < 10 {
		t.Errorf("only %d traces with device work checked", withWork)
	}
}
