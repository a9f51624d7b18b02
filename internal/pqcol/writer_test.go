package pqcol

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
)

type row struct {
	ID   int64   `parquet:"id"`
	N    *int32  `parquet:"n,optional"`
	Name *string `parquet:"name,optional,dict"`
	Flag bool    `parquet:"flag"`
	T    *int64  `parquet:"t,optional"`
}

func ptr[T any](v T) *T { return &v }

// roundTripNames are the dictionary of the string column's keys.
var roundTripNames = []string{"a", "b"}

func roundTripText(k uint32) string { return roundTripNames[k] }

// roundTripBlocks writes TestRoundTrip's rows: a block of 3 rows, the end
// of a row group, a block of 2 rows whose names are all null.
func roundTripBlocks(t *testing.T, w *Writer) {
	t.Helper()
	w.BeginBlock(3)
	w.Int64([]int64{1, 2, 3}, nil)
	w.Int32([]int32{7}, []byte{0, 1, 0})
	w.Strings([]uint32{1, 0}, []byte{1, 0, 1}, roundTripText)
	w.Bool([]bool{true, false, true}, nil)
	w.Int64Delta([]int64{100, 90}, []byte{1, 1, 0})
	if err := w.EndBlock(); err != nil {
		t.Fatal(err)
	}
	if err := w.EndRowGroup(); err != nil {
		t.Fatal(err)
	}
	w.BeginBlock(2)
	w.Int64([]int64{-4, 5}, nil)
	w.Int32([]int32{8, 9}, nil)
	w.Strings(nil, []byte{0, 0}, roundTripText)
	w.Bool([]bool{false, false}, nil)
	w.Int64Delta(nil, []byte{0, 0})
	if err := w.EndBlock(); err != nil {
		t.Fatal(err)
	}
}

// TestRoundTrip: blocks and row groups written by columns read back as the
// rows they hold, nulls included (a block whose string column is all null
// too), through parquet-go's reader.
func TestRoundTrip(t *testing.T) {
	meta, err := Template[row]()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := New(&b, meta, &snappy.Codec{})
	if got := strings.Join(w.Columns(), ","); got != "id,n,name,flag,t" {
		t.Fatalf("columns %s", got)
	}
	roundTripBlocks(t, w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := parquet.Read[row](bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	want := []row{{1, nil, ptr("b"), true, ptr[int64](100)}, {2, ptr[int32](7), nil, false, ptr[int64](90)}, {3, nil, ptr("a"), true, nil},
		{-4, ptr[int32](8), nil, false, nil}, {5, ptr[int32](9), nil, false, nil}}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for k := range want {
		g, w := got[k], want[k]
		if g.ID != w.ID || g.Flag != w.Flag || (g.N == nil) != (w.N == nil) || (g.N != nil && *g.N != *w.N) ||
			(g.Name == nil) != (w.Name == nil) || (g.Name != nil && *g.Name != *w.Name) ||
			(g.T == nil) != (w.T == nil) || (g.T != nil && *g.T != *w.T) {
			t.Errorf("row %d: %+v, want %+v", k, g, w)
		}
	}
	f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.Metadata().RowGroups); n != 2 {
		t.Errorf("%d row groups, want 2", n)
	}
}

// TestMisuse: a null in a required column, a column of another type,
// too few columns in a block and too few values for the levels are errors
// that name the column, never a file that reads wrong.
func TestMisuse(t *testing.T) {
	meta, err := Template[row]()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(w *Writer) error{
		"id is required": func(w *Writer) error {
			w.BeginBlock(2)
			w.Int64([]int64{1}, []byte{1, 0})
			return w.EndBlock()
		},
		"column n is of type": func(w *Writer) error {
			w.BeginBlock(1)
			w.Int64([]int64{1}, nil)
			w.Int64([]int64{1}, nil)
			return w.EndBlock()
		},
		"ended after 1 of 5": func(w *Writer) error {
			w.BeginBlock(1)
			w.Int64([]int64{1}, nil)
			return w.EndBlock()
		},
		"1 values for 2 non-null": func(w *Writer) error {
			w.BeginBlock(2)
			w.Int64([]int64{1}, nil)
			return w.EndBlock()
		},
	}
	for want, f := range cases {
		var b bytes.Buffer
		err := f(New(&b, meta, &snappy.Codec{}))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
}

// TestNestedRefused: a schema with a nested column is refused by Template.
func TestNestedRefused(t *testing.T) {
	type nested struct {
		L []string `parquet:"l,list"`
	}
	if _, err := Template[nested](); err == nil {
		t.Error("a list column was taken")
	}
}
