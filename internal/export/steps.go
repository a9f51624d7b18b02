package export

import (
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/trace"
)

// analyzeGaps is tracetab gaps over the whole trace with every gap listed
// (resolved one at a time as the rows are made: Report.EachGap).
func analyzeGaps(t *trace.Trace) *gaps.Report {
	return gaps.Analyze(t, gaps.Options{Device: -1, Stream: -1, AllGaps: true, LazyGaps: true, Top: 1})
}

// stepRows are the profiler steps: trace.Steps's rows (tracetab table --by
// step: the device work launched from each), gaps' GPU idle inside the
// step's device span, and gaps' step-time breakdown where it covers the
// step.
func stepRows(c *common, t *trace.Trace, rep *gaps.Report) []StepRow {
	steps := t.Steps(nil)
	lanes := map[int64]gaps.StepLane{}
	for _, s := range rep.Steps {
		lanes[s.Step] = s
	}
	bd := map[int64]gaps.StepBreakdown{}
	if rep.Breakdown != nil {
		for _, b := range rep.Breakdown.Steps {
			bd[b.Step] = b
		}
	}
	rows := make([]StepRow, 0, len(steps))
	for _, s := range steps {
		r := StepRow{TraceID: c.id, Rank: c.rank, Step: s.N, StartNs: s.Start - t.TraceStart, CPUNs: s.End - s.Start,
			Kernels: int64(s.Kernels), DeviceOps: int64(s.DeviceOps), GPUBusyNs: s.GPUBusyNs, GPUWindowNs: s.GPUWindowNs,
			LargestGapNs: s.LargestGapNs, Cold: s.Cold}
		r.GPUIdleNs = s.GPUIdleNs
		if b, ok := bd[s.N]; ok {
			r.BdStartNs, r.BdTotalNs, r.BdExtendedByNs = ptr(b.StartNs), ptr(b.TotalNs), ptr(b.ExtendedByNs)
			ns := func(role gaps.Role) *int64 { return ptr(b.Ns[role]) }
			r.KernelNs, r.MemcpyNs, r.MemsetNs = ns(gaps.RoleKernel), ns(gaps.RoleMemcpy), ns(gaps.RoleMemset)
			r.RuntimeNs, r.DataLoaderNs = ns(gaps.RoleRuntime), ns(gaps.RoleDataLoader)
			r.CPUExecNs, r.OtherNs = ns(gaps.RoleCPUExec), ns(gaps.RoleOther)
		}
		rows = append(rows, r)
	}
	return rows
}

// gapShare is the column of each cause's share of a gap, by cause.
var gapShare = func() []func(r *GapRow) *int64 {
	by := map[gaps.Cause]func(r *GapRow) *int64{
		gaps.CauseInput:      func(r *GapRow) *int64 { return &r.InputNs },
		gaps.CauseCPU:        func(r *GapRow) *int64 { return &r.CPUNs },
		gaps.CauseSync:       func(r *GapRow) *int64 { return &r.SyncNs },
		gaps.CauseLaunch:     func(r *GapRow) *int64 { return &r.LaunchNs },
		gaps.CauseProfiler:   func(r *GapRow) *int64 { return &r.ProfilerNs },
		gaps.CauseUntraced:   func(r *GapRow) *int64 { return &r.UntracedNs },
		gaps.CauseDependency: func(r *GapRow) *int64 { return &r.DependNs },
		gaps.CauseDispatch:   func(r *GapRow) *int64 { return &r.DispatchNs },
		gaps.CauseQueued:     func(r *GapRow) *int64 { return &r.QueuedNs },
		gaps.CauseStartup:    func(r *GapRow) *int64 { return &r.StartupNs },
	}
	out := make([]func(r *GapRow) *int64, len(gaps.Causes()))
	for _, k := range gaps.Causes() {
		out[k] = by[k] // nil for a cause without a column (TestEveryCauseHasAColumn)
	}
	return out
}()

// edgeNames are gaps' words for where a gap lies (as tracetab gaps
// --format json writes them).
var edgeNames = map[gaps.Edge]string{gaps.Between: "between ops", gaps.BeforeFirst: "before first op", gaps.AfterLast: "after last op"}

// gapRows calls emit with a row for every idle stretch of every GPU,
// with its cause, a batch at a time.
func gapRows(c *common, rep *gaps.Report, emit func([]GapRow) error) error {
	return gapRowsBeside(c, rep, emit, nil)
}

// gapRowsBeside is gapRows with its batches made by two goroutines: the
// caller's makes the even ones and writes every batch in order, another
// makes the odd ones a batch ahead and then runs after (nil: none)
// before it ends; gapRowsBeside returns once both have (the 200 MB default
// bench trace has 107 thousand gaps: their rows took 80 ms on one core,
// with the other idle once the steps' and queues' rows were written).
func gapRowsBeside(c *common, rep *gaps.Report, emit func([]GapRow) error, after func()) error {
	n := rep.NumGaps()
	batches := (n + batchRows - 1) / batchRows
	// one batch for each goroutine: the other makes its next batch while
	// this one makes its own, and waits while this one writes both (a
	// second batch for it gained no time and held 8 MB more)
	ready := make(chan *gapBatch, 1)
	free := make(chan *gapBatch, 1)
	free <- nil
	quit := make(chan struct{})
	wait := safe.Go(func() {
		if after != nil {
			defer after()
		}
		for k := 1; k < batches; k += 2 {
			select {
			case b := <-free:
				ready <- makeGapRows(c, rep, k*batchRows, min(n, (k+1)*batchRows), b)
			case <-quit:
				return
			}
		}
	})
	var own *gapBatch
	var err error
	for k := 0; k < batches && err == nil; k++ {
		if k%2 == 0 {
			own = makeGapRows(c, rep, k*batchRows, min(n, (k+1)*batchRows), own)
			err = emit(own.rows)
			continue
		}
		b := <-ready
		err = emit(b.rows)
		free <- b
	}
	close(quit)
	wait()
	return err
}

// gapBatch is one batch of gap rows and the optional values they point to.
type gapBatch struct {
	rows []GapRow
	sl   *slab
}

// makeGapRows makes the rows of the listed gaps lo..hi-1 (at most
// batchRows) into b (a new batch when nil), which it returns.
func makeGapRows(c *common, rep *gaps.Report, lo, hi int, b *gapBatch) *gapBatch {
	if b == nil {
		// room for a batch's rows and their optional values (a slab's
		// values are never moved: the rows point to them)
		m := min(rep.NumGaps(), batchRows)
		b = &gapBatch{rows: make([]GapRow, 0, m), sl: newSlab(m, 4, 0, 6, 1)}
	}
	rows, sl := b.rows[:0], b.sl
	sl.reset()
	causes := gaps.Causes()
	// (the function never fails, so neither does EachGapIn)
	rep.EachGapIn(lo, hi, func(g *gaps.Gap) error {
		// the row is made in its place in the batch: a row of its own
		// escaped to the heap (gapShare takes its address), one
		// allocation of 250 bytes per gap
		rows = append(rows, GapRow{TraceID: c.id, Rank: c.rank, Device: int32(g.Device), StartNs: g.StartNs, LengthNs: g.LenNs,
			Edge: edgeNames[g.Edge], Cause: g.Cause.String(), CausePct: g.CausePct, LaunchLagNs: g.LaunchLagNs})
		r := &rows[len(rows)-1]
		if g.Edge == gaps.Between {
			r.IdleKind = sl.pstr(g.Kind.String())
		}
		if g.StepBefore >= 0 {
			r.StepBefore = sl.p64(g.StepBefore)
		}
		if g.StepAfter >= 0 {
			r.StepAfter = sl.p64(g.StepAfter)
		}
		r.Before, r.After, r.Activity, r.Note = sl.optStr(g.Before), sl.optStr(g.After), sl.optStr(g.Activity), sl.optStr(g.Note)
		if g.Activity != "" {
			r.ActivityPct = sl.pf64(g.ActivityPct)
		}
		if g.HasLaunchCall {
			r.LaunchCall, r.LaunchCallNs = sl.pstr(g.LaunchCall), sl.p64(g.LaunchCallNs)
		}
		r.BlockingLaunch = g.BlockingLaunch
		for _, k := range causes {
			*gapShare[k](r) = g.Shares[k]
		}
		return nil
	})
	b.rows = rows
	return b
}

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
