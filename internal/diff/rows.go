package diff

import (
	"math"
	"runtime"
	"sync"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// Below, groups are the runs of steps one sample is taken over (a sample
// of a group is the mean over its steps), nil when the trace gives one
// sample of the whole trace; per is each group's op table, nil alike.

// stepTables cuts the steps into groups (per step, or per group of steps
// in a long trace) and computes each group's op table, in parallel (the
// trace's caches are shared safely); nil, nil unless perStep.
func stepTables(s *Side, t *trace.Trace, topt table.Options, steps []trace.Step, perStep bool) ([][2]int, []*table.Result, error) {
	if !perStep {
		return nil, nil, nil
	}
	groups := groupSteps(steps, MaxSamplesPerTrace)
	for _, g := range groups {
		s.StepsPerSample = max(s.StepsPerSample, g[1]-g[0]+1)
	}
	per := make([]*table.Result, len(groups))
	errs := make([]error, len(groups))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for k, g := range groups {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			defer safe.Recover(&errs[k])
			so := topt
			so.HasSteps, so.StepLo, so.StepHi = true, steps[g[0]].N, steps[g[1]].N
			per[k], errs[k] = table.Compute(t, so)
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			return nil, nil, e
		}
	}
	return groups, per, nil
}

// addStepRows adds --by step's rows: row "step k" is the trace's k-th
// step (its GPU busy time as device time, its window as CPU time, its
// kernels as count), one sample per trace.
func addStepRows(a *acc, steps []trace.Step, base int) {
	for k, st := range steps {
		cpu := float64(st.End - st.Start)
		r := a.add("step "+itoa(k+1), false, base+0, vals{float64(st.GPUBusyNs), float64(st.GPUBusyNs), cpu, cpu, float64(st.Kernels), 0, 0})
		r.label = "ProfilerStep#" + itoa64(st.N)
	}
	// one sample per row: the buckets are positions, not steps
	a.nb = base + 1
}

// addKernelRows adds --by kernel's rows: each device op by name (keyOp: by
// the op that launched it, keeping the names behind the row), in the group
// of the step holding its launch call, divided by the group's size. It
// returns the device ops outside the steps.
func addKernelRows(a *acc, t *trace.Trace, keyOp bool, steps []trace.Step, groups [][2]int, base int) vals {
	var outside vals
	l := t.Links()
	groupOf := make([]int, len(steps))
	for gi, g := range groups {
		for k := g[0]; k <= g[1]; k++ {
			groupOf[k] = gi
		}
	}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		b := 0
		v := vals{float64(e.Dur), float64(e.Dur), 0, 0, 1, 0, 0}
		if groups != nil {
			b = trace.StepAt(steps, t.LaunchTime(i))
			if b >= 0 {
				b = groupOf[b]
				if g := groups[b]; g[1] > g[0] {
					size := float64(g[1] - g[0] + 1)
					for j := range v {
						v[j] /= size
					}
				}
			}
		}
		if b < 0 {
			for j := range v {
				outside[j] += v[j]
			}
			continue
		}
		key := t.NameOf(i)
		if keyOp {
			key = launcherName(t, l, i)
		}
		r := a.add(key, true, base+b, v)
		if keyOp {
			if r.kernels == nil {
				r.kernels = map[string]bool{}
			}
			r.kernels[t.NameOf(i)] = true
		}
	}
	return outside
}

// addOpRows adds the op rows: the whole trace's table as one sample, or
// each group's table divided by the group's size. Per group, it returns
// the work outside the steps: the whole trace's self CPU, self device time
// and calls less the groups' sums.
func addOpRows(a *acc, all *table.Result, per []*table.Result, groups [][2]int, shape bool, base int) vals {
	var outside vals
	if per == nil {
		for i := range all.Rows {
			a.add(opKey(&all.Rows[i], shape), all.Rows[i].Device, base, rowVals(&all.Rows[i]))
		}
		return outside
	}
	var sum vals
	for k, res := range per {
		size := float64(groups[k][1] - groups[k][0] + 1)
		for i := range res.Rows {
			v := rowVals(&res.Rows[i])
			sum[iCount] += v[iCount]
			for j := range v {
				if size > 1 {
					v[j] /= size
				}
			}
			a.add(opKey(&res.Rows[i], shape), res.Rows[i].Device, base+k, v)
		}
		sum[iSelfCPU] += ns(res.SumSelfCPU)
		sum[iSelfCuda] += ns(res.SumSelfDev)
	}
	var allCount float64
	for i := range all.Rows {
		allCount += float64(all.Rows[i].Count)
	}
	outside[iSelfCPU] = ns(all.SumSelfCPU) - sum[iSelfCPU]
	outside[iSelfCuda] = ns(all.SumSelfDev) - sum[iSelfCuda]
	outside[iCount] = allCount - sum[iCount]
	return outside
}

// addTotals adds the trace's totals: per group the mean self CPU and self
// device time, per step its GPU busy and idle time and window; of the
// whole trace (per == nil) the sums, the GPU busy and idle time and the
// median step. GPU idle has the one definition, the gaps verdict's (over
// the union of the steps each extended to the end of the work it
// launched; the GPU window without steps), whose per-step shares add up to
// it (trace.FillGPU).
func addTotals(s *Side, t *trace.Trace, all *table.Result, per []*table.Result, groups [][2]int, steps []trace.Step, g *gaps.Report) {
	v := g.Verdict
	var laneBusy, laneWindow int64
	for _, d := range g.Devices {
		laneBusy += d.BusyNs
		laneWindow += d.WindowNs
	}
	add := func(m string, v float64) { s.Totals[m] = append(s.Totals[m], v) }
	if per != nil {
		for k, res := range per {
			size := float64(groups[k][1] - groups[k][0] + 1)
			add("self_cpu", math.Round(ns(res.SumSelfCPU)/size))
			add("self_cuda", math.Round(ns(res.SumSelfDev)/size))
		}
		for _, st := range steps {
			add("gpu_busy", float64(st.GPUBusyNs))
			add("gpu_idle", float64(st.GPUIdleNs))
			add("step_time", float64(st.End-st.Start))
		}
	} else {
		add("self_cpu", ns(all.SumSelfCPU))
		add("self_cuda", ns(all.SumSelfDev))
		add("gpu_busy", float64(v.BusyNs))
		add("gpu_idle", float64(v.IdleNs))
		if m, ok := medianStepTime(steps); ok {
			add("step_time", m)
		}
	}
	if p, ok := idlePct(v.IdleNs, v.SpanNs, v.Devices); ok {
		add("gpu_idle_pct", p)
	}
	if laneWindow > 0 {
		add("gpu_idle_pct_lanes", pct2(laneWindow-laneBusy, laneWindow))
	}
	add("steps", float64(len(steps)))
	l := t.Links()
	add("unlinked", float64(l.DeviceOps-l.LinkedDeviceOps))
}
