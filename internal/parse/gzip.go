package parse

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
)

// gzStream decompresses gzip input member by member (concatenated members
// are one stream, as gzip(1) reads them) and tells apart what follows the
// last member: nothing, zero bytes (tar or dd padding: accepted), or other
// bytes (an error). A stream that ends early (cut inside the compressed
// data or before its CRC trailer) reads as the end of the text; the parser
// then reports a truncated trace, or a warning when the JSON was complete.
type gzStream struct {
	br      *bufio.Reader
	zr      *gzip.Reader
	cut     bool  // the compressed data ended early: checksum not verified
	padding int64 // zero bytes after the last member
	done    bool
}

func newGzStream(br *bufio.Reader) (*gzStream, error) {
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	return &gzStream{br: br, zr: zr}, nil
}

func (g *gzStream) Read(p []byte) (int, error) {
	for {
		if g.done {
			return 0, io.EOF
		}
		n, err := g.zr.Read(p)
		switch {
		case err == nil:
			return n, nil
		case errors.Is(err, io.ErrUnexpectedEOF):
			g.cut, g.done = true, true
			return n, nil
		case err != io.EOF:
			return n, err
		}
		// a member ended with its checksum verified: what follows?
		if err := g.next(); err != nil {
			return n, err
		}
		if n > 0 {
			return n, nil
		}
	}
}

// next looks past the end of a member: another member, padding, or the end.
func (g *gzStream) next() error {
	b, _ := g.br.Peek(2)
	switch {
	case len(b) == 0:
		g.done = true
		return nil
	case len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b:
		if err := g.zr.Reset(g.br); err != nil {
			return err
		}
		g.zr.Multistream(false)
		return nil
	case b[0] == 0:
		for {
			c, err := g.br.ReadByte()
			if err == io.EOF {
				g.done = true
				return nil
			}
			if err != nil {
				return err
			}
			if c != 0 {
				return fmt.Errorf("unexpected bytes after the gzip data (after %d zero bytes of padding)", g.padding)
			}
			g.padding++
		}
	}
	return errors.New("unexpected bytes after the end of the gzip data")
}

func (g *gzStream) Close() error { return g.zr.Close() }
