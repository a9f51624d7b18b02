package pqcol

import (
	"bytes"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/format"
)

type deltaRow struct {
	Seq   int64  `parquet:"seq,delta"`
	Plain int64  `parquet:"plain"`
	At    *int64 `parquet:"at,optional"` // parquet-go takes delta on required columns only
	Time  int64  `parquet:"time,delta"`
}

// TestRowsDeltaTag: an int64 field tagged delta is written in
// DELTA_BINARY_PACKED by Rows (as parquet-go's own writer does), an
// untagged one in PLAIN, and both read back as written, nulls included,
// over several blocks and row groups.
func TestRowsDeltaTag(t *testing.T) {
	meta, err := Template[deltaRow]()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w, err := NewRows[deltaRow](&b, meta, &snappy.Codec{}, 3*BlockRows/2)
	if err != nil {
		t.Fatal(err)
	}
	var want []deltaRow
	for k := range int64(4 * BlockRows) {
		r := deltaRow{Seq: k * 3, Plain: (k * 7919) % 1013}
		if k%5 != 0 {
			r.At = ptr(k % 11)
		}
		r.Time = 1_700_000_000_000_000_000 + k*1000 - k%3*2000
		want = append(want, r)
	}
	for k := 0; k < len(want); k += 1000 {
		if err := w.Write(want[k:min(k+1000, len(want))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := parquet.Read[deltaRow](bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for k := range want {
		g, w := got[k], want[k]
		if g.Seq != w.Seq || g.Plain != w.Plain || (g.At == nil) != (w.At == nil) || (g.At != nil && *g.At != *w.At) || g.Time != w.Time {
			t.Fatalf("row %d: %+v, want %+v", k, g, w)
		}
	}
	f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	groups := f.Metadata().RowGroups
	if len(groups) != 3 {
		t.Fatalf("%d row groups, want 3", len(groups))
	}
	for _, g := range groups {
		for k, delta := range []bool{true, false, false, true} {
			enc := g.Columns[k].MetaData.Encoding
			if slices.Contains(enc, format.DeltaBinaryPacked) != delta || slices.Contains(enc, format.Plain) == delta {
				t.Errorf("column %s: encodings %v, want delta %v", g.Columns[k].MetaData.PathInSchema, enc, delta)
			}
		}
	}
}
