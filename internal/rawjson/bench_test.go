package rawjson

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// BenchmarkDecode decodes the largest shared trace.
func BenchmarkDecode(b *testing.B) {
	path := filepath.Join(testenv.Shared(b), "traces", "TraceLens__h100__google_owlv2-large-patch14-ensemble__1016001.json.gz")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	data = gunzip(b, data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

func gunzip(b *testing.B, data []byte) []byte {
	d, err := inflate(data)
	if err != nil {
		b.Fatal(err)
	}
	return d
}
