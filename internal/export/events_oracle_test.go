package export

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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
	checkPageIndex(t, colF, colRows)
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

// checkPageIndex: the page index of the file written by columns holds for
// the rows it reads: per column chunk, the pages cover the row group's
// rows in order, each page's null count is that of its rows and its least
// and largest values bound them and occur among them.
func checkPageIndex(t *testing.T, f *parquet.File, rows []EventRow) {
	t.Helper()
	m := f.Metadata()
	cis, ois := f.ColumnIndexes(), f.OffsetIndexes()
	ncol := len(m.Schema) - 1
	if len(cis) != len(m.RowGroups)*ncol || len(ois) != len(cis) {
		t.Fatalf("%d column and %d offset indexes for %d row groups of %d columns", len(cis), len(ois), len(m.RowGroups), ncol)
	}
	ints := make([]bool, ncol)
	for k := range ncol {
		ints[k] = isInt(m.Schema[k+1].Name)
	}
	base := 0
	for g, rg := range m.RowGroups {
		for k := range ncol {
			ci, oi := cis[g*ncol+k], ois[g*ncol+k]
			locs := oi.PageLocations
			if len(locs) == 0 || locs[0].FirstRowIndex != 0 || len(ci.MinValues) != len(locs) {
				t.Fatalf("row group %d column %d: %d pages, %d column index entries", g, k, len(locs), len(ci.MinValues))
			}
			for p := range locs {
				end := rg.NumRows
				if p+1 < len(locs) {
					end = locs[p+1].FirstRowIndex
				}
				if end <= locs[p].FirstRowIndex {
					t.Fatalf("row group %d column %d page %d: rows %d..%d", g, k, p, locs[p].FirstRowIndex, end)
				}
				var nulls int64
				lo, hi := ci.MinValues[p], ci.MaxValues[p]
				sawLo, sawHi := false, false
				for r := base + int(locs[p].FirstRowIndex); r < base+int(end); r++ {
					v, ok := columnBytes(reflect.ValueOf(&rows[r]).Elem().Field(k))
					if !ok {
						nulls++
						continue
					}
					if less(v, lo, ints[k]) || less(hi, v, ints[k]) {
						t.Fatalf("row %d column %s: %v outside the page's %v..%v", r, m.Schema[k+1].Name, v, lo, hi)
					}
					sawLo = sawLo || bytes.Equal(v, lo)
					sawHi = sawHi || bytes.Equal(v, hi)
				}
				allNull := nulls == end-locs[p].FirstRowIndex
				if nulls != ci.NullCounts[p] || ci.NullPages[p] != allNull || (!allNull && !(sawLo && sawHi)) {
					t.Fatalf("row group %d column %s page %d: %d nulls (index: %d, null page %v), least and largest seen %v %v",
						g, m.Schema[k+1].Name, p, nulls, ci.NullCounts[p], ci.NullPages[p], sawLo, sawHi)
				}
			}
		}
		base += int(rg.NumRows)
	}
}

// columnBytes is a field of EventRow encoded as Parquet statistics are
// (little-endian ints, a bool's byte, a string's bytes); false for null.
func columnBytes(v reflect.Value) ([]byte, bool) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, false
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Int64:
		return binary.LittleEndian.AppendUint64(nil, uint64(v.Int())), true
	case reflect.Int32:
		return binary.LittleEndian.AppendUint32(nil, uint32(v.Int())), true
	case reflect.Bool:
		if v.Bool() {
			return []byte{1}, true
		}
		return []byte{0}, true
	case reflect.String:
		return []byte(v.String()), true
	}
	panic("column of kind " + v.Kind().String())
}

// less orders two statistics values of a column: signed ints (8 or 4
// bytes, as every int column of EventRow), bytes otherwise.
func less(a, b []byte, isInt bool) bool {
	switch {
	case len(a) == 8 && len(b) == 8 && isInt:
		return int64(binary.LittleEndian.Uint64(a)) < int64(binary.LittleEndian.Uint64(b))
	case len(a) == 4 && len(b) == 4 && isInt:
		return int32(binary.LittleEndian.Uint32(a)) < int32(binary.LittleEndian.Uint32(b))
	}
	return bytes.Compare(a, b) < 0
}

func isInt(column string) bool {
	f, ok := reflect.TypeFor[EventRow]().FieldByNameFunc(func(n string) bool {
		sf, _ := reflect.TypeFor[EventRow]().FieldByName(n)
		return strings.Split(sf.Tag.Get("parquet"), ",")[0] == column
	})
	if !ok {
		panic("no column " + column)
	}
	k := f.Type.Kind()
	if k == reflect.Pointer {
		k = f.Type.Elem().Kind()
	}
	return k == reflect.Int64 || k == reflect.Int32
}
