package reportview

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/categories"
)

// TestCategoryChartBars: a bar per step in order, at most MaxCategoryBars,
// the work launched outside the steps named in a note; one bar for the
// trace when no step launched device time, or there are no steps; no
// chart without device time.
func TestCategoryChartBars(t *testing.T) {
	step := func(n, ns int64) categories.Step {
		s := categories.Step{N: n, DeviceNs: ns, Kernels: 1}
		s.Cells[0] = categories.Cell{DeviceNs: ns, Kernels: 1}
		return s
	}
	r := &categories.Result{DeviceNs: 1000, Kernels: MaxCategoryBars + 6, Outside: categories.Cell{DeviceNs: 400, Kernels: 2}}
	r.Cells[0] = categories.Cell{DeviceNs: 1000, Kernels: MaxCategoryBars + 6}
	for n := range MaxCategoryBars + 4 {
		r.Steps = append(r.Steps, step(int64(n+10), int64(n%3)))
	}
	c := NewCategoryChart(r)
	if len(c.Bars) != MaxCategoryBars || c.Bars[0].Step != 10 || c.Bars[MaxCategoryBars-1].Step != MaxCategoryBars+9 || !c.Bars[0].HasStep {
		t.Errorf("%d bars, steps %d to %d", len(c.Bars), c.Bars[0].Step, c.Bars[len(c.Bars)-1].Step)
	}
	notes := strings.Join(c.Notes, "\n")
	if !strings.Contains(notes, "the first 100 of 104 steps") || !strings.Contains(notes, "0.400us of device work (2 device ops) was launched outside every step") {
		t.Errorf("notes %q", notes)
	}
	if svg := string(c.SVG()); strings.Count(svg, `class="cbar"`) != MaxCategoryBars || strings.Count(svg, `class="seg"`) != MaxCategoryBars*2/3 {
		t.Errorf("%d bars, %d segments drawn", strings.Count(svg, `class="cbar"`), strings.Count(svg, `class="seg"`))
	}

	for _, steps := range [][]categories.Step{nil, {step(1, 0), step(2, 0)}} {
		r := &categories.Result{DeviceNs: 700, Kernels: 3, Steps: steps}
		r.Cells[2] = categories.Cell{DeviceNs: 700, Kernels: 3}
		c := NewCategoryChart(r)
		if len(c.Bars) != 1 || c.Bars[0].HasStep || c.Bars[0].DeviceNs != 700 || len(c.Notes) != 1 {
			t.Errorf("%d steps: bars %+v, notes %q", len(steps), c.Bars, c.Notes)
		}
	}
	if c := NewCategoryChart(&categories.Result{Kernels: 4}); c != nil {
		t.Errorf("a chart of 4 device ops of 0 ns: %+v", c)
	}
}
