package export

import (
	"math"

	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// opRows are the rows of tracetab table (torch's key_averages(), by the
// recording torch's rules, in first-occurrence order) of t, with step
// set to nil for the whole trace or to the step's number; the table is
// returned too (the whole trace's is the trend row's).
func opRows(c *common, t *trace.Trace, step *int64) ([]OpRow, *table.Result, error) {
	res, err := table.Compute(t, table.Options{})
	if err != nil {
		return nil, nil, err
	}
	rows := make([]OpRow, 0, len(res.Rows))
	for i := range res.Rows {
		r := &res.Rows[i]
		o := OpRow{TraceID: c.id, Rank: c.rank, Step: step, Row: int32(i), Torch: res.Torch.String(),
			Name: r.Name, DeviceOp: r.Device, UserAnnotation: r.UserAnn, TopLevel: r.TopLevel, Calls: r.Count,
			SelfCPUNs: table.Ns(r.SelfCPU), CPUTotalNs: table.Ns(r.CPUTotal), CPUAvgNs: table.Ns(r.CPUAvg()),
			SelfCUDANs: table.Ns(r.SelfDev), CUDATotalNs: table.Ns(r.DevTotal), CUDAAvgNs: table.Ns(r.DevAvg())}
		if p, ok := table.Pct(r.SelfCPU, res.SumSelfCPU); ok {
			o.SelfCPUPct = &p
		}
		if p, ok := table.Pct(r.SelfDev, res.SumSelfDev); ok {
			o.SelfCUDAPct = &p
		}
		if res.ProfileMemory {
			o.CPUMemBytes, o.SelfCPUMemBytes = ptr(r.CPUMem), ptr(r.SelfCPUMem)
			o.CUDAMemBytes, o.SelfCUDAMemBytes = ptr(r.DevMem), ptr(r.SelfDevMem)
		}
		rows = append(rows, o)
	}
	return rows, res, nil
}

// kernelRows are the rows of tracetab table --by kernel of t.
func kernelRows(c *common, t *trace.Trace, step *int64) []KernelRow {
	ks, _ := table.KernelView(t, nil)
	rows := make([]KernelRow, 0, len(ks))
	for _, k := range ks {
		r := KernelRow{TraceID: c.id, Rank: c.rank, Step: step, Name: k.Name, Category: k.Kind.String(),
			Class: k.Class, Calls: k.Count, TotalNs: k.TotalNs, MinNs: k.MinNs, MaxNs: k.MaxNs,
			MeanNs: k.MeanNs, MedianNs: k.MedianNs, StddevNs: k.StdDevNs, GPUPct: math.Round(k.Pct*100) / 100}
		if k.Kind == trace.KindKernel {
			r.TensorCores, r.LaunchOpCalls, r.TCEligibleOpCalls = ptr(k.TensorCores), ptr(k.OpCalls), ptr(k.TCEligibleCalls)
			if k.HasBlocksPerSM {
				r.MeanBlocksPerSM = ptr(roundTo(k.BlocksPerSM, 4))
			}
			if k.HasOccupancy {
				r.MeanOccupancyPct = ptr(roundTo(k.OccupancyPct, 2))
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func ptr[T any](v T) *T { return &v }

// roundTo rounds v to places decimals, as the views' JSON gives it.
func roundTo(v float64, places int) float64 {
	p := math.Pow10(places)
	return math.Round(v*p) / p
}
