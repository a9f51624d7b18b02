package dataset

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// TestFooterFits: a footer length beyond the file is refused before
// anything is allocated for it; one that fits, and files without Parquet's
// magic bytes, pass to parquet-go.
func TestFooterFits(t *testing.T) {
	file := func(body int, footer uint32, magic string) []byte {
		b := append([]byte("PAR1"), make([]byte, body)...)
		b = binary.LittleEndian.AppendUint32(b, footer)
		return append(b, magic...)
	}
	for _, c := range []struct {
		name string
		data []byte
		bad  bool
	}{
		{"fits exactly", file(100, 100, "PAR1"), false},
		{"one byte too many", file(100, 101, "PAR1"), true},
		{"flipped high byte", file(100, 100|0xa5<<24, "PAR1"), true},
		{"encrypted footer magic", file(10, 4000, "PARE"), true},
		{"not parquet", file(10, 4000, "JSON"), false},
		{"too short", []byte("PAR1PAR1"), false},
	} {
		err := footerFits(bytes.NewReader(c.data), int64(len(c.data)))
		if (err != nil) != c.bad {
			t.Errorf("%s: %v, want refused %v", c.name, err, c.bad)
		}
		if err != nil && !strings.Contains(err.Error(), "footer claims") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
