package export

import (
	"math"

	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// opRows are the rows of tracetab table (torch's key_averages(), by the
// recording torch's rules, in first-occurrence order) of t, with step
// set to nil for the whole trace or to the step's number; the table is
// returned too (the whole trace's is the trend row's). The rows are
// appended to buf[:0] and their optional values held in sl (reset here):
// both are the caller's to reuse once the rows are written.
//
// A step's table is computed without its notes (no row holds them).
func opRows(c *common, t *trace.Trace, step *int64, buf []OpRow, sl *slab) ([]OpRow, *table.Result, error) {
	res, err := table.Compute(t, table.Options{NoNotes: step != nil, OneGoroutine: true})
	if err != nil {
		return nil, nil, err
	}
	torch := res.Torch.String()
	rows := buf[:0]
	sl.reset()
	for i := range res.Rows {
		r := &res.Rows[i]
		o := OpRow{TraceID: c.id, Rank: c.rank, Step: step, Row: int32(i), Torch: torch,
			Name: r.Name, DeviceOp: r.Device, UserAnnotation: r.UserAnn, TopLevel: r.TopLevel, Calls: r.Count,
			SelfCPUNs: table.Ns(r.SelfCPU), CPUTotalNs: table.Ns(r.CPUTotal), CPUAvgNs: table.Ns(r.CPUAvg()),
			SelfCUDANs: table.Ns(r.SelfDev), CUDATotalNs: table.Ns(r.DevTotal), CUDAAvgNs: table.Ns(r.DevAvg())}
		if p, ok := table.Pct(r.SelfCPU, res.SumSelfCPU); ok {
			o.SelfCPUPct = sl.pf64(p)
		}
		if p, ok := table.Pct(r.SelfDev, res.SumSelfDev); ok {
			o.SelfCUDAPct = sl.pf64(p)
		}
		if res.ProfileMemory {
			o.CPUMemBytes, o.SelfCPUMemBytes = sl.p64(r.CPUMem), sl.p64(r.SelfCPUMem)
			o.CUDAMemBytes, o.SelfCUDAMemBytes = sl.p64(r.DevMem), sl.p64(r.SelfDevMem)
		}
		rows = append(rows, o)
	}
	return rows, res, nil
}

// kernelRows are the rows of tracetab table --by kernel of t; names is
// table.KernelNameFactsOf (remembered: kernelNames). The rows are appended to
// buf[:0] and their optional values held in sl (reset here), as opRows.
func kernelRows(c *common, t *trace.Trace, step *int64, names func(trace.Kind, string) table.KernelNameFacts, buf []KernelRow, sl *slab) []KernelRow {
	ks, _ := table.KernelViewWith(t, nil, names)
	rows := buf[:0]
	sl.reset()
	for _, k := range ks {
		r := KernelRow{TraceID: c.id, Rank: c.rank, Step: step, Name: k.Name, Category: k.Kind.String(),
			Class: k.Class, Calls: k.Count, TotalNs: k.TotalNs, MinNs: k.MinNs, MaxNs: k.MaxNs,
			MeanNs: k.MeanNs, MedianNs: k.MedianNs, StddevNs: k.StdDevNs, GPUPct: math.Round(k.Pct*100) / 100}
		if k.Kind == trace.KindKernel {
			r.TensorCores, r.LaunchOpCalls, r.TCEligibleOpCalls = pbool(k.TensorCores), sl.p64(k.OpCalls), sl.p64(k.TCEligibleCalls)
			if k.HasBlocksPerSM {
				r.MeanBlocksPerSM = sl.pf64(roundTo(k.BlocksPerSM, 4))
			}
			if k.HasOccupancy {
				r.MeanOccupancyPct = sl.pf64(roundTo(k.OccupancyPct, 2))
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// pbool is v as an optional column: a pointer to one of two values
// shared by every row (read only).
func pbool(v bool) *bool {
	if v {
		return &boolTrue
	}
	return &boolFalse
}

var boolTrue, boolFalse = true, false

func ptr[T any](v T) *T { return &v }

// roundTo rounds v to places decimals, as the views' JSON gives it.
func roundTo(v float64, places int) float64 {
	p := math.Pow10(places)
	return math.Round(v*p) / p
}

// kernelNames is table.KernelNameFactsOf remembered by kind and name,
// for the kernel views of every step of one trace (one goroutine).
func kernelNames() func(trace.Kind, string) table.KernelNameFacts {
	type key struct {
		k    trace.Kind
		name string
	}
	seen := map[key]table.KernelNameFacts{}
	return func(k trace.Kind, name string) table.KernelNameFacts {
		f, ok := seen[key{k, name}]
		if !ok {
			f = table.KernelNameFactsOf(k, name)
			seen[key{k, name}] = f
		}
		return f
	}
}
