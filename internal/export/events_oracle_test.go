package export

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// The row path the events dataset took before internal/pqcol: EventRow
// structs through parquet-go's GenericWriter. Kept here as the oracle of
// TestEventsColumnsEqualRows.

// eventRows calls emit with the rows of t's complete events lo..hi-1 (in
// file order, the event column being the index), a batch at a time; of
// is eventSteps(t).
func eventRows(c *common, t *trace.Trace, of []int32, lo, hi int, emit func([]EventRow) error) error {
	l := t.Links()
	steps := t.StepWindows()
	lanes := laneCols(t)
	rows := make([]EventRow, 0, batchRows)
	sl := newSlab(batchRows, 9, 7, 4, 0)
	for i := lo; i < hi; i++ {
		e := t.Ev(i)
		ln := &lanes[e.Track]
		r := EventRow{TraceID: c.id, Rank: c.rank, Event: int64(i), Category: e.Kind.String(), Name: t.Str(e.Name),
			Pid: ln.pid, PidText: ln.pidText, Tid: ln.tid, TidText: ln.tidText, Device: ln.device, Stream: ln.stream,
			StartNs: e.Start - t.TraceStart, DurNs: e.Dur, Unfinished: e.Has(trace.FlagUnfinished)}
		if e.Has(trace.FlagCorr) {
			r.Corr = sl.p64(t.CorrOf(e))
		}
		if e.Has(trace.FlagExtID) {
			r.ExternalID = sl.p64(t.ExtIDOf(e))
		}
		if k := of[i]; k >= 0 {
			r.Step = sl.p64(steps[k].N)
		}
		if p := l.Parent[i]; p >= 0 {
			r.Parent = sl.p64(int64(p))
		}
		if call := l.Launch[i]; call >= 0 {
			switch {
			case e.Kind.IsLaunch():
				r.LaunchOp = sl.p64(int64(call))
			case e.Kind.IsDevice():
				r.LaunchCall = sl.p64(int64(call))
				if op := l.Launch[call]; op >= 0 {
					r.LaunchOp = sl.p64(int64(op))
				}
			}
		}
		if x := t.ExtraOf(i); x != nil {
			if x.InputDims != 0 {
				r.InputDims = sl.pstr(t.Str(x.InputDims))
			}
			if x.InputTypes != 0 {
				r.InputTypes = sl.pstr(t.Str(x.InputTypes))
			}
			if x.Stack != 0 {
				r.CallStack = sl.pstr(t.Str(x.Stack))
			}
			if a := t.AuxOf(i); a != nil {
				auxCols(t, sl, a, &r)
			}
		}
		rows = append(rows, r)
		if len(rows) == batchRows {
			if err := emit(rows); err != nil {
				return err
			}
			rows = rows[:0]
			sl.reset()
		}
	}
	if len(rows) > 0 {
		return emit(rows)
	}
	return nil
}

// auxCols fills the launch parameters, bytes moved and collective fields.
func auxCols(t *trace.Trace, sl *slab, a *trace.Aux, r *EventRow) {
	if a.HasLaunch {
		r.GridX, r.GridY, r.GridZ = sl.p32(a.Grid[0]), sl.p32(a.Grid[1]), sl.p32(a.Grid[2])
		r.BlockX, r.BlockY, r.BlockZ = sl.p32(a.Block[0]), sl.p32(a.Block[1]), sl.p32(a.Block[2])
	}
	if a.Regs >= 0 {
		r.Registers = sl.p32(a.Regs)
	}
	if a.SharedMem >= 0 {
		r.SharedMem = sl.p64(a.SharedMem)
	}
	if a.Bytes >= 0 {
		r.Bytes = sl.p64(a.Bytes)
	}
	if a.PG != 0 {
		r.PG = sl.pstr(t.Str(a.PG))
	}
	if a.Seq >= 0 {
		r.Seq = sl.p64(a.Seq)
	}
}

// TestEventsColumnsEqualRows: the events file written column by column
// holds the rows parquet-go's row writer gives the same events, value for
// value, as compareFiles holds every dataset (row groups, schema,
// metadata, statistics, page index); on the shared traces, the samples and
// the three benchmark shapes, with row groups small enough to split each.
func TestEventsColumnsEqualRows(t *testing.T) {
	var paths []string
	if _, ok := testenv.SharedDir(); ok {
		paths = append(paths, testenv.SharedTraces(t)...)
	}
	samples, _ := filepath.Glob(filepath.Join(testenv.Root(), "testdata", "*.json*"))
	paths = append(paths, samples...)
	dir := t.TempDir()
	paths = append(paths, shapeTraces(t, dir)...)
	checked := 0
	for _, p := range paths {
		tr, err := parse.Open(p, parse.Options{})
		if err != nil {
			continue // a hostile sample: export refuses it too
		}
		generated := strings.HasPrefix(p, dir)
		t.Run(filepath.Base(p), func(t *testing.T) {
			t.Parallel()
			n := tr.NumEvents()
			// row groups of a third of the events (several groups and
			// pages); the default size on the generated shapes
			compareEventFiles(t, tr, max(1, int64(n)/3+1), n)
			if generated {
				compareEventFiles(t, tr, RowGroupRows, n)
			}
		})
		checked++
	}
	if checked < len(samples) {
		t.Fatalf("checked %d traces of %d", checked, len(paths))
	}
}

func compareEventFiles(t *testing.T, tr *trace.Trace, rowGroups int64, n int) {
	t.Helper()
	codec, _ := codecOf("")
	c := &common{id: "0123456789abcdef"}
	if tr.Dist.Present && tr.Dist.Rank >= 0 {
		c.rank = ptr(tr.Dist.Rank)
	}
	of := eventSteps(tr)
	spec := func(dir string) *fileSpec {
		return &fileSpec{dir: dir, traceID: c.id, codec: codec, rowGroups: rowGroups, version: "test"}
	}
	ctx := context.Background()
	colDir, rowDir := t.TempDir(), t.TempDir()
	cf, rows, _, err := writeEventsFile(ctx, spec(colDir), c, tr, of, 0, n)
	if err != nil || rows != int64(n) {
		t.Fatalf("columns: %d rows of %d events, %v", rows, n, err)
	}
	if err := cf.Commit(); err != nil {
		t.Fatal(err)
	}
	rf, _, _, err := writeFile(ctx, spec(rowDir), DatasetEvents, func(emit func([]EventRow) error) error {
		return eventRows(c, tr, of, 0, n, emit)
	})
	if err != nil {
		t.Fatalf("rows: %v", err)
	}
	if err := rf.Commit(); err != nil {
		t.Fatal(err)
	}
	compareFiles(t, DatasetEvents, spec(colDir).path(DatasetEvents), spec(rowDir).path(DatasetEvents))
}
