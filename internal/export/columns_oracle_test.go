package export

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestDatasetsByColumnsEqualRows: every dataset's file written by pqcol's
// Rows holds the rows parquet-go's GenericWriter gives the same rows, in
// row groups of the same sizes, with the same schema and metadata and
// column statistics (null counts, least and largest values) equal to
// parquet-go's; its page index covers the rows with their null counts and
// bounds each page's values. On the samples, some shared traces and the
// three benchmark shapes, with row groups small enough to split the larger
// datasets; the sample with snappy too.
func TestDatasetsByColumnsEqualRows(t *testing.T) {
	paths := shapeTraces(t, t.TempDir())
	paths = append(paths, sample())
	if d, ok := testenv.SharedDir(); ok {
		for _, name := range []string{"HTA__trace_diff__control__control.json.gz", "TraceLens__h100__google_owlv2-large-patch14-ensemble__1016001.json.gz"} {
			p := filepath.Join(d, "traces", name)
			if _, err := os.Stat(p); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			paths = append(paths, p)
		}
	}
	type run struct{ path, compression string }
	var runs []run
	for _, p := range paths {
		runs = append(runs, run{p, "zstd"})
	}
	runs = append(runs, run{sample(), "snappy"})
	for _, rn := range runs {
		p := rn.path
		t.Run(filepath.Base(p)+"/"+rn.compression, func(t *testing.T) {
			export := func(cols bool) string {
				out := t.TempDir()
				byColumns = cols
				defer func() { byColumns = true }()
				sum, _, err := runExport(t, out, []string{p}, Options{RowGroupRows: 1000, Compression: rn.compression})
				if err != nil || sum.Traces != 1 {
					t.Fatalf("export: %v %+v", err, sum)
				}
				return out
			}
			colDir, rowDir := export(true), export(false)
			n := 0
			filepath.Walk(rowDir, func(rp string, info os.FileInfo, err error) error {
				if err != nil || info.IsDir() || !strings.HasSuffix(rp, ".parquet") {
					return nil
				}
				rel, _ := filepath.Rel(rowDir, rp)
				if strings.HasPrefix(rel, DatasetEvents+string(filepath.Separator)) {
					return nil // TestEventsColumnsEqualRows
				}
				compareFiles(t, rel, filepath.Join(colDir, rel), rp)
				n++
				return nil
			})
			if n != len(Datasets)-1 {
				t.Errorf("%d files compared, want %d", n, len(Datasets)-1)
			}
		})
	}
}

// shapeTraces writes a trace of each benchmark shape (gen.BenchShapes, 12
// steps, with module frames) into dir and returns their paths.
func shapeTraces(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
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
	return paths
}

// compareFiles holds the file written by columns (colPath) to parquet-go's
// (rowPath): the same rows, row groups, schema, key-value metadata and
// column statistics; and, for a flat schema, its page index to its rows:
// the pages cover each row group in order, each page's null count and
// null-page flag are its rows', and its least and largest values bound
// them and occur among them.
func compareFiles(t *testing.T, name, colPath, rowPath string) {
	t.Helper()
	open := func(p string) (*parquet.File, []parquet.Row) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var rows []parquet.Row
		for _, rg := range f.RowGroups() {
			rr := rg.Rows()
			buf := make([]parquet.Row, 64)
			for {
				k, err := rr.ReadRows(buf)
				for _, r := range buf[:k] {
					rows = append(rows, r.Clone())
				}
				if err != nil {
					break
				}
			}
			rr.Close()
		}
		return f, rows
	}
	cf, crows := open(colPath)
	rf, rrows := open(rowPath)
	if len(crows) != len(rrows) {
		t.Fatalf("%s: %d rows by columns, %d by rows", name, len(crows), len(rrows))
	}
	for k := range crows {
		if !crows[k].Equal(rrows[k]) {
			t.Fatalf("%s row %d: by columns %v, by rows %v", name, k, crows[k], rrows[k])
		}
	}
	cm, rm := cf.Metadata(), rf.Metadata()
	if len(cm.Schema) != len(rm.Schema) || len(cm.RowGroups) != len(rm.RowGroups) || cm.CreatedBy != rm.CreatedBy || len(cm.KeyValueMetadata) != len(rm.KeyValueMetadata) {
		t.Fatalf("%s: metadata differs:\n%+v\n%+v", name, cm, rm)
	}
	for k := range cm.Schema {
		if !reflect.DeepEqual(cm.Schema[k], rm.Schema[k]) {
			t.Fatalf("%s: schema element %d: %+v by columns, %+v by rows", name, k, cm.Schema[k], rm.Schema[k])
		}
	}
	for k := range cm.KeyValueMetadata {
		if !reflect.DeepEqual(cm.KeyValueMetadata[k], rm.KeyValueMetadata[k]) {
			t.Fatalf("%s: key-value %d: %+v, %+v", name, k, cm.KeyValueMetadata[k], rm.KeyValueMetadata[k])
		}
	}
	base := 0
	cols := cf.Schema().Columns()
	flat := true
	for _, c := range cols {
		leaf, _ := cf.Schema().Lookup(c...)
		flat = flat && leaf.MaxRepetitionLevel == 0 && len(c) == 1
	}
	for g := range cm.RowGroups {
		cg, rg := cm.RowGroups[g], rm.RowGroups[g]
		if cg.NumRows != rg.NumRows {
			t.Fatalf("%s row group %d: %d rows by columns, %d by rows", name, g, cg.NumRows, rg.NumRows)
		}
		for k := range cg.Columns {
			cs, rs := cg.Columns[k].MetaData.Statistics, rg.Columns[k].MetaData.Statistics
			if cs.NullCount != rs.NullCount || !bytes.Equal(cs.MinValue, rs.MinValue) || !bytes.Equal(cs.MaxValue, rs.MaxValue) {
				t.Errorf("%s row group %d %v: statistics by columns %+v, by rows %+v", name, g, cols[k], cs, rs)
			}
			if !flat {
				continue // a list column: parquet-go's writer, whose rows are not a value per column
			}
			leaf, _ := cf.Schema().Lookup(cols[k]...)
			ci, oi := cf.ColumnIndexes()[g*len(cg.Columns)+k], cf.OffsetIndexes()[g*len(cg.Columns)+k]
			locs := oi.PageLocations
			if len(locs) == 0 || locs[0].FirstRowIndex != 0 || len(ci.MinValues) != len(locs) {
				t.Fatalf("%s row group %d %v: %d pages, %d column index entries", name, g, cols[k], len(locs), len(ci.MinValues))
			}
			typ := leaf.Node.Type()
			for p := range locs {
				end := cg.NumRows
				if p+1 < len(locs) {
					end = locs[p+1].FirstRowIndex
				}
				if end <= locs[p].FirstRowIndex {
					t.Fatalf("%s row group %d %v page %d: rows %d..%d", name, g, cols[k], p, locs[p].FirstRowIndex, end)
				}
				var lo, hi parquet.Value
				if !ci.NullPages[p] { // a null page's bounds are empty
					lo, hi = typ.Kind().Value(ci.MinValues[p]), typ.Kind().Value(ci.MaxValues[p])
				}
				var nulls int64
				sawLo, sawHi := false, false
				for r := base + int(locs[p].FirstRowIndex); r < base+int(end); r++ {
					v := crows[r][k]
					if v.IsNull() {
						nulls++
						continue
					}
					if typ.Compare(v, lo) < 0 || typ.Compare(hi, v) < 0 {
						t.Fatalf("%s row %d %v: %v outside the page's %v..%v", name, r, cols[k], v, lo, hi)
					}
					sawLo = sawLo || typ.Compare(v, lo) == 0
					sawHi = sawHi || typ.Compare(v, hi) == 0
				}
				allNull := nulls == end-locs[p].FirstRowIndex
				if nulls != ci.NullCounts[p] || ci.NullPages[p] != allNull || (!allNull && !(sawLo && sawHi)) {
					t.Fatalf("%s row group %d %v page %d: %d nulls (index: %d, null page %v), least and largest seen %v %v",
						name, g, cols[k], p, nulls, ci.NullCounts[p], ci.NullPages[p], sawLo, sawHi)
				}
			}
		}
		base += int(cg.NumRows)
	}
}
