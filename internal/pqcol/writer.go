// Package pqcol writes a Parquet file of a flat schema a column at a time,
// from typed slices, without building rows.
//
// Why it exists: export's events dataset (one row per event, 34 columns)
// went through parquet-go's GenericWriter, which takes rows as Go structs
// (optional columns as pointers) and deconstructs them into its column
// buffers. On the 200 MB export-shape trace that took 0.53 s of a 2.9 s
// export (0.6 s for info), most of it the row-to-column path and the
// dictionaries' hashing of every string value. Here the caller fills a
// block of rows column by column (ints as they are, strings as keys it
// already has, such as interned string ids) and the writer encodes each
// block as one data page per column: PLAIN values, RLE definition levels,
// RLE_DICTIONARY indices over a dictionary kept per column chunk.
//
// The schema, the created-by text and the key-value metadata are taken
// from a file parquet-go wrote (Template), so the columns' types and
// logical types are exactly those parquet-go gives the same Go struct;
// readers see the same columns, values and statistics, in other pages.
package pqcol

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/delta"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Template is the metadata parquet-go writes for rows of type T with
// options: its schema, created-by and key-value metadata, read back from
// an empty file written in memory.
func Template[T any](options ...parquet.WriterOption) (*format.FileMetaData, error) {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b, options...)
	if err := w.Close(); err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		return nil, err
	}
	m := *f.Metadata()
	m.RowGroups, m.NumRows = nil, 0
	for _, s := range m.Schema[1:] {
		if n, ok := s.NumChildren.Get(); ok && n > 0 {
			return nil, fmt.Errorf("pqcol: column %s is nested; only flat schemas are written", s.Name)
		}
		if r, _ := s.RepetitionType.Get(); r == format.Repeated {
			return nil, fmt.Errorf("pqcol: column %s is repeated; only flat schemas are written", s.Name)
		}
	}
	return &m, nil
}

// Writer writes one file. Columns are given in schema order, a block of
// rows at a time: BeginBlock, then one call per column, then EndBlock.
// A row group holds whole blocks; EndRowGroup writes its column chunks.
type Writer struct {
	out     io.Writer
	off     int64
	err     error
	meta    format.FileMetaData
	codec   compress.Codec
	leaves  []leaf
	chunks  []chunk
	block   int // rows of the current block
	col     int // next column of the block
	rgRows  int64
	scratch []byte
	levels  []byte
	packed  []byte
	idx     []int32
	comp    []byte
	stamp   uint32 // Strings' mark of the entries a page has met
	present int    // the non-null values of the column's block
	// the page index, written before the footer: the column chunks'
	// column indexes (a page's least and largest values, nulls) one after
	// the other in row group and column order, and their offset indexes
	// (where each page is) likewise; sizes holds each chunk's two lengths
	indexes [2][]byte
	sizes   [][2]int32
	ci      format.ColumnIndex // reused
	oi      format.OffsetIndex
	hdr     []byte // a dictionary page's header, the footer
}

type leaf struct {
	name     string
	typ      format.Type
	optional bool
}

// New starts a file on out with meta's schema (from Template).
func New(out io.Writer, meta *format.FileMetaData, codec compress.Codec) *Writer {
	w := &Writer{out: out, meta: *meta, codec: codec}
	w.meta.RowGroups, w.meta.NumRows = nil, 0
	for _, s := range meta.Schema[1:] {
		t, _ := s.Type.Get()
		r, _ := s.RepetitionType.Get()
		w.leaves = append(w.leaves, leaf{name: s.Name, typ: t, optional: r == format.Optional})
	}
	w.chunks = make([]chunk, len(w.leaves))
	w.write([]byte("PAR1"))
	return w
}

// Columns are the leaves' names in order.
func (w *Writer) Columns() []string {
	out := make([]string, len(w.leaves))
	for k, l := range w.leaves {
		out[k] = l.name
	}
	return out
}

func (w *Writer) write(b []byte) {
	if w.err != nil {
		return
	}
	n, err := w.out.Write(b)
	w.off += int64(n)
	w.err = err
}

// BeginBlock starts a block of rows rows.
func (w *Writer) BeginBlock(rows int) {
	if w.col != 0 && w.err == nil {
		w.err = fmt.Errorf("pqcol: block started after %d of %d columns", w.col, len(w.leaves))
	}
	w.block, w.col = rows, 0
}

// EndBlock checks that every column of the block was given.
func (w *Writer) EndBlock() error {
	if w.err == nil && w.col != len(w.leaves) {
		w.err = fmt.Errorf("pqcol: block ended after %d of %d columns", w.col, len(w.leaves))
	}
	w.col = 0
	w.rgRows += int64(w.block)
	return w.err
}

// next checks the next column against the call's type and returns it.
func (w *Writer) next(typ format.Type, defs []byte) *chunk {
	if w.err != nil {
		return nil
	}
	if w.col >= len(w.leaves) {
		w.err = fmt.Errorf("pqcol: more columns than the schema's %d", len(w.leaves))
		return nil
	}
	l := &w.leaves[w.col]
	if l.typ != typ {
		w.err = fmt.Errorf("pqcol: column %s is of type %v, given %v", l.name, l.typ, typ)
		return nil
	}
	if defs != nil && len(defs) != w.block {
		w.err = fmt.Errorf("pqcol: column %s: %d levels for a block of %d rows", l.name, len(defs), w.block)
		return nil
	}
	if !l.optional && defs != nil {
		for _, d := range defs {
			if d == 0 {
				w.err = fmt.Errorf("pqcol: column %s is required and a value is null", l.name)
				return nil
			}
		}
		defs = nil
	}
	c := &w.chunks[w.col]
	c.leaf = l
	w.col++
	return c
}

// Int64 gives the next column's block: vals holds the non-null values in
// row order; defs (nil: none is null) 1 for a value, 0 for a null.
func (w *Writer) Int64(vals []int64, defs []byte) { plainInts(w, format.Int64, vals, defs) }

// Int32 is Int64 for an INT32 column.
func (w *Writer) Int32(vals []int32, defs []byte) { plainInts(w, format.Int32, vals, defs) }

// plainInts writes an INT64 or INT32 block in PLAIN: little-endian values.
func plainInts[T int32 | int64](w *Writer, typ format.Type, vals []T, defs []byte) {
	c := w.column(typ, len(vals), defs)
	if c == nil {
		return
	}
	st := intStat(c, vals)
	// appended to a local slice, stored back once: a slice header stored
	// into the Writer per value paid the write barrier while the collector
	// marked
	b := w.scratch[:0]
	for _, v := range vals {
		b = appendLE(b, v)
	}
	w.scratch = b
	w.page(c, defs, b, format.Plain, st)
}

// appendLE appends v little-endian in its own width.
func appendLE[T int32 | int64](b []byte, v T) []byte {
	if unsafe.Sizeof(v) == 4 {
		return binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return binary.LittleEndian.AppendUint64(b, uint64(v))
}

// intStat is the page statistics of an integer block, folded into the
// chunk's.
func intStat[T int32 | int64](c *chunk, vals []T) pageStat {
	if len(vals) == 0 {
		return pageStat{}
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	c.stat64(int64(lo))
	c.stat64(int64(hi))
	return pageStat{true, appendLE(nil, lo), appendLE(nil, hi)}
}

// Int64Delta is Int64 in DELTA_BINARY_PACKED: for a column whose values
// mostly grow (indices, start times), which it writes as small deltas, so
// that the compression has a fraction of the bytes to read.
func (w *Writer) Int64Delta(vals []int64, defs []byte) {
	c := w.column(format.Int64, len(vals), defs)
	if c == nil {
		return
	}
	if len(vals) == 0 {
		w.page(c, defs, nil, format.Plain, pageStat{})
		return
	}
	st := intStat(c, vals)
	var err error
	w.scratch, err = (&delta.BinaryPackedEncoding{}).EncodeInt64(w.scratch[:0], vals)
	if err != nil {
		w.err = err
		return
	}
	w.page(c, defs, w.scratch, format.DeltaBinaryPacked, st)
}

// Bool is Int64 for a BOOLEAN column.
func (w *Writer) Bool(vals []bool, defs []byte) {
	c := w.column(format.Boolean, len(vals), defs)
	if c == nil {
		return
	}
	w.scratch = w.scratch[:0]
	var b byte
	var st pageStat
	lo, hi := byte(1), byte(0)
	for k, v := range vals {
		if v {
			b |= 1 << (k % 8)
			hi = 1
		} else {
			lo = 0
		}
		if k%8 == 7 {
			w.scratch = append(w.scratch, b)
			b = 0
		}
	}
	if len(vals)%8 != 0 {
		w.scratch = append(w.scratch, b)
	}
	if len(vals) > 0 {
		c.stat64(int64(lo))
		c.stat64(int64(hi))
		st = pageStat{true, []byte{lo}, []byte{hi}}
	}
	w.page(c, defs, w.scratch, format.Plain, st)
}

// Strings gives a BYTE_ARRAY column's block as keys of the caller's (an
// interned string's id, say): keys holds the non-null values in row
// order, text gives a key's string the first time the chunk meets it. The
// column is dictionary-encoded, one dictionary per column chunk.
func (w *Writer) Strings(keys []uint32, defs []byte, text func(key uint32) string) {
	c := w.column(format.ByteArray, len(keys), defs)
	if c == nil {
		return
	}
	if len(keys) == 0 {
		// every row of the block is null: a PLAIN page of no values, so
		// that a chunk of nulls alone has no (empty) dictionary
		w.page(c, defs, nil, format.Plain, pageStat{})
		return
	}
	if c.pos == nil {
		c.pos = map[uint32]int32{}
	}
	w.idx = w.idx[:0]
	last, lastIdx := uint32(0), int32(-1)
	for _, k := range keys {
		if lastIdx >= 0 && k == last {
			w.idx = append(w.idx, lastIdx)
			continue
		}
		i, ok := c.pos[k]
		if !ok {
			i = int32(len(c.dict))
			c.dict = append(c.dict, text(k))
			c.pos[k] = i
		}
		last, lastIdx = k, i
		w.idx = append(w.idx, i)
	}
	w.indexPage(c, defs)
}

// indexPage writes the block's dictionary indices (w.idx) as an
// RLE_DICTIONARY page, with the page's least and largest strings.
func (w *Writer) indexPage(c *chunk, defs []byte) {
	c.dictEncoded = true
	// each distinct entry compared once
	w.stamp++
	for len(c.seen) < len(c.dict) {
		c.seen = append(c.seen, 0)
	}
	lo, hi := "", ""
	first := true
	for _, i := range w.idx {
		if c.seen[i] == w.stamp {
			continue
		}
		c.seen[i] = w.stamp
		d := c.dict[i]
		if first {
			lo, hi, first = d, d, false
			continue
		}
		lo, hi = min(lo, d), max(hi, d)
	}
	var err error
	w.scratch, err = (&rle.DictionaryEncoding{}).EncodeInt32(w.scratch[:0], w.idx)
	if err != nil {
		w.err = err
		return
	}
	w.page(c, defs, w.scratch, format.RLEDictionary, pageStat{true, []byte(lo), []byte(hi)})
}

// pageStat is a page's least and largest values, encoded as in
// statistics (ok: the page has a value).
type pageStat struct {
	ok     bool
	lo, hi []byte
}

// column is the next column's chunk for a block of n values of type typ
// with levels defs, its values and nulls counted; nil on an error.
func (w *Writer) column(typ format.Type, n int, defs []byte) *chunk {
	c := w.next(typ, defs)
	if c == nil || !w.count(c, n, defs) {
		return nil
	}
	return c
}

// count checks vals against defs and counts the chunk's values and nulls.
func (w *Writer) count(c *chunk, vals int, defs []byte) bool {
	present := w.block
	if defs != nil {
		present = 0
		for _, d := range defs {
			present += int(d)
		}
	}
	if present != vals {
		w.err = fmt.Errorf("pqcol: column %s: %d values for %d non-null rows", c.leaf.name, vals, present)
		return false
	}
	c.values += int64(w.block)
	c.nulls += int64(w.block - vals)
	w.present = vals
	return true
}

// page compresses one data page (v1) of the block: the definition levels
// (optional columns), then the encoded values, and keeps it in the chunk.
func (w *Writer) page(c *chunk, defs []byte, values []byte, enc format.Encoding, st pageStat) {
	body := w.packed[:0]
	if c.leaf.optional {
		if defs == nil {
			w.levels = w.levels[:0]
			for range w.block {
				w.levels = append(w.levels, 1)
			}
			defs = w.levels
		}
		body = append(body, 0, 0, 0, 0)
		var err error
		lv, err := (&rle.Encoding{BitWidth: 1}).EncodeLevels(w.comp[:0], defs)
		if err != nil {
			w.err = err
			return
		}
		w.comp = lv
		binary.LittleEndian.PutUint32(body, uint32(len(lv)))
		body = append(body, lv...)
	}
	body = append(body, values...)
	w.packed = body
	comp, err := w.codec.Encode(w.comp[:0], body)
	if err != nil {
		w.err = err
		return
	}
	w.comp = comp
	h := format.PageHeader{
		Type:                 format.DataPage,
		UncompressedPageSize: int32(len(body)),
		CompressedPageSize:   int32(len(comp)),
		DataPageHeader: thrift.New(format.DataPageHeader{
			NumValues:               int32(w.block),
			Encoding:                enc,
			DefinitionLevelEncoding: format.RLE,
			RepetitionLevelEncoding: format.RLE,
			Statistics:              format.Statistics{NullCount: int64(w.block - w.present), MinValue: st.lo, MaxValue: st.hi},
		}),
	}
	at := len(c.pages)
	c.pages, err = appendPageHeader(c.pages, &h)
	if err != nil {
		w.err = err
		return
	}
	hlen := len(c.pages) - at
	c.locs = append(c.locs, pageLoc{rel: int64(at), size: int32(hlen + len(comp)),
		firstRow: c.values - int64(w.block), nulls: int64(w.block - w.present), stat: st})
	c.pages = append(c.pages, comp...)
	c.encodings |= 1 << enc
	c.uncompressed += int64(hlen + len(body))
	c.dataPages++
}

// chunk is one column's part of the row group being written.
type chunk struct {
	leaf         *leaf
	pages        []byte // page headers and compressed bodies
	values       int64  // rows, nulls included
	nulls        int64
	uncompressed int64
	dataPages    int
	hasStat      bool
	min, max     int64
	dictEncoded  bool
	encodings    uint64 // a bit per format.Encoding of the data pages
	dict         []string
	pos          map[uint32]int32
	seen         []uint32 // per dictionary entry: the stamp of the last page that met it
	hasF         bool
	fmin, fmax   float64
	locs         []pageLoc
}

// pageLoc is a data page of a chunk: where it is in the chunk's pages,
// its size with its header, its first row in the row group, its nulls
// and its least and largest values.
type pageLoc struct {
	rel      int64
	size     int32
	firstRow int64
	nulls    int64
	stat     pageStat
}

// statF folds a DOUBLE value (not NaN) into the chunk's statistics, -0
// before +0.
func (c *chunk) statF(v float64) {
	switch {
	case !c.hasF:
		c.fmin, c.fmax, c.hasF = v, v, true
	case v < c.fmin || v == c.fmin && math.Signbit(v):
		c.fmin = v
	case v > c.fmax || v == c.fmax && !math.Signbit(v):
		c.fmax = v
	}
}

func (c *chunk) stat64(v int64) {
	if !c.hasStat {
		c.min, c.max, c.hasStat = v, v, true
		return
	}
	c.min = min(c.min, v)
	c.max = max(c.max, v)
}

func (c *chunk) reset() {
	pages, locs := c.pages[:0], c.locs[:0]
	*c = chunk{pages: pages, locs: locs}
}

// EndRowGroup writes the row group's column chunks (a column's dictionary
// page, then its data pages) and records them for the footer.
func (w *Writer) EndRowGroup() error {
	if w.err != nil {
		return w.err
	}
	if w.col != 0 {
		w.err = fmt.Errorf("pqcol: row group ended inside a block")
		return w.err
	}
	if w.rgRows == 0 {
		return nil
	}
	rg := format.RowGroup{NumRows: w.rgRows, FileOffset: w.off, Ordinal: int16(len(w.meta.RowGroups))}
	for k := range w.chunks {
		c := &w.chunks[k]
		if c.leaf == nil {
			w.err = fmt.Errorf("pqcol: column %s was never given", w.leaves[k].name)
			return w.err
		}
		start := w.off
		md := format.ColumnMetaData{
			Type:         c.leaf.typ,
			PathInSchema: []string{c.leaf.name},
			Codec:        w.codec.CompressionCodec(),
			NumValues:    c.values,
		}
		var uncompressed int64
		encs := c.encodings | 1<<format.RLE // the levels'
		if c.dictEncoded {
			md.DictionaryPageOffset = w.off
			n, err := w.dictPage(c)
			if err != nil {
				w.err = err
				return err
			}
			uncompressed += n
			encs |= 1 << format.Plain // the dictionary's
		}
		for e := range format.Encoding(64) {
			if encs&(1<<e) != 0 {
				md.Encoding = append(md.Encoding, e)
			}
		}
		md.DataPageOffset = w.off
		if err := w.pageIndex(c, w.off); err != nil {
			w.err = err
			return err
		}
		w.write(c.pages)
		uncompressed += c.uncompressed
		md.TotalUncompressedSize = uncompressed
		md.TotalCompressedSize = w.off - start
		md.Statistics = c.statistics()
		rg.Columns = append(rg.Columns, format.ColumnChunk{FileOffset: start, MetaData: md})
		rg.TotalByteSize += uncompressed
		rg.TotalCompressedSize += md.TotalCompressedSize
		c.reset()
	}
	w.meta.RowGroups = append(w.meta.RowGroups, rg)
	w.meta.NumRows += w.rgRows
	w.rgRows = 0
	return w.err
}

// pageIndex appends the chunk's column index and offset index (thrift)
// to w.indexes, its data pages starting at the file offset at.
func (w *Writer) pageIndex(c *chunk, at int64) error {
	col, off := &w.ci, &w.oi
	col.NullPages, col.MinValues, col.MaxValues, col.NullCounts = col.NullPages[:0], col.MinValues[:0], col.MaxValues[:0], col.NullCounts[:0]
	off.PageLocations = off.PageLocations[:0]
	for _, p := range c.locs {
		col.NullPages = append(col.NullPages, !p.stat.ok)
		lo, hi := p.stat.lo, p.stat.hi
		if lo == nil {
			lo, hi = []byte{}, []byte{}
		}
		col.MinValues = append(col.MinValues, lo)
		col.MaxValues = append(col.MaxValues, hi)
		col.NullCounts = append(col.NullCounts, p.nulls)
		off.PageLocations = append(off.PageLocations, format.PageLocation{Offset: at + p.rel, CompressedPageSize: p.size, FirstRowIndex: p.firstRow})
	}
	col.BoundaryOrder = format.Unordered
	n0, n1 := len(w.indexes[0]), len(w.indexes[1])
	var err error
	if w.indexes[0], err = appendColumnIndex(w.indexes[0], col); err != nil {
		return err
	}
	if w.indexes[1], err = appendOffsetIndex(w.indexes[1], off); err != nil {
		return err
	}
	sizes := [2]int{len(w.indexes[0]) - n0, len(w.indexes[1]) - n1}
	if max(sizes[0], sizes[1]) > math.MaxInt32 {
		return fmt.Errorf("pqcol: page index of %d bytes", max(sizes[0], sizes[1]))
	}
	w.sizes = append(w.sizes, [2]int32{int32(sizes[0]), int32(sizes[1])})
	return nil
}

// dictPage writes a chunk's dictionary (PLAIN) and returns its
// uncompressed size, header included.
func (w *Writer) dictPage(c *chunk) (int64, error) {
	body := w.packed[:0]
	for _, s := range c.dict {
		body = binary.LittleEndian.AppendUint32(body, uint32(len(s)))
		body = append(body, s...)
	}
	w.packed = body
	comp, err := w.codec.Encode(w.comp[:0], body)
	if err != nil {
		return 0, err
	}
	w.comp = comp
	h := format.PageHeader{
		Type:                 format.DictionaryPage,
		UncompressedPageSize: int32(len(body)),
		CompressedPageSize:   int32(len(comp)),
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(len(c.dict)), Encoding: format.Plain}),
	}
	hb, err := appendPageHeader(w.hdr[:0], &h)
	if err != nil {
		return 0, err
	}
	w.hdr = hb
	w.write(hb)
	w.write(comp)
	return int64(len(hb) + len(body)), w.err
}

// statistics are the chunk's null count and its least and largest values
// in the column type's order (signed for ints, bytewise for strings).
func (c *chunk) statistics() format.Statistics {
	s := format.Statistics{NullCount: c.nulls}
	switch c.leaf.typ {
	case format.Int64:
		if c.hasStat {
			s.MinValue = binary.LittleEndian.AppendUint64(nil, uint64(c.min))
			s.MaxValue = binary.LittleEndian.AppendUint64(nil, uint64(c.max))
		}
	case format.Int32:
		if c.hasStat {
			s.MinValue = binary.LittleEndian.AppendUint32(nil, uint32(int32(c.min)))
			s.MaxValue = binary.LittleEndian.AppendUint32(nil, uint32(int32(c.max)))
		}
	case format.Double:
		if c.hasF {
			s.MinValue = binary.LittleEndian.AppendUint64(nil, math.Float64bits(c.fmin))
			s.MaxValue = binary.LittleEndian.AppendUint64(nil, math.Float64bits(c.fmax))
		}
	case format.Boolean:
		if c.hasStat {
			s.MinValue, s.MaxValue = []byte{byte(c.min)}, []byte{byte(c.max)}
		}
	case format.ByteArray:
		if len(c.dict) > 0 {
			lo, hi := c.dict[0], c.dict[0]
			for _, d := range c.dict[1:] {
				lo, hi = min(lo, d), max(hi, d)
			}
			s.MinValue, s.MaxValue = []byte(lo), []byte(hi)
		}
	}
	return s
}

// Close ends the open row group and writes the footer.
func (w *Writer) Close() error {
	if err := w.EndRowGroup(); err != nil {
		return err
	}
	// every column index, then every offset index, in row group and
	// column order (as parquet-mr and parquet-go place them)
	for kind := range 2 {
		k, at := 0, w.off
		for g := range w.meta.RowGroups {
			cols := w.meta.RowGroups[g].Columns
			for j := range cols {
				n := w.sizes[k][kind]
				if kind == 0 {
					cols[j].ColumnIndexOffset, cols[j].ColumnIndexLength = at, n
				} else {
					cols[j].OffsetIndexOffset, cols[j].OffsetIndexLength = at, n
				}
				at += int64(n)
				k++
			}
		}
		if len(w.indexes[kind]) > 0 {
			w.write(w.indexes[kind])
		}
	}
	b, err := appendFileMetaData(w.hdr[:0], &w.meta)
	if err != nil {
		return err
	}
	w.hdr = b
	if len(b) > math.MaxInt32 {
		return fmt.Errorf("pqcol: footer of %d bytes", len(b))
	}
	w.write(b)
	w.write(binary.LittleEndian.AppendUint32(nil, uint32(len(b))))
	w.write([]byte("PAR1"))
	return w.err
}
