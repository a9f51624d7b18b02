package gen

import (
	"encoding/json"
	"sort"
	"testing"
)

// TestExportShapeDepth checks the third benchmark shape from its raw
// events: every cpu_op tree (ops and runtime calls nested by interval on
// one thread) is 3 to 6 deep with no crossing intervals, every cpu_op
// with Input Dims carries the other record_shapes args, and the trace
// ends with Record Window End whose pid and tid are empty strings.
func TestExportShapeDepth(t *testing.T) {
	b, _ := writeKineto(t, Config{Steps: 6, Layers: 3, Kineto: ExportStyle()})
	var doc struct{ TraceEvents []kEv }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	type iv struct {
		ts, end int64
		cpu     bool
	}
	lanes := map[[2]any][]iv{}
	windowEnd := false
	for _, e := range doc.TraceEvents {
		if e.Name == "Record Window End" {
			windowEnd = e.Pid == "" && e.Tid == ""
		}
		if e.Ph != "X" || e.Cat != "cpu_op" && e.Cat != "cuda_runtime" {
			continue
		}
		if e.Cat == "cpu_op" && e.Args["Input Dims"] != nil {
			for _, k := range []string{"Input type", "Input Strides", "Concrete Inputs"} {
				if e.Args[k] == nil {
					t.Errorf("%s has Input Dims but no %s", e.Name, k)
				}
			}
		}
		ts := usNs(t, e.Ts)
		lanes[[2]any{e.Pid, e.Tid}] = append(lanes[[2]any{e.Pid, e.Tid}], iv{ts, ts + usNs(t, e.Dur), e.Cat == "cpu_op"})
	}
	if !windowEnd {
		t.Error("no Record Window End with empty pid and tid")
	}
	roots := 0
	for _, evs := range lanes {
		sort.Slice(evs, func(i, j int) bool {
			return evs[i].ts < evs[j].ts || evs[i].ts == evs[j].ts && evs[i].end > evs[j].end
		})
		type open struct {
			end        int64
			depth, cpu int
		}
		var stack []open
		var depths []int // deepest cpu_op of each root
		for _, e := range evs {
			for len(stack) > 0 && stack[len(stack)-1].end <= e.ts {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && e.end > stack[len(stack)-1].end {
				t.Fatalf("interval [%d, %d] crosses its parent's end %d", e.ts, e.end, stack[len(stack)-1].end)
			}
			if !e.cpu {
				stack = append(stack, open{e.end, 0, -1})
				continue
			}
			d := 1
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].cpu >= 0 {
					d = stack[i].depth + 1
					break
				}
			}
			if d == 1 {
				depths = append(depths, 1)
			} else if d > depths[len(depths)-1] {
				depths[len(depths)-1] = d
			}
			stack = append(stack, open{e.end, d, 1})
		}
		for _, d := range depths {
			if d < 3 || d > 6 {
				t.Errorf("a cpu_op tree %d deep, want 3 to 6", d)
			}
		}
		roots += len(depths)
	}
	if roots < 6*3 {
		t.Fatalf("%d cpu_op trees checked, want at least %d", roots, 6*3)
	}
}
