package rawjson

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDecode decodes the largest shared trace (TRACETAB_SHARED or ../shared).
func BenchmarkDecode(b *testing.B) {
	path := filepath.Join("..", "..", "..", "shared", "traces", "TraceLens__h100__google_owlv2-large-patch14-ensemble__1016001.json.gz")
	if _, err := os.Stat(path); err != nil {
		b.Skip(err)
	}
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
