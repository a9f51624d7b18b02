package parse

import (
	"bytes"
	"os"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// BenchmarkParse parses a generated trace held in memory.
func BenchmarkParse(b *testing.B) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Steps: 200, Layers: 8}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		t, err := Read(bytes.NewReader(data), "bench", Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(t.NumEvents()), "events/op")
	}
}

// BenchmarkParseFile parses the file named by TRACETAB_BENCH_FILE (e.g. the
// 1 GB trace that make bench generates) and links it, as info does.
func BenchmarkParseFile(b *testing.B) {
	path := testenv.BenchFile(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		t, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		t.Links()
	}
}
