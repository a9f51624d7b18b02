package hostile

import (
	"io"

	"github.com/parquet-go/parquet-go"
)

// Damaged Parquet files for a reader of tracetab export's datasets: each
// takes a good file's bytes (or writes a file of its own) and returns what
// a broken copy, a half-finished transfer or a stranger's file holds.

// Truncated is the file cut to its first n bytes (n below its length):
// a copy that stopped half way.
func Truncated(good []byte, n int) []byte { return append([]byte(nil), good[:min(n, len(good))]...) }

// CorruptFooter is the file with the middle of its footer (the Thrift
// metadata before the closing length and magic) overwritten with 0xff.
func CorruptFooter(good []byte) []byte {
	b := append([]byte(nil), good...)
	if len(b) < 12 {
		return b
	}
	n := int(uint32(b[len(b)-8]) | uint32(b[len(b)-7])<<8 | uint32(b[len(b)-6])<<16 | uint32(b[len(b)-5])<<24)
	start := max(4, len(b)-8-n)
	for i := start + n/4; i < start+n/2 && i < len(b)-8; i++ {
		b[i] = 0xff
	}
	return b
}

// NotParquet is text with a .parquet name: no magic at either end.
func NotParquet(out io.Writer) error {
	_, err := io.WriteString(out, "trace_id,rank\nabc,0\n")
	return err
}

// foreignRow is a stranger's table.
type foreignRow struct {
	ID    int64   `parquet:"id"`
	Value float64 `parquet:"value"`
}

// Foreign is a valid Parquet file of n rows that no tracetab wrote: no
// tracetab metadata, other columns.
func Foreign(out io.Writer, n int) error {
	w := parquet.NewGenericWriter[foreignRow](out)
	for i := range n {
		if _, err := w.Write([]foreignRow{{ID: int64(i), Value: float64(i) / 2}}); err != nil {
			return err
		}
	}
	return w.Close()
}

// Pretender is a valid Parquet file of n rows whose metadata names a
// tracetab schema and dataset (any version and name the caller gives)
// but whose columns are a stranger's.
func Pretender(out io.Writer, n int, schema, dataset string) error {
	w := parquet.NewGenericWriter[foreignRow](out,
		parquet.KeyValueMetadata("tracetab.schema", schema),
		parquet.KeyValueMetadata("tracetab.dataset", dataset))
	for i := range n {
		if _, err := w.Write([]foreignRow{{ID: int64(i)}}); err != nil {
			return err
		}
	}
	return w.Close()
}

// Restamped is the good file with its metadata's schema version replaced
// by another of the same length ("tracetab.parquet/2" to
// "tracetab.parquet/1"): a file of another version, columns unchanged.
func Restamped(good []byte, from, to string) []byte {
	b := append([]byte(nil), good...)
	if len(from) != len(to) {
		return b
	}
	for i := 0; i+len(from) <= len(b); i++ {
		if string(b[i:i+len(from)]) == from {
			copy(b[i:], to)
		}
	}
	return b
}
