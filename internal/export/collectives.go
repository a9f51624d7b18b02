package export

import (
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/trace"
)

// rankTables reduces the trace as tracetab ranks does (ranks.Summarize)
// and lays the summary out as its rank row and collectives rows; the
// summary is returned for the trend row.
func rankTables(c *common, t *trace.Trace, path string) (RankRow, []CollectiveRow, *ranks.Summary) {
	s := ranks.Summarize(t, 0)
	return RankRowOf(c.id, c.rank, path, s), CollectiveRowsOf(c.id, c.rank, s), s
}

// RankRowOf is s's row; rank is the trace's own (nil when it names none).
func RankRowOf(id string, rank *int64, path string, s *ranks.Summary) RankRow {
	r := RankRow{TraceID: id, Rank: rank, Path: path, OriginNs: s.Origin, WallClock: s.Epoch,
		Steps: nonNil(s.Steps), StepStartNs: make([]int64, len(s.StepStart)), StepCPUNs: nonNil(s.StepDur),
		GPU: s.HasGPU, CommKernels: int64(s.CommKernels), SizedOps: int64(s.SizedOps), SizedOpsNoKernel: int64(s.SizedOpsNoKernel)}
	for k, st := range s.StepStart {
		r.StepStartNs[k] = st - s.Origin
	}
	if s.WorldSize > 0 {
		r.WorldSize = ptr(s.WorldSize)
	}
	r.Backend, r.Device = optStr(s.Backend), optStr(s.Device)
	if s.MedianStepNs >= 0 {
		r.MedianStepNs = ptr(s.MedianStepNs)
	}
	if s.HasGPU {
		r.Window = ptr(s.Window)
		r.WindowNs, r.ComputeNs, r.CommNs = ptr(s.WindowNs), ptr(s.ComputeNs), ptr(s.CommNs)
		r.ExposedCommNs, r.IdleNs, r.OverlapNs = ptr(s.ExposedCommNs), ptr(s.IdleNs), ptr(s.OverlapNs)
	}
	return r
}

// CollectiveRowsOf are s's communication kernels, in start order.
func CollectiveRowsOf(id string, rank *int64, s *ranks.Summary) []CollectiveRow {
	type occKey struct {
		name, pg string
		step     int64
	}
	occ := map[occKey]int64{}
	rows := make([]CollectiveRow, 0, len(s.Colls))
	for k, c := range s.Colls {
		o := occKey{c.Name, c.PG, c.Step}
		occ[o]++
		r := CollectiveRow{TraceID: id, Rank: rank, Kernel: int64(k), Occurrence: occ[o], Name: c.Name, PG: optStr(c.PG),
			StartNs: c.Start - s.Origin, EndNs: c.End() - s.Origin, DurNs: c.Dur,
			Collective: optStr(c.Size.Coll), Kind: optStr(ranks.KindOf(c.Size.Coll)), Dtype: optStr(c.Size.Dtype)}
		if c.Step >= 0 {
			r.Step = ptr(c.Step)
		}
		if c.Seq >= 0 {
			r.Seq = ptr(c.Seq)
		}
		if c.Launch >= 0 {
			r.LaunchNs = ptr(c.Launch - s.Origin)
		}
		r.InNelems, r.OutNelems, r.GroupSize = nonNeg(c.Size.In), nonNeg(c.Size.Out), nonNeg(c.Size.GroupSize)
		if b := c.Size.Bytes(); b >= 0 {
			r.Bytes = ptr(b)
		}
		rows = append(rows, r)
	}
	return rows
}

func nonNeg(v int64) *int64 {
	if v < 0 {
		return nil
	}
	return &v
}

func nonNil(v []int64) []int64 {
	if v == nil {
		return []int64{}
	}
	return v
}
