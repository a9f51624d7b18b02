package exportview

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/export"
)

// TestJSON: the files in the order of their paths, a failed trace under
// errors only, a duplicate with same_as, no partition as [], and the
// totals as the summary has them.
func TestJSON(t *testing.T) {
	rows := map[string]int64{export.DatasetEvents: 10}
	results := []*export.Result{
		{Path: "c.json", TraceID: "c1", Rows: rows, Bytes: 300, Elapsed: 3 * time.Millisecond},
		{Path: "a.json", Err: errors.New("a.json: cannot open")},
		{Path: "b.json", TraceID: "c1", Dup: "c.json", Rows: map[string]int64{}},
	}
	var b bytes.Buffer
	if err := JSON(&b, "out", nil, 3, &export.Summary{Traces: 1, Failed: 1, Duplicates: 1, Rows: rows, Bytes: 300}, results); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema    string   `json:"schema"`
		Partition []string `json:"partition"`
		Inputs    int      `json:"inputs"`
		Failed    int      `json:"failed"`
		Files     []struct {
			Path      string  `json:"path"`
			SameAs    *string `json:"same_as"`
			ElapsedNs int64   `json:"elapsed_ns"`
		} `json:"files"`
		Errors []struct{ Path, Error string } `json:"errors"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if doc.Schema != ExportSchema || doc.Partition == nil || len(doc.Partition) != 0 || doc.Inputs != 3 || doc.Failed != 1 {
		t.Errorf("header %+v", doc)
	}
	if len(doc.Files) != 2 || doc.Files[0].Path != "b.json" || doc.Files[1].Path != "c.json" ||
		doc.Files[0].SameAs == nil || *doc.Files[0].SameAs != "c.json" || doc.Files[1].SameAs != nil || doc.Files[1].ElapsedNs != 3_000_000 {
		t.Errorf("files %+v", doc.Files)
	}
	if len(doc.Errors) != 1 || doc.Errors[0].Path != "a.json" || !strings.Contains(doc.Errors[0].Error, "cannot open") {
		t.Errorf("errors %+v", doc.Errors)
	}
	if !strings.Contains(b.String(), "\"partition\": []") {
		t.Errorf("no partition is written as []:\n%s", b.String())
	}
}
