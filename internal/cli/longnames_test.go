package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/testenv"
)

// --long-names prints every kernel's full (demangled) name in the text
// kernel view, where the default prints its label within the width.
func TestLongNames(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "traces", "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
	js, _, _ := run(t, "table", "--by", "kernel", path, "--format", "json", "--limit", "-1")
	long, _, code := run(t, "table", "--by", "kernel", path, "--long-names", "--width", "80", "--limit", "-1")
	short, _, _ := run(t, "table", "--by", "kernel", path, "--width", "80", "--limit", "-1")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Kernels []struct{ Name, Label string } `json:"kernels"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	cut := 0
	for _, k := range doc.Kernels {
		full := names.Demangle(k.Name)
		if !strings.Contains(long, full) {
			t.Errorf("--long-names: %q not printed whole", full)
		}
		if !strings.Contains(short, full) {
			cut++
		}
	}
	if cut == 0 {
		t.Error("no name was cut at 80 columns: the check says nothing")
	}
}
