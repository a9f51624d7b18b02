package gen

import (
	"bufio"
	"io"
	"testing"
)

// TestPlanStep: a step's parts lie in the order they are written, each
// inside the step; a cold first step has the 228 us dead window before
// aten::matmul (a warm one 9 us) and lasts 40 us longer; the body ends in
// communication when it has layers or ranks, and the layers take their
// fixed width each.
func TestPlanStep(t *testing.T) {
	for _, c := range []struct {
		name string
		s    int
		cfg  Config
	}{
		{"cold", 0, Config{}},
		{"warm", 1, Config{}},
		{"warm run", 0, Config{Warm: true}},
		{"layers", 2, Config{Layers: 3}},
		{"rank", 1, Config{World: 4, Rank: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := &writer{w: bufio.NewWriter(io.Discard), free: map[int]int64{}}
			const t0 = 1_000_000
			p := g.planStep(c.s, t0, c.cfg)
			order := []int64{p.start, p.ma, p.mm, p.mmIn, p.occ, p.launch1, p.mmEnd, p.matmulEnd, p.add, p.launch2, p.addEnd, p.maEnd, p.cur, p.rfStart, p.end}
			for i := 1; i < len(order); i++ {
				if order[i] < order[i-1] {
					t.Errorf("part %d at %d, before part %d at %d: %+v", i, order[i], i-1, order[i-1], p)
				}
			}
			if p.start != t0 || p.no != c.s+2 {
				t.Errorf("start %d, step #%d; want %d, #%d", p.start, p.no, t0, c.s+2)
			}
			cold := c.s == 0 && !c.cfg.Warm
			if want := map[bool]int64{true: 228_000, false: 9_000}[cold]; p.cold != cold || p.mm-p.ma != want {
				t.Errorf("cold %v, dead window %d; want %v, %d", p.cold, p.mm-p.ma, cold, want)
			}
			if cold && g.f.DeadWindowNs != 228_000 {
				t.Errorf("the facts say a dead window of %d", g.f.DeadWindowNs)
			}
			comm := c.cfg.Layers > 0 || c.cfg.World > 0
			body := int64(c.cfg.Layers) * layerWidth
			if comm {
				body += 90_000
			}
			if p.comm != comm || p.rfStart-p.cur != body {
				t.Errorf("comm %v, body %d; want %v, %d", p.comm, p.rfStart-p.cur, comm, body)
			}
			tail := int64(15_000)
			if cold {
				tail += 40_000
			}
			if c.cfg.World > 0 && cold {
				tail += g.lag
			}
			if p.end-p.bodyEnd != tail {
				t.Errorf("the step ends %d after its body; want %d", p.end-p.bodyEnd, tail)
			}
		})
	}
}
