package dataset

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/ranks"
)

// Ranks are the ranks.Summary of every trace in the ranks and collectives
// datasets under root, in the order of the traces' paths as exported (the
// order tracetab ranks reads a directory in), each summary's Path the
// path exported. A trace exported more than once (the same trace id) is
// read once, with a note.
type Ranks struct {
	Summaries []*ranks.Summary
	Notes     []string
}

// ReadRanks reads them (Reading{}.Ranks).
func ReadRanks(root string) (*Ranks, error) { return readRanks(root, Reading{}) }

func readRanks(root string, rd Reading) (*Ranks, error) {
	files, err := Files(root, export.DatasetRanks, export.DatasetCollectives)
	if err != nil {
		return nil, err
	}
	if len(files[export.DatasetRanks]) == 0 {
		return nil, &EmptyError{Root: root, Dataset: export.DatasetRanks}
	}
	out := &Ranks{}
	type traceRows struct {
		row   export.RankRow
		file  string
		colls []export.CollectiveRow
		seen  bool // a collectives file was read for it
	}
	byID := map[string]*traceRows{}
	var order []*traceRows
	err = eachFile(rd, files[export.DatasetRanks], export.DatasetRanks, func(path string, rows []export.RankRow) error {
		for _, r := range rows {
			if o, dup := byID[r.TraceID]; dup {
				out.Notes = append(out.Notes, fmt.Sprintf("%s: trace %s (%s) is also in %s: read once", path, r.TraceID, r.Path, o.file))
				continue
			}
			t := &traceRows{row: r, file: path}
			byID[r.TraceID] = t
			order = append(order, t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachFile(rd, files[export.DatasetCollectives], export.DatasetCollectives, func(path string, rows []export.CollectiveRow) error {
		if len(rows) == 0 {
			return nil
		}
		t := byID[rows[0].TraceID]
		if t == nil {
			return &Error{Path: path, Msg: fmt.Sprintf("collectives of trace %s, which no ranks file lists: an incomplete export? export the trace again", rows[0].TraceID)}
		}
		if t.seen {
			return nil // the same trace exported twice
		}
		for _, r := range rows {
			if r.TraceID != t.row.TraceID {
				return &Error{Path: path, Msg: fmt.Sprintf("rows of traces %s and %s in one file: not written by tracetab export", t.row.TraceID, r.TraceID)}
			}
		}
		t.colls, t.seen = rows, true
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(order, func(a, b *traceRows) int { return cmp.Compare(a.row.Path, b.row.Path) })
	for i, t := range order {
		if t.row.CommKernels != int64(len(t.colls)) {
			return nil, &Error{Path: t.file, Msg: fmt.Sprintf("trace %s has %d communication kernels, its collectives files %d: an incomplete export? export the trace again",
				t.row.TraceID, t.row.CommKernels, len(t.colls))}
		}
		out.Summaries = append(out.Summaries, SummaryOf(t.row, t.colls, i))
	}
	return out, nil
}

// SummaryOf rebuilds the ranks.Summary the rows were made of; pos is the
// trace's position (its rank when the trace names none).
func SummaryOf(r export.RankRow, colls []export.CollectiveRow, pos int) *ranks.Summary {
	s := &ranks.Summary{Path: r.Path, File: filepath.Base(r.Path), Rank: int64(pos), WorldSize: -1, MedianStepNs: -1,
		Origin: r.OriginNs, Epoch: r.WallClock, Steps: r.Steps, StepDur: r.StepCPUNs, HasGPU: r.GPU,
		CommKernels: int(r.CommKernels), SizedOps: int(r.SizedOps), SizedOpsNoKernel: int(r.SizedOpsNoKernel)}
	if r.Rank != nil {
		s.Rank = *r.Rank
	} else {
		s.RankFromFile = true
	}
	if r.WorldSize != nil {
		s.WorldSize = *r.WorldSize
	}
	s.Backend, s.Device = str(r.Backend), str(r.Device)
	if r.MedianStepNs != nil {
		s.MedianStepNs = *r.MedianStepNs
	}
	if len(s.Steps) == 0 {
		s.Steps, s.StepDur = nil, nil
	}
	for _, st := range r.StepStartNs {
		s.StepStart = append(s.StepStart, r.OriginNs+st)
	}
	if r.GPU {
		s.Window = str(r.Window)
		s.WindowNs, s.ComputeNs, s.CommNs = val(r.WindowNs), val(r.ComputeNs), val(r.CommNs)
		s.ExposedCommNs, s.IdleNs, s.OverlapNs = val(r.ExposedCommNs), val(r.IdleNs), val(r.OverlapNs)
	}
	for _, c := range colls {
		k := ranks.Coll{Name: c.Name, PG: str(c.PG), Seq: orNeg(c.Seq), Step: orNeg(c.Step), Start: r.OriginNs + c.StartNs, Dur: c.DurNs, Launch: -1,
			Size: ranks.Size{Coll: str(c.Collective), Dtype: str(c.Dtype), In: orNeg(c.InNelems), Out: orNeg(c.OutNelems), GroupSize: orNeg(c.GroupSize)}}
		if c.LaunchNs != nil {
			k.Launch = r.OriginNs + *c.LaunchNs
		}
		s.Colls = append(s.Colls, k)
	}
	return s
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func val(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func orNeg(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}
