package export

import (
	"math"

	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/sequences"
	"github.com/tracetab/tracetab/internal/trace"
)

// moduleRows are the nodes of t's module tree in tree order (none for a
// trace without module frames).
func moduleRows(c *common, t *trace.Trace) []ModuleRow {
	tree := modules.Build(t)
	hasDevice := tree.DeviceNs > 0
	rows := make([]ModuleRow, 0, len(tree.Nodes))
	for n := range tree.Nodes {
		nd := &tree.Nodes[n]
		r := ModuleRow{TraceID: c.id, Rank: c.rank, Node: int32(n), Path: tree.Path(n), Name: nd.Name, Depth: int32(nd.Depth),
			Occurrences: nd.Occurrences, HostTotalNs: nd.HostTotal, HostSelfNs: nd.HostSelf, DeviceOps: nd.DeviceOps}
		if nd.Parent >= 0 {
			r.Parent = ptr(tree.Path(nd.Parent))
		}
		if hasDevice {
			r.DeviceTotalNs, r.DeviceSelfNs = ptr(nd.DeviceTotal), ptr(nd.DeviceSelf)
		}
		rows = append(rows, r)
	}
	return rows
}

// categoryRows are every category's device work over the whole trace,
// then over each step (none for a trace without device work).
func categoryRows(c *common, t *trace.Trace) []CategoryRow {
	res := categories.Build(t, nil)
	if res.Kernels == 0 {
		return nil
	}
	var rows []CategoryRow
	add := func(step *int64, cells *categories.Cells, whole int64) {
		for k, x := range cells {
			r := CategoryRow{TraceID: c.id, Rank: c.rank, Step: step, Category: string(opclass.Categories[k]),
				DeviceNs: x.DeviceNs, Kernels: int64(x.Kernels)}
			if p := categories.Pct(x.DeviceNs, whole); p != nil {
				r.Pct = ptr(round2(*p))
			}
			rows = append(rows, r)
		}
	}
	add(nil, &res.Cells, res.DeviceNs)
	for _, s := range res.Steps {
		add(ptr(s.N), &s.Cells, s.DeviceNs)
	}
	return rows
}

// sequenceRows are the first SequenceTop sequences of table --by
// sequence's defaults.
func sequenceRows(c *common, t *trace.Trace) []SequenceRow {
	r := sequences.Build(t, sequences.Options{MinLen: SequenceMinLen, Sort: sequences.KeyDevice})
	seqs := r.Sequences
	if len(seqs) > SequenceTop {
		seqs = seqs[:SequenceTop]
	}
	rows := make([]SequenceRow, 0, len(seqs))
	for i := range seqs {
		s := &seqs[i]
		rows = append(rows, SequenceRow{TraceID: c.id, Rank: c.rank, Seq: int32(i + 1), Op: s.Op, Device: int32(s.Device),
			Stream: s.Stream, Kernels: append([]string{}, s.Kernels...), Ops: int32(len(s.Kernels)), Count: s.Count,
			DeviceNs: s.DeviceNs, MeanNs: s.MeanNs(), HostNs: s.HostNs})
	}
	return rows
}

// queueRows are the launch queues gaps measured, in its stream order.
func queueRows(c *common, rep *gaps.Report) []QueueRow {
	var rows []QueueRow
	for _, q := range rep.Queues {
		if q.Ops == 0 {
			continue // not measured: null in gaps' JSON
		}
		rows = append(rows, QueueRow{TraceID: c.id, Rank: c.rank, Device: int32(q.Device), Stream: q.Stream, Ops: int64(q.Ops),
			StartNs: q.StartNs, EndNs: q.EndNs, MaxLen: int64(q.MaxLen), MedianLen: int64(q.MedianLen), MinLen: int64(q.MinLen),
			TimeAtMaxNs: q.TimeAtMaxNs, MaxAtNs: q.MaxAtNs, Limit: int64(q.Limit), FullNs: q.FullNs, EarlyOps: int64(q.EarlyOps)})
	}
	return rows
}

// round2 is a percentage to 2 places, as the views' JSON gives it.
func round2(x float64) float64 {
	r := math.Round(x*100) / 100
	if r == 0 {
		return 0
	}
	return r
}
