package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no input makes the parser panic or hang; errors are *Error.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "quirks", "*.json"))
	seeds = append(seeds, filepath.Join("..", "..", "testdata", "sample.pt.trace.json"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"traceEvents":[{"ph":"X","ts":"1.5","dur":N/A}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Read(bytes.NewReader(data), "fuzz", Options{AllowTruncated: true})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		tr.Links()
	})
}
