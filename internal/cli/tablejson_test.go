package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestTableJSONContract: every JSON document of table (op, kernel and step
// views) follows the output contract: a versioned schema, integer *_ns,
// *_pct with at most 2 decimals, no *_us, calls rather than count, sort_by
// named, steps null without --steps and a number pair with it.
func TestTableJSONContract(t *testing.T) {
	shared := testenv.Shared(t)
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	b200 := filepath.Join(shared, "traces", "TraceLens__b200__eager_trace.json.gz")
	mem := filepath.Join(shared, "traces", "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
	for _, args := range [][]string{
		{"table", sample}, {"table", "--steps", "3-4", sample}, {"table", "--by", "kernel", sample}, {"table", "--by", "step", sample},
		{"table", "--by", "step", "--steps", "3", sample}, {"table", "--group-by-shape", "--sort", "self_cuda_time_total", b200},
		{"table", mem}, {"table", "--by", "kernel", b200},
	} {
		out, stderr, code := run(t, append(args, "--format", "json", "--limit", "-1")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		d := json.NewDecoder(strings.NewReader(out))
		d.UseNumber()
		var doc map[string]any
		if err := d.Decode(&doc); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if s, _ := doc["schema"].(string); !strings.HasPrefix(s, "tracetab.") || !strings.Contains(s, "/") {
			t.Errorf("%v: schema %q", args, s)
		}
		steps := "steps"
		if slices.Contains(args, "step") {
			steps = "steps_selected"
		}
		sel, present := doc[steps]
		if !present {
			t.Errorf("%v: no %q field", args, steps)
		} else if withSteps := slices.Contains(args, "--steps"); withSteps == (sel == nil) {
			t.Errorf("%v: %s = %v", args, steps, sel)
		}
		if !slices.Contains(args, "step") {
			if s, _ := doc["sort_by"].(string); s == "" {
				t.Errorf("%v: sort_by not named", args)
			}
		}
		nsFields := 0
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch x := v.(type) {
			case map[string]any:
				for k, c := range x {
					switch {
					case strings.HasSuffix(k, "_us") || k == "count":
						t.Errorf("%v: field %s.%s breaks the contract", args, path, k)
					case strings.HasSuffix(k, "_ns") || k == "calls" || strings.HasSuffix(k, "_bytes"):
						nsFields++
						if n, ok := c.(json.Number); c != nil && (!ok || strings.ContainsAny(string(n), ".eE")) {
							t.Errorf("%v: %s.%s = %v is not an integer", args, path, k, c)
						}
					case strings.HasSuffix(k, "_pct"):
						if n, ok := c.(json.Number); c != nil {
							_, frac, _ := strings.Cut(string(n), ".")
							if !ok || len(frac) > 2 || strings.ContainsAny(string(n), "eE") {
								t.Errorf("%v: %s.%s = %v: want at most 2 decimals", args, path, k, c)
							}
						}
					}
					walk(path+"."+k, c)
				}
			case []any:
				for _, c := range x {
					walk(path+"[]", c)
				}
			}
		}
		walk("", doc)
		if nsFields == 0 {
			t.Errorf("%v: no *_ns field seen", args)
		}
	}
}
