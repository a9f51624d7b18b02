package parse

import (
	"bytes"
	"os"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// readModes are the readings the commands ask for: full (check, diff,
// export), lean (table, crop, memory), bare (info, gaps, critical-path,
// ranks), shapes (roofline) and dims (report).
var readModes = []struct {
	name string
	opts Options
}{
	{"full", Options{}},
	{"lean", Options{NoExtras: true}},
	{"bare", Options{NoExtras: true, NoMemory: true}},
	{"shapes", Options{ShapesOnly: true, NoMemory: true}},
	{"dims", Options{DimsOnly: true}},
}

// BenchmarkParse parses each benchmark shape (gen.BenchShapes: the
// default, the Kineto style and its deep export form) held in memory, in
// each reading a command asks for (readModes).
func BenchmarkParse(b *testing.B) {
	for _, sh := range gen.BenchShapes() {
		var buf bytes.Buffer
		if _, err := gen.Write(&buf, sh.Cfg); err != nil {
			b.Fatal(err)
		}
		data := buf.Bytes()
		for _, o := range readModes {
			b.Run(sh.Name+"/"+o.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					t, err := Read(bytes.NewReader(data), "bench", o.opts)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(t.NumEvents()), "events/op")
				}
			})
		}
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
