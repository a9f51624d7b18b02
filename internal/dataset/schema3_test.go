package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/hostile"
)

// TestSchema3StillReads: an export of schema 3 (every file and the
// marker restamped from 4 to 3; the ranks, collectives and trend columns
// did not change) reads as the same rows; a file whose columns are not
// the reader's is still refused, naming the file.
func TestSchema3StillReads(t *testing.T) {
	good, _ := exportJob(t)
	const old = "tracetab.parquet/3"
	if len(old) != len(export.Schema) || old == export.Schema {
		t.Fatalf("schema %s: the test restamps to %s", export.Schema, old)
	}
	three := copyTree(t, good)
	n := 0
	filepath.Walk(three, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		if r := hostile.Restamped(b, export.Schema, old); string(r) != string(b) {
			write(t, p, r)
			n++
		}
		return nil
	})
	if n < 3 {
		t.Fatalf("restamped %d files", n)
	}
	want, err := ReadRanks(good)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadRanks(three)
	if err != nil {
		t.Fatalf("a schema 3 export: %v", err)
	}
	if len(got.Summaries) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("schema 3 rows differ from schema 4's")
	}
	if _, err := ReadTrend(three); err != nil {
		t.Errorf("trend of a schema 3 export: %v", err)
	}
	// the version is not the only check: columns other than the reader's
	// (as a schema 3 kernels file's would be) are refused, naming the file
	coll := firstFile(t, three, export.DatasetCollectives)
	_, err = ReadRows[export.KernelRow](coll, export.DatasetCollectives)
	if err == nil || !strings.Contains(err.Error(), "columns") || !strings.Contains(err.Error(), coll) {
		t.Errorf("another dataset's columns under schema 3: %v", err)
	}
}
