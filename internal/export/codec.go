package export

import (
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/compress"
	pzstd "github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
)

// zstdWindow is the back-reference window of the pages' compression. A
// page is compressed alone and holds about the writer's page buffer (256
// KiB), so a larger window finds nothing more; zstd's default at the
// fastest level (8 MiB) made each encoder allocate 8 MiB of history.
const zstdWindow = 512 << 10

// zstdCodec is Parquet's ZSTD at the fastest level with a window of a
// page, its encoders kept on a free list for the whole export (the
// library's pool is emptied by every collection, and each new encoder
// allocated its history again).
type zstdCodec struct {
	free chan *zstd.Encoder
	dec  pzstd.Codec
}

var _ compress.Codec = (*zstdCodec)(nil)

func newZstdCodec(encoders int) *zstdCodec {
	return &zstdCodec{free: make(chan *zstd.Encoder, encoders)}
}

func (c *zstdCodec) String() string { return "ZSTD" }

func (c *zstdCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

func (c *zstdCodec) Encode(dst, src []byte) ([]byte, error) {
	var e *zstd.Encoder
	select {
	case e = <-c.free:
	default:
		var err error
		e, err = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithWindowSize(zstdWindow), zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false))
		if err != nil {
			return nil, err
		}
	}
	out := e.EncodeAll(src, dst[:0])
	select {
	case c.free <- e:
	default: // enough are kept
	}
	return out, nil
}

func (c *zstdCodec) Decode(dst, src []byte) ([]byte, error) { return c.dec.Decode(dst, src) }
