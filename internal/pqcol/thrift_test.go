package pqcol

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// handled says whether the hand-written encoder must take a value itself
// (yes), must leave it to thrift.Marshal (no), or either (any: a value
// made by parquet-go, whose fields are not ours to choose).
type handled int

const (
	yes handled = iota
	no
	either
)

// same holds the encoding of v by put and by its append function to
// thrift.Marshal's, byte for byte.
func same[T any](t *testing.T, name string, v *T, want handled, put func(*enc, *T), app func([]byte, *T) ([]byte, error)) {
	t.Helper()
	ref, referr := thrift.Marshal(&thrift.CompactProtocol{}, v)
	var e enc
	put(&e, v)
	if want == yes && e.bad || want == no && !e.bad {
		t.Errorf("%s: bad %v, want handled %v", name, e.bad, want == yes)
	}
	if !e.bad && referr == nil && !bytes.Equal(e.b, ref) {
		t.Errorf("%s:\n got %x\nwant %x", name, e.b, ref)
	}
	got, err := app([]byte("prefix"), v)
	if (err != nil) != (referr != nil) {
		t.Errorf("%s: error %v, thrift.Marshal's %v", name, err, referr)
	}
	if referr == nil && !bytes.Equal(got, append([]byte("prefix"), ref...)) {
		t.Errorf("%s: appended\n got %x\nwant prefix+%x", name, got, ref)
	}
}

func samePageHeader(t *testing.T, name string, h format.PageHeader, want handled) {
	t.Helper()
	same(t, name, &h, want, (*enc).pageHeader, appendPageHeader)
}

func sameColumnIndex(t *testing.T, name string, c format.ColumnIndex, want handled) {
	t.Helper()
	same(t, name, &c, want, (*enc).columnIndex, appendColumnIndex)
}

func sameOffsetIndex(t *testing.T, name string, o format.OffsetIndex, want handled) {
	t.Helper()
	same(t, name, &o, want, (*enc).offsetIndex, appendOffsetIndex)
}

func sameFileMetaData(t *testing.T, name string, f format.FileMetaData, want handled) {
	t.Helper()
	same(t, name, &f, want, (*enc).fileMetaData, appendFileMetaData)
}

var long = bytes.Repeat([]byte("x"), 300) // a length of two varint bytes

func TestThriftPageHeader(t *testing.T) {
	stats := map[string]format.Statistics{
		"zero":          {},
		"nulls":         {NullCount: 7},
		"negative":      {NullCount: -1, DistinctCount: math.MinInt64},
		"min max":       {MinValue: []byte{1, 2}, MaxValue: []byte{3}},
		"empty min max": {MinValue: []byte{}, MaxValue: []byte{}},
		"only max":      {MaxValue: long},
		"deprecated":    {Max: []byte("z"), Min: []byte{}, DistinctCount: 3, NullCount: math.MaxInt64},
		"all":           {Max: []byte("z"), Min: []byte("a"), NullCount: 1, DistinctCount: 2, MaxValue: long, MinValue: []byte("b")},
	}
	samePageHeader(t, "zero", format.PageHeader{}, yes)
	for name, s := range stats {
		samePageHeader(t, "data "+name, format.PageHeader{
			Type: format.DataPage, UncompressedPageSize: 100, CompressedPageSize: 90,
			DataPageHeader: thrift.New(format.DataPageHeader{NumValues: 10, Encoding: format.RLEDictionary,
				DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE, Statistics: s}),
		}, yes)
	}
	samePageHeader(t, "data zero", format.PageHeader{DataPageHeader: thrift.New(format.DataPageHeader{})}, yes)
	samePageHeader(t, "extremes", format.PageHeader{Type: -1, UncompressedPageSize: math.MaxInt32, CompressedPageSize: math.MinInt32,
		CRC: -5, DataPageHeader: thrift.New(format.DataPageHeader{NumValues: math.MinInt32, Encoding: math.MaxInt32})}, yes)
	samePageHeader(t, "crc", format.PageHeader{CRC: 1 << 20}, yes)
	for _, sorted := range []bool{false, true} {
		samePageHeader(t, fmt.Sprint("dictionary sorted ", sorted), format.PageHeader{
			Type: format.DictionaryPage, UncompressedPageSize: 64, CompressedPageSize: 70,
			DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: 1000, Encoding: format.Plain, IsSorted: sorted}),
		}, yes)
	}
	samePageHeader(t, "data and dictionary", format.PageHeader{
		DataPageHeader:       thrift.New(format.DataPageHeader{NumValues: 1}),
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{}),
	}, yes)
	// set, but not valid: left out
	samePageHeader(t, "invalid nulls", format.PageHeader{
		DataPageHeader:       thrift.Null[format.DataPageHeader]{V: format.DataPageHeader{NumValues: 3}},
		DictionaryPageHeader: thrift.Null[format.DictionaryPageHeader]{V: format.DictionaryPageHeader{NumValues: 3}},
		IndexPageHeader:      thrift.Null[format.IndexPageHeader]{},
	}, yes)
	samePageHeader(t, "index page", format.PageHeader{Type: format.IndexPage, IndexPageHeader: thrift.New(format.IndexPageHeader{})}, no)
	samePageHeader(t, "v2", format.PageHeader{Type: format.DataPageV2,
		DataPageHeaderV2: thrift.New(format.DataPageHeaderV2{NumValues: 3, IsCompressed: thrift.New(false)})}, no)
}

func TestThriftColumnIndex(t *testing.T) {
	sameColumnIndex(t, "zero", format.ColumnIndex{}, yes)
	sameColumnIndex(t, "empty", format.ColumnIndex{NullPages: []bool{}, MinValues: [][]byte{}, MaxValues: [][]byte{}, NullCounts: []int64{}}, yes)
	for _, n := range []int{1, 14, 15, 16, 200} {
		var c format.ColumnIndex
		for k := range n {
			null := k%3 == 1
			c.NullPages = append(c.NullPages, null)
			switch {
			case null:
				c.MinValues = append(c.MinValues, []byte{})
				c.MaxValues = append(c.MaxValues, nil)
			case k%5 == 0:
				c.MinValues = append(c.MinValues, long)
				c.MaxValues = append(c.MaxValues, long[:k])
			default:
				c.MinValues = append(c.MinValues, []byte{byte(k)})
				c.MaxValues = append(c.MaxValues, []byte{byte(k), 1})
			}
			c.NullCounts = append(c.NullCounts, int64(k)*int64(k)*-1e9)
		}
		c.BoundaryOrder = format.BoundaryOrder(n % 3)
		sameColumnIndex(t, fmt.Sprint(n, " pages"), c, yes)
		c.NullCounts = nil
		sameColumnIndex(t, fmt.Sprint(n, " pages, no null counts"), c, yes)
	}
	sameColumnIndex(t, "ragged", format.ColumnIndex{NullPages: []bool{true, true}, MinValues: [][]byte{{1}}, BoundaryOrder: -3}, yes)
	sameColumnIndex(t, "histogram", format.ColumnIndex{DefinitionLevelHistogram: []int64{}}, no)
	sameColumnIndex(t, "histogram", format.ColumnIndex{RepetitionLevelHistogram: []int64{1}}, no)
}

func TestThriftOffsetIndex(t *testing.T) {
	sameOffsetIndex(t, "zero", format.OffsetIndex{}, yes)
	sameOffsetIndex(t, "empty", format.OffsetIndex{PageLocations: []format.PageLocation{}}, yes)
	for _, n := range []int{1, 14, 15, 300} {
		var o format.OffsetIndex
		for k := range n {
			o.PageLocations = append(o.PageLocations, format.PageLocation{Offset: int64(k) << (k % 60), CompressedPageSize: int32(-k), FirstRowIndex: math.MaxInt64 - int64(k)})
		}
		sameOffsetIndex(t, fmt.Sprint(n, " pages"), o, yes)
	}
	sameOffsetIndex(t, "unencoded bytes", format.OffsetIndex{UnencodedByteArrayDataBytes: []int64{}}, no)
}

// other is a logical type that is not a member of the union.
type other struct{}

func (*other) FieldID() int16 { return 9 }
func (*other) String() string { return "OTHER" }

// logicalTypes are every member of the LogicalType union, set and as
// typed nils, with the TimeUnit union's members (nil too).
func logicalTypes() []format.LogicalTypeValue {
	units := []format.TimeUnitValue{nil, &format.MilliSeconds{}, &format.MicroSeconds{}, &format.NanoSeconds{}, (*format.NanoSeconds)(nil)}
	out := []format.LogicalTypeValue{
		&format.StringType{}, &format.MapType{}, &format.ListType{}, &format.EnumType{}, &format.DateType{},
		&format.NullType{}, &format.JsonType{}, &format.BsonType{}, &format.UUIDType{}, &format.Float16Type{},
		(*format.StringType)(nil), (*format.DecimalType)(nil), (*format.TimeType)(nil), (*format.TimestampType)(nil),
		(*format.IntType)(nil), (*format.VariantType)(nil), (*format.GeometryType)(nil), (*format.GeographyType)(nil),
		&format.DecimalType{}, &format.DecimalType{Scale: 3, Precision: 18}, &format.DecimalType{Scale: -1, Precision: math.MaxInt32},
		&format.IntType{}, &format.IntType{BitWidth: 8, IsSigned: true}, &format.IntType{BitWidth: -64},
		&format.VariantType{}, &format.VariantType{SpecificationVersion: 1}, &format.VariantType{SpecificationVersion: -1},
		&format.GeometryType{}, &format.GeometryType{CRS: "OGC:CRS84"},
		&format.GeographyType{}, &format.GeographyType{CRS: "x"}, &format.GeographyType{Algorithm: format.Karney},
		&format.GeographyType{CRS: string(long), Algorithm: -2},
	}
	for _, u := range units {
		for _, utc := range []bool{false, true} {
			out = append(out, &format.TimeType{IsAdjustedToUTC: utc, Unit: format.TimeUnit{Value: u}},
				&format.TimestampType{IsAdjustedToUTC: utc, Unit: format.TimeUnit{Value: u}})
		}
	}
	return out
}

// logical is a row type with parquet-go's logical and converted types.
type logical struct {
	S   string    `parquet:"s"`
	E   string    `parquet:"e,enum"`
	J   string    `parquet:"j,json"`
	D   int32     `parquet:"d,date"`
	T   int64     `parquet:"t,timestamp(microsecond)"`
	TL  int64     `parquet:"tl,timestamp(nanosecond:local)"`
	TT  time.Time `parquet:"tt"`
	Tm  int64     `parquet:"tm,time(microsecond)"`
	Dec int64     `parquet:"dec,decimal(2:12)"`
	I8  int8      `parquet:"i8"`
	U16 uint16    `parquet:"u16"`
	U   [16]byte  `parquet:"u,uuid"`
	F   float32   `parquet:"f"`
	B   []byte    `parquet:"b,optional"`
	FL  [3]byte   `parquet:"fl"`
}

func TestThriftFileMetaData(t *testing.T) {
	sameFileMetaData(t, "zero", format.FileMetaData{}, yes)
	sameFileMetaData(t, "empty", format.FileMetaData{Schema: []format.SchemaElement{}, RowGroups: []format.RowGroup{},
		KeyValueMetadata: []format.KeyValue{}, ColumnOrders: []format.ColumnOrder{}}, yes)
	// the templates of pqcol's row type and of logical types, as pqcol
	// writes them, and the footers parquet-go writes itself
	for name, tmpl := range map[string]func() (*format.FileMetaData, error){
		"row": func() (*format.FileMetaData, error) { return Template[row]() }, "logical": func() (*format.FileMetaData, error) { return Template[logical]() },
	} {
		m, err := tmpl()
		if err != nil {
			t.Fatal(err)
		}
		sameFileMetaData(t, "template "+name, *m, yes)
	}
	for name, f := range map[string]*parquet.File{"row": parquetFile(t, []row{{ID: 1, Name: ptr("a")}, {ID: 2}}),
		"logical": parquetFile(t, []logical{{S: "x", TT: time.Unix(1, 2)}, {E: "y", B: []byte{}}})} {
		sameFileMetaData(t, "parquet-go's "+name, *f.Metadata(), either)
	}

	var schema []format.SchemaElement
	for k, lt := range logicalTypes() {
		schema = append(schema, format.SchemaElement{Name: fmt.Sprint("c", k), LogicalType: format.LogicalType{Value: lt}})
	}
	schema = append(schema,
		format.SchemaElement{},
		format.SchemaElement{Type: thrift.New(format.Type(0)), TypeLength: thrift.New(int32(0)), RepetitionType: thrift.New(format.Required),
			NumChildren: thrift.New(int32(0)), ConvertedType: thrift.New(deprecated.ConvertedType(0)), Scale: thrift.New(int32(0)),
			Precision: thrift.New(int32(0))},
		format.SchemaElement{Type: thrift.New(format.FixedLenByteArray), TypeLength: thrift.New(int32(-16)), RepetitionType: thrift.New(format.Optional),
			Name: string(long), NumChildren: thrift.New(int32(math.MaxInt32)), ConvertedType: thrift.New(deprecated.Decimal), Scale: thrift.New(int32(2)),
			Precision: thrift.New(int32(20)), FieldID: -7, LogicalType: format.LogicalType{Value: &format.DecimalType{Scale: 2, Precision: 20}}},
		format.SchemaElement{Name: "only field id", FieldID: 1 << 30},
	)
	for k := range schema {
		sameFileMetaData(t, fmt.Sprint("schema element ", k), format.FileMetaData{Schema: schema[k : k+1]}, yes)
	}
	sameFileMetaData(t, "schema", format.FileMetaData{Schema: schema}, yes)
	sameFileMetaData(t, "not a logical type", format.FileMetaData{Schema: []format.SchemaElement{{LogicalType: format.LogicalType{Value: &other{}}}}}, no)

	md := format.ColumnMetaData{Type: format.ByteArray, Encoding: []format.Encoding{format.Plain, format.RLE, format.RLEDictionary},
		PathInSchema: []string{"a", "b"}, Codec: format.Snappy, NumValues: 10, TotalUncompressedSize: 100, TotalCompressedSize: 90,
		DataPageOffset: 4, DictionaryPageOffset: 4, Statistics: format.Statistics{NullCount: 1, MaxValue: []byte("z"), MinValue: []byte("a")}}
	full := md
	full.KeyValueMetadata = []format.KeyValue{{}, {Key: "k", Value: string(long)}}
	full.IndexPageOffset, full.BloomFilterOffset, full.BloomFilterLength = -1, 1<<40, 77
	full.Encoding = make([]format.Encoding, 20)
	columns := []format.ColumnChunk{
		{},
		{FileOffset: 4, MetaData: md, OffsetIndexOffset: 1000, OffsetIndexLength: 20, ColumnIndexOffset: 900, ColumnIndexLength: 100},
		{FilePath: "other.parquet", FileOffset: -4, MetaData: full},
		{MetaData: format.ColumnMetaData{Statistics: format.Statistics{MinValue: []byte{}}}},
		{MetaData: format.ColumnMetaData{Encoding: []format.Encoding{}}},
		{MetaData: format.ColumnMetaData{PathInSchema: []string{}}},
		{MetaData: format.ColumnMetaData{KeyValueMetadata: []format.KeyValue{}}},
		{MetaData: format.ColumnMetaData{Type: format.Int32}},
		{MetaData: format.ColumnMetaData{BloomFilterLength: 1}},
		{MetaData: format.ColumnMetaData{BloomFilterOffset: 1}},
		{MetaData: format.ColumnMetaData{IndexPageOffset: 1}},
		{MetaData: format.ColumnMetaData{DictionaryPageOffset: 1}},
		{MetaData: format.ColumnMetaData{DataPageOffset: -1}},
		{MetaData: format.ColumnMetaData{NumValues: 1}},
		{MetaData: format.ColumnMetaData{TotalUncompressedSize: 1}},
		{MetaData: format.ColumnMetaData{TotalCompressedSize: 1}},
		{MetaData: format.ColumnMetaData{Codec: format.Zstd}},
		{MetaData: format.ColumnMetaData{Statistics: format.Statistics{NullCount: 1}}},
		{MetaData: format.ColumnMetaData{Statistics: format.Statistics{Max: []byte{}}}},
		{MetaData: format.ColumnMetaData{Statistics: format.Statistics{Min: []byte{}}}},
		{MetaData: format.ColumnMetaData{Statistics: format.Statistics{MaxValue: []byte{}}}},
		{MetaData: format.ColumnMetaData{Statistics: format.Statistics{DistinctCount: 1}}},
		{ColumnIndexLength: -1},
	}
	for k, c := range columns {
		sameFileMetaData(t, fmt.Sprint("column ", k), format.FileMetaData{RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{c}}}}, yes)
	}
	groups := []format.RowGroup{
		{},
		{Columns: columns, TotalByteSize: 1 << 33, NumRows: 5, FileOffset: 4, TotalCompressedSize: 1 << 32, Ordinal: 3},
		{Columns: []format.ColumnChunk{}, Ordinal: -1},
		{Ordinal: math.MaxInt16},
		{Columns: append(append(columns, columns...), columns...)},
	}
	sameFileMetaData(t, "row groups", format.FileMetaData{Version: 2, Schema: schema, NumRows: 1 << 40, RowGroups: groups,
		KeyValueMetadata: []format.KeyValue{{Key: "a", Value: "b"}}, CreatedBy: "pqcol test"}, yes)
	orders := [][]format.ColumnOrder{nil, {}, {{}}, {{Value: &format.TypeDefinedOrder{}}}, {{Value: (*format.TypeDefinedOrder)(nil)}, {}},
		make([]format.ColumnOrder, 20)}
	for k, o := range orders {
		sameFileMetaData(t, fmt.Sprint("column orders ", k), format.FileMetaData{Version: 1, ColumnOrders: o, CreatedBy: "x"}, yes)
	}

	// values of fields pqcol does not set: thrift.Marshal's
	negZero := math.Copysign(0, -1)
	fallback := map[string]format.FileMetaData{
		"encryption":           {EncryptionAlgorithm: format.EncryptionAlgorithm{Value: &format.AesGcmV1{}}},
		"footer signing key":   {FooterSigningKeyMetadata: []byte{}},
		"sorting columns":      {RowGroups: []format.RowGroup{{SortingColumns: []format.SortingColumn{}}}},
		"crypto metadata":      {RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{CryptoMetadata: format.ColumnCryptoMetaData{Value: &format.EncryptionWithFooterKey{}}}}}}},
		"encrypted metadata":   {RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{EncryptedColumnMetadata: []byte{1}}}}}},
		"encoding stats":       {RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{MetaData: format.ColumnMetaData{EncodingStats: []format.PageEncodingStats{}}}}}}},
		"size statistics":      {RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{MetaData: format.ColumnMetaData{SizeStatistics: format.SizeStatistics{UnencodedByteArrayDataBytes: 1}}}}}}},
		"size histogram":       {RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{MetaData: format.ColumnMetaData{SizeStatistics: format.SizeStatistics{DefinitionLevelHistogram: []int64{}}}}}}}},
		"geospatial types":     {RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{MetaData: format.ColumnMetaData{GeospatialStatistics: format.GeospatialStatistics{GeoSpatialTypes: []int32{}}}}}}}},
		"bounding box":         {RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{MetaData: format.ColumnMetaData{GeospatialStatistics: format.GeospatialStatistics{BBox: format.BoundingBox{YMax: 1}}}}}}}},
		"bounding box -0":      {RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{MetaData: format.ColumnMetaData{GeospatialStatistics: format.GeospatialStatistics{BBox: format.BoundingBox{XMin: negZero}}}}}}}},
		"bounding box null -0": {RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{MetaData: format.ColumnMetaData{GeospatialStatistics: format.GeospatialStatistics{BBox: format.BoundingBox{MMax: thrift.Null[float64]{V: negZero}}}}}}}}},
		"bounding box valid 0": {RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{MetaData: format.ColumnMetaData{GeospatialStatistics: format.GeospatialStatistics{BBox: format.BoundingBox{ZMin: thrift.New(0.0)}}}}}}}},
	}
	for name, f := range fallback {
		sameFileMetaData(t, name, f, no)
	}
}

// parquetFile is rows written by parquet-go, opened.
func parquetFile[T any](t *testing.T, rows []T) *parquet.File {
	t.Helper()
	var b bytes.Buffer
	if err := parquet.Write(&b, rows); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestThriftField: a field header is the delta from the last field when
// that is 1 to 15, else the type and the zigzag id.
func TestThriftField(t *testing.T) {
	cases := []struct {
		last, id int16
		want     []byte
	}{
		{0, 1, []byte{0x15}}, {0, 15, []byte{0xF5}}, {1, 16, []byte{0xF5}}, {0, 16, []byte{5, 32}}, {3, 40, []byte{5, 80}},
		{0, 64, []byte{5, 0x80, 1}}, {20, 10, []byte{5, 20}}, {7, 7, []byte{5, 14}},
	}
	for _, c := range cases {
		var e enc
		l := c.last
		e.field(&l, c.id, tI32)
		if !bytes.Equal(e.b, c.want) || l != c.id {
			t.Errorf("field %d after %d: %x (last %d), want %x", c.id, c.last, e.b, l, c.want)
		}
	}
}

// random values: extremes, small and large, with fields present or not

type gen struct{ *rand.Rand }

func (g gen) i64() int64 {
	switch g.Intn(6) {
	case 0:
		return 0
	case 1:
		return []int64{1, -1, 63, 64, -64, -65, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32}[g.Intn(10)]
	case 2:
		return int64(g.Intn(200)) - 100
	default:
		return g.Int63() >> g.Intn(63) * int64(1-2*g.Intn(2))
	}
}

func (g gen) i32() int32 { return int32(g.i64()) }

func (g gen) bytes() []byte {
	switch g.Intn(4) {
	case 0:
		return nil
	case 1:
		return []byte{}
	}
	b := make([]byte, g.Intn(200))
	g.Read(b)
	return b
}

func (g gen) str() string {
	if g.Intn(3) == 0 {
		return ""
	}
	return string(g.bytes())
}

func (g gen) n(max int) int {
	if g.Intn(4) == 0 {
		return 0
	}
	return g.Intn(max)
}

func (g gen) statistics() format.Statistics {
	s := format.Statistics{MaxValue: g.bytes(), MinValue: g.bytes(), NullCount: g.i64()}
	if g.Intn(4) == 0 {
		s.Max, s.Min, s.DistinctCount = g.bytes(), g.bytes(), g.i64()
	}
	return s
}

func (g gen) pageHeader() format.PageHeader {
	h := format.PageHeader{Type: format.PageType(g.Intn(4)), UncompressedPageSize: g.i32(), CompressedPageSize: g.i32()}
	if g.Intn(4) == 0 {
		h.CRC = g.i32()
	}
	if g.Intn(3) != 0 {
		h.DataPageHeader = thrift.New(format.DataPageHeader{NumValues: g.i32(), Encoding: format.Encoding(g.i32()),
			DefinitionLevelEncoding: format.Encoding(g.Intn(10)), RepetitionLevelEncoding: format.Encoding(g.Intn(10)), Statistics: g.statistics()})
	}
	if g.Intn(3) == 0 {
		h.DictionaryPageHeader = thrift.New(format.DictionaryPageHeader{NumValues: g.i32(), Encoding: format.Encoding(g.Intn(10)), IsSorted: g.Intn(2) == 0})
	}
	return h
}

func (g gen) columnIndex() format.ColumnIndex {
	var c format.ColumnIndex
	n := g.n(40)
	if n > 0 || g.Intn(2) == 0 {
		c.NullPages, c.MinValues, c.MaxValues = []bool{}, [][]byte{}, [][]byte{}
	}
	for range n {
		c.NullPages = append(c.NullPages, g.Intn(2) == 0)
		c.MinValues = append(c.MinValues, g.bytes())
		c.MaxValues = append(c.MaxValues, g.bytes())
	}
	if g.Intn(3) != 0 {
		c.NullCounts = []int64{}
		for range n {
			c.NullCounts = append(c.NullCounts, g.i64())
		}
	}
	c.BoundaryOrder = format.BoundaryOrder(g.i32())
	return c
}

func (g gen) offsetIndex() format.OffsetIndex {
	var o format.OffsetIndex
	n := g.n(40)
	if n > 0 || g.Intn(2) == 0 {
		o.PageLocations = []format.PageLocation{}
	}
	for range n {
		o.PageLocations = append(o.PageLocations, format.PageLocation{Offset: g.i64(), CompressedPageSize: g.i32(), FirstRowIndex: g.i64()})
	}
	return o
}

func (g gen) keyValues() []format.KeyValue {
	if g.Intn(3) == 0 {
		return nil
	}
	kvs := []format.KeyValue{}
	for range g.n(20) {
		kvs = append(kvs, format.KeyValue{Key: g.str(), Value: g.str()})
	}
	return kvs
}

func (g gen) fileMetaData(lts []format.LogicalTypeValue) format.FileMetaData {
	f := format.FileMetaData{Version: g.i32(), NumRows: g.i64(), KeyValueMetadata: g.keyValues(), CreatedBy: g.str()}
	for range g.n(20) {
		s := format.SchemaElement{Name: g.str()}
		for _, n := range []*thrift.Null[int32]{&s.TypeLength, &s.NumChildren, &s.Scale, &s.Precision} {
			if g.Intn(2) == 0 {
				*n = thrift.New(g.i32())
			}
		}
		if g.Intn(2) == 0 {
			s.Type = thrift.New(format.Type(g.Intn(8)))
		}
		if g.Intn(2) == 0 {
			s.RepetitionType = thrift.New(format.FieldRepetitionType(g.Intn(3)))
		}
		if g.Intn(2) == 0 {
			s.ConvertedType = thrift.New(deprecated.ConvertedType(g.Intn(22)))
		}
		if g.Intn(4) == 0 {
			s.FieldID = g.i32()
		}
		if g.Intn(2) == 0 {
			s.LogicalType.Value = lts[g.Intn(len(lts))]
		}
		f.Schema = append(f.Schema, s)
	}
	for range g.n(4) {
		rg := format.RowGroup{TotalByteSize: g.i64(), NumRows: g.i64(), Ordinal: int16(g.i64())}
		if g.Intn(2) == 0 {
			rg.FileOffset, rg.TotalCompressedSize = g.i64(), g.i64()
		}
		for range g.n(20) {
			c := format.ColumnChunk{FileOffset: g.i64(), OffsetIndexOffset: g.i64(), OffsetIndexLength: g.i32(),
				ColumnIndexOffset: g.i64(), ColumnIndexLength: g.i32()}
			if g.Intn(5) == 0 {
				c.FilePath = g.str()
			}
			if g.Intn(6) != 0 {
				m := &c.MetaData
				m.Type, m.Codec = format.Type(g.Intn(8)), format.CompressionCodec(g.Intn(8))
				m.NumValues, m.TotalUncompressedSize, m.TotalCompressedSize, m.DataPageOffset = g.i64(), g.i64(), g.i64(), g.i64()
				m.Statistics = g.statistics()
				if g.Intn(2) == 0 {
					m.Encoding = []format.Encoding{}
					for range g.n(20) {
						m.Encoding = append(m.Encoding, format.Encoding(g.Intn(10)))
					}
				}
				if g.Intn(2) == 0 {
					m.PathInSchema = []string{g.str()}
				}
				if g.Intn(4) == 0 {
					m.KeyValueMetadata = g.keyValues()
				}
				if g.Intn(2) == 0 {
					m.IndexPageOffset, m.DictionaryPageOffset = g.i64(), g.i64()
				}
				if g.Intn(4) == 0 {
					m.BloomFilterOffset, m.BloomFilterLength = g.i64(), g.i32()
				}
			}
			rg.Columns = append(rg.Columns, c)
		}
		f.RowGroups = append(f.RowGroups, rg)
	}
	if g.Intn(2) == 0 {
		f.ColumnOrders = []format.ColumnOrder{}
		for range g.n(20) {
			var o format.ColumnOrder
			if g.Intn(4) != 0 {
				o.Value = &format.TypeDefinedOrder{}
			}
			f.ColumnOrders = append(f.ColumnOrders, o)
		}
	}
	return f
}

// TestThriftRandom: seeded random values of each struct.
func TestThriftRandom(t *testing.T) {
	g := gen{rand.New(rand.NewSource(35))}
	lts := logicalTypes()
	for k := range 3000 {
		samePageHeader(t, fmt.Sprint("page header ", k), g.pageHeader(), yes)
		sameColumnIndex(t, fmt.Sprint("column index ", k), g.columnIndex(), yes)
		sameOffsetIndex(t, fmt.Sprint("offset index ", k), g.offsetIndex(), yes)
		if k%5 == 0 {
			sameFileMetaData(t, fmt.Sprint("footer ", k), g.fileMetaData(lts), yes)
		}
		if t.Failed() {
			break
		}
	}
}

// writeRows writes TestRoundTrip's rows, and blocks of random rows
// spread over row groups of many pages each.
func writeRows(t *testing.T, random int) []byte {
	t.Helper()
	meta, err := Template[row]()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := New(&b, meta, &snappy.Codec{})
	roundTripBlocks(t, w)
	g := gen{rand.New(rand.NewSource(int64(random)))}
	for k := range random {
		if k%20 == 19 {
			w.EndRowGroup()
		}
		n := 1 + g.Intn(50)
		defs := make([]byte, n)
		var ids, vals []int64
		var n32 []int32
		var keys []uint32
		var flags []bool
		for j := range defs {
			defs[j] = byte(g.Intn(2))
			ids = append(ids, g.i64())
			flags = append(flags, g.Intn(2) == 0)
			if defs[j] == 1 {
				vals = append(vals, g.i64())
				n32 = append(n32, g.i32())
				keys = append(keys, uint32(g.Intn(len(roundTripNames))))
			}
		}
		w.BeginBlock(n)
		w.Int64(ids, nil)
		w.Int32(n32, defs)
		w.Strings(keys, defs, roundTripText)
		w.Bool(flags, nil)
		w.Int64Delta(vals, defs)
		w.EndBlock()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestThriftFiles: files written by pqcol are the same bytes whether their
// headers, indexes and footer are encoded here or by thrift.Marshal, and
// parquet-go reads them back.
func TestThriftFiles(t *testing.T) {
	defer func() { reflectOnly = false }()
	for _, random := range []int{0, 1, 100} {
		reflectOnly = false
		got := writeRows(t, random)
		reflectOnly = true
		want := writeRows(t, random)
		reflectOnly = false
		if !bytes.Equal(got, want) {
			t.Errorf("%d random blocks: %d bytes, thrift.Marshal's %d, first difference at %d", random, len(got), len(want), firstDiff(got, want))
		}
		rows, err := parquet.Read[row](bytes.NewReader(got), int64(len(got)))
		if err != nil {
			t.Fatal(err)
		}
		if random == 0 {
			want := []row{{1, nil, ptr("b"), true, ptr[int64](100)}, {2, ptr[int32](7), nil, false, ptr[int64](90)}, {3, nil, ptr("a"), true, nil},
				{-4, ptr[int32](8), nil, false, nil}, {5, ptr[int32](9), nil, false, nil}}
			if !reflect.DeepEqual(rows, want) {
				t.Errorf("rows %+v, want %+v", rows, want)
			}
		} else if len(rows) < 5+random {
			t.Errorf("%d rows from %d blocks", len(rows), random)
		}
		f, err := parquet.OpenFile(bytes.NewReader(got), int64(len(got)))
		if err != nil {
			t.Fatal(err)
		}
		for _, rg := range f.RowGroups() {
			for _, c := range rg.ColumnChunks() {
				if _, err := c.ColumnIndex(); err != nil {
					t.Errorf("column index: %v", err)
				}
				if _, err := c.OffsetIndex(); err != nil {
					t.Errorf("offset index: %v", err)
				}
			}
		}
		if random == 100 && !strings.Contains(string(got), "PAR1") {
			t.Error("no magic")
		}
	}
}

func firstDiff(a, b []byte) int {
	for k := range min(len(a), len(b)) {
		if a[k] != b[k] {
			return k
		}
	}
	return min(len(a), len(b))
}

// benchmarks: a data page's header, a chunk's page index, a footer, by
// thrift.Marshal and by the encoder here

func benchValues(b *testing.B) (format.PageHeader, format.ColumnIndex, format.OffsetIndex, format.FileMetaData) {
	h := format.PageHeader{Type: format.DataPage, UncompressedPageSize: 8123, CompressedPageSize: 2345,
		DataPageHeader: thrift.New(format.DataPageHeader{NumValues: 4096, Encoding: format.RLEDictionary,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
			Statistics: format.Statistics{NullCount: 12, MinValue: []byte("aten::add"), MaxValue: []byte("void at::native::kernel")}})}
	var ci format.ColumnIndex
	var oi format.OffsetIndex
	for k := range 8 {
		ci.NullPages = append(ci.NullPages, false)
		ci.MinValues = append(ci.MinValues, []byte("aten::add"))
		ci.MaxValues = append(ci.MaxValues, []byte("void at::native::kernel"))
		ci.NullCounts = append(ci.NullCounts, int64(k))
		oi.PageLocations = append(oi.PageLocations, format.PageLocation{Offset: int64(4 + 3000*k), CompressedPageSize: 3000, FirstRowIndex: int64(4096 * k)})
	}
	m := *must(Template[logical]())
	for g := range 2 {
		rg := format.RowGroup{NumRows: 4096, FileOffset: 4, Ordinal: int16(g)}
		for k := range m.Schema[1:] {
			rg.Columns = append(rg.Columns, format.ColumnChunk{FileOffset: int64(k * 1000), MetaData: format.ColumnMetaData{Type: format.Int64,
				Encoding: []format.Encoding{format.Plain, format.RLE}, PathInSchema: []string{m.Schema[k+1].Name}, Codec: format.Snappy,
				NumValues: 4096, TotalUncompressedSize: 40000, TotalCompressedSize: 20000, DataPageOffset: int64(k * 1000),
				Statistics: format.Statistics{MinValue: []byte{1, 2, 3, 4, 5, 6, 7, 8}, MaxValue: []byte{1, 2, 3, 4, 5, 6, 7, 9}}},
				OffsetIndexOffset: 1 << 20, OffsetIndexLength: 30, ColumnIndexOffset: 1 << 19, ColumnIndexLength: 50})
		}
		m.RowGroups = append(m.RowGroups, rg)
	}
	return h, ci, oi, m
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func BenchmarkThrift(b *testing.B) {
	h, ci, oi, m := benchValues(b)
	var buf []byte
	for _, mode := range []string{"reflect", "hand"} {
		reflectOnly = mode == "reflect"
		b.Run("PageHeader/"+mode, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				buf, _ = appendPageHeader(buf[:0], &h)
			}
		})
		b.Run("PageIndex/"+mode, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				buf, _ = appendColumnIndex(buf[:0], &ci)
				buf, _ = appendOffsetIndex(buf, &oi)
			}
		})
		b.Run("Footer/"+mode, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				buf, _ = appendFileMetaData(buf[:0], &m)
			}
		})
	}
	reflectOnly = false
}
