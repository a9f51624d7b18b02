package export

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tracetab/tracetab/internal/gen"
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
			r.Corr = sl.p64(e.Corr)
		}
		if e.Has(trace.FlagExtID) {
			r.ExternalID = sl.p64(e.ExtID)
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
// value, in row groups of the same sizes, with the same schema and
// key-value metadata, and column statistics (null counts, least and
// largest values, which engines use to skip row groups) equal to the ones
// parquet-go computes; on the shared traces, the samples and the three
// benchmark shapes, with row groups small enough to split each.
func TestEventsColumnsEqualRows(t *testing.T) {
	var paths []string
	if _, ok := testenv.SharedDir(); ok {
		paths = append(paths, testenv.SharedTraces(t)...)
	}
	samples, _ := filepath.Glob(filepath.Join(testenv.Root(), "testdata", "*.json*"))
	paths = append(paths, samples...)
	dir := t.TempDir()
	for _, sh := range gen.BenchShapes() {
		cfg := sh.Cfg
		cfg.Steps, cfg.Modules = 12, true
		p := filepath.Join(dir, sh.Name+".json")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gen.Write(f, cfg); err != nil {
			t.Fatal(err)
		}
		f.Close()
		paths = append(paths, p)
	}
	checked := 0
	for _, p := range paths {
		tr, err := parse.Open(p, parse.Options{})
		if err != nil {
			continue // a hostile sample: export refuses it too
		}
		t.Run(filepath.Base(p), func(t *testing.T) {
			n := tr.NumEvents()
			for _, rg := range []int64{RowGroupRows, max(1, int64(n)/3+1)} {
				compareEventFiles(t, tr, rg, n)
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
	cf, _, _, err := writeEventsFile(ctx, spec(colDir), c, tr, of, 0, n)
	if err != nil {
		t.Fatalf("columns: %v", err)
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
	open := func(dir string) (*parquet.File, []EventRow) {
		p := spec(dir).path(DatasetEvents)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		rows, err := parquet.ReadFile[EventRow](p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return f, rows
	}
	colF, colRows := open(colDir)
	rowF, rowRows := open(rowDir)
	if len(colRows) != n || len(rowRows) != n {
		t.Fatalf("%d rows by columns, %d by rows, %d events", len(colRows), len(rowRows), n)
	}
	for k := range colRows {
		if !reflect.DeepEqual(colRows[k], rowRows[k]) {
			t.Fatalf("row %d: by columns %+v, by rows %+v", k, colRows[k], rowRows[k])
		}
	}
	cm, rm := colF.Metadata(), rowF.Metadata()
	if !reflect.DeepEqual(cm.Schema, rm.Schema) || !reflect.DeepEqual(cm.KeyValueMetadata, rm.KeyValueMetadata) || cm.CreatedBy != rm.CreatedBy {
		t.Fatalf("metadata differs:\n%+v\n%+v", cm, rm)
	}
	if len(cm.RowGroups) != len(rm.RowGroups) {
		t.Fatalf("%d row groups by columns, %d by rows", len(cm.RowGroups), len(rm.RowGroups))
	}
	for g := range cm.RowGroups {
		cg, rg := cm.RowGroups[g], rm.RowGroups[g]
		if cg.NumRows != rg.NumRows {
			t.Fatalf("row group %d: %d rows by columns, %d by rows", g, cg.NumRows, rg.NumRows)
		}
		for k := range cg.Columns {
			cs, rs := cg.Columns[k].MetaData.Statistics, rg.Columns[k].MetaData.Statistics
			name := cg.Columns[k].MetaData.PathInSchema
			if cs.NullCount != rs.NullCount || !bytes.Equal(cs.MinValue, rs.MinValue) || !bytes.Equal(cs.MaxValue, rs.MaxValue) {
				t.Errorf("row group %d, %v: statistics by columns %+v, by rows %+v", g, name, cs, rs)
			}
			if cg.Columns[k].MetaData.NumValues != rg.Columns[k].MetaData.NumValues {
				t.Errorf("row group %d, %v: %d values by columns, %d by rows", g, name, cg.Columns[k].MetaData.NumValues, rg.Columns[k].MetaData.NumValues)
			}
		}
	}
}
