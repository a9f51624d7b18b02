package pqcol

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/format"
)

// Rows writes rows of a flat struct type T (the fields of Template[T]'s
// schema, in order: int64, int32, float64, bool and string, each also as a
// pointer for an optional column) through a Writer: each batch given to
// Write is gathered at once into a column buffer per field (strings as
// their index in the column chunk's dictionary), which are pointer-free,
// so the rows are not kept and the collector has nothing to mark in them
// (a block of the rows themselves, pointers and all, was marked by every
// collection: +20% instructions for export). It is export's writer for
// its datasets of a row per gap, memory record or op and step, where
// parquet-go's GenericWriter took most of the time of writing them (its
// rows' deconstruction, the dictionaries); a type it cannot take (a list,
// a nested struct) is refused by NewRows and stays with parquet-go.
type Rows[T any] struct {
	w         *Writer
	cols      []field
	rowGroups int64
	inGroup   int64
	n         int // rows gathered in the block
}

// BlockRows are the rows of one block of Rows: one data page per column.
const BlockRows = 8 << 10

type field struct {
	off     uintptr
	kind    reflect.Kind
	pointer bool
	delta   bool // an int64 column tagged delta: DELTA_BINARY_PACKED
	i64     []int64
	i32     []int32
	f64     []float64
	b       []bool
	idx     []int32 // strings: their index in dict
	dict    []string
	byText  map[string]int32
	defs    []byte
}

// NewRows starts a file of rows of T on out, in row groups of rowGroups
// rows; meta is Template[T]'s.
func NewRows[T any](out io.Writer, meta *format.FileMetaData, codec compress.Codec, rowGroups int64) (*Rows[T], error) {
	typ := reflect.TypeFor[T]()
	if typ.Kind() != reflect.Struct {
		return nil, fmt.Errorf("pqcol: %v is not a struct", typ)
	}
	leaves := meta.Schema[1:]
	if typ.NumField() != len(leaves) {
		return nil, fmt.Errorf("pqcol: %v has %d fields for %d columns", typ, typ.NumField(), len(leaves))
	}
	r := &Rows[T]{w: New(out, meta, codec), rowGroups: rowGroups}
	want := map[reflect.Kind]format.Type{reflect.Int64: format.Int64, reflect.Int32: format.Int32,
		reflect.Float64: format.Double, reflect.Bool: format.Boolean, reflect.String: format.ByteArray}
	for k := range typ.NumField() {
		sf := typ.Field(k)
		opts := strings.Split(sf.Tag.Get("parquet"), ",")
		name := opts[0]
		if name != leaves[k].Name {
			return nil, fmt.Errorf("pqcol: field %s is column %q, the schema's is %q", sf.Name, name, leaves[k].Name)
		}
		f := field{off: sf.Offset, kind: sf.Type.Kind()}
		if f.kind == reflect.Pointer {
			f.pointer, f.kind = true, sf.Type.Elem().Kind()
		}
		f.delta = f.kind == reflect.Int64 && slices.Contains(opts[1:], "delta")
		if t, ok := want[f.kind]; !ok || t != r.w.leaves[k].typ || f.pointer != r.w.leaves[k].optional {
			return nil, fmt.Errorf("pqcol: field %s (%v) is not written by columns", sf.Name, sf.Type)
		}
		r.cols = append(r.cols, f)
	}
	return r, nil
}

// Write adds rows.
func (r *Rows[T]) Write(rows []T) error {
	for len(rows) > 0 {
		limit := min(BlockRows, int(r.rowGroups-r.inGroup))
		n := min(limit-r.n, len(rows))
		base := unsafe.Pointer(unsafe.SliceData(rows))
		size := unsafe.Sizeof(rows[0])
		for k := range r.cols {
			r.cols[k].gather(base, size, n)
		}
		r.n += n
		rows = rows[n:]
		if r.n == limit {
			if err := r.flush(); err != nil {
				return err
			}
		}
	}
	return r.w.err
}

// flush writes the block, and ends the row group when it is full.
func (r *Rows[T]) flush() error {
	if r.n == 0 {
		return r.w.err
	}
	w := r.w
	w.BeginBlock(r.n)
	for k := range r.cols {
		f := &r.cols[k]
		var defs []byte
		if f.pointer {
			defs = f.defs
		}
		switch f.kind {
		case reflect.Int64:
			if f.delta {
				w.Int64Delta(f.i64, defs)
			} else {
				w.Int64(f.i64, defs)
			}
		case reflect.Int32:
			w.Int32(f.i32, defs)
		case reflect.Float64:
			w.Float64(f.f64, defs)
		case reflect.Bool:
			w.Bool(f.b, defs)
		case reflect.String:
			w.Indexes(f.idx, defs, f.dict)
		}
		f.i64, f.i32, f.f64, f.b, f.idx, f.defs = f.i64[:0], f.i32[:0], f.f64[:0], f.b[:0], f.idx[:0], f.defs[:0]
	}
	if err := w.EndBlock(); err != nil {
		return err
	}
	r.inGroup += int64(r.n)
	r.n = 0
	if r.inGroup == r.rowGroups {
		r.inGroup = 0
		for k := range r.cols { // a dictionary per column chunk
			r.cols[k].dict, r.cols[k].byText = nil, nil
		}
		return w.EndRowGroup()
	}
	return w.err
}

// gather appends the field of n rows from base to the column's buffers.
func (f *field) gather(base unsafe.Pointer, size uintptr, n int) {
	for i := range n {
		p := unsafe.Add(base, uintptr(i)*size+f.off)
		if f.pointer {
			p = *(*unsafe.Pointer)(p)
			if p == nil {
				f.defs = append(f.defs, 0)
				continue
			}
			f.defs = append(f.defs, 1)
		}
		switch f.kind {
		case reflect.Int64:
			f.i64 = append(f.i64, *(*int64)(p))
		case reflect.Int32:
			f.i32 = append(f.i32, *(*int32)(p))
		case reflect.Float64:
			f.f64 = append(f.f64, *(*float64)(p))
		case reflect.Bool:
			f.b = append(f.b, *(*bool)(p))
		case reflect.String:
			s := *(*string)(p)
			if f.byText == nil {
				f.byText = map[string]int32{}
			}
			k, ok := f.byText[s]
			if !ok {
				k = int32(len(f.dict))
				f.dict = append(f.dict, s)
				f.byText[s] = k
			}
			f.idx = append(f.idx, k)
		}
	}
}

// Close writes the rows left and the footer.
func (r *Rows[T]) Close() error {
	if err := r.flush(); err != nil {
		return err
	}
	return r.w.Close()
}

// Float64 is Int64 for a DOUBLE column. The statistics leave NaN out (a
// page of NaN alone has none) and order -0 before +0, as the format says.
func (w *Writer) Float64(vals []float64, defs []byte) {
	c := w.column(format.Double, len(vals), defs)
	if c == nil {
		return
	}
	var st pageStat
	lo, hi, any := 0.0, 0.0, false
	for _, v := range vals {
		switch {
		case math.IsNaN(v):
		case !any:
			lo, hi, any = v, v, true
		case v < lo || v == lo && math.Signbit(v):
			lo = v
		case v > hi || v == hi && !math.Signbit(v):
			hi = v
		}
	}
	if any {
		c.statF(lo)
		c.statF(hi)
		st = pageStat{true, binary.LittleEndian.AppendUint64(nil, math.Float64bits(lo)), binary.LittleEndian.AppendUint64(nil, math.Float64bits(hi))}
	}
	b := w.scratch[:0] // a local slice, stored back once (as plainInts)
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	w.scratch = b
	w.page(c, defs, b, format.Plain, st)
}

// Indexes gives a BYTE_ARRAY column's block as indices into the column
// chunk's dictionary, which the caller keeps: dict holds every entry so
// far (the entries of the chunk's earlier blocks first, as given then).
func (w *Writer) Indexes(idx []int32, defs []byte, dict []string) {
	c := w.column(format.ByteArray, len(idx), defs)
	if c == nil {
		return
	}
	if len(idx) == 0 {
		w.page(c, defs, nil, format.Plain, pageStat{})
		return
	}
	if len(dict) < len(c.dict) {
		w.err = fmt.Errorf("pqcol: column %s: a dictionary of %d entries after one of %d", c.leaf.name, len(dict), len(c.dict))
		return
	}
	c.dict = dict
	w.idx = append(w.idx[:0], idx...)
	w.indexPage(c, defs)
}
