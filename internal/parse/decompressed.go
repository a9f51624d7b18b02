package parse

import (
	"bufio"
	"io"
)

// Decompressed returns the JSON text of a trace file as Open reads it:
// gzip data decompressed (member by member, zero padding after it
// accepted), a UTF-8 byte order mark dropped. For writers that copy a
// trace (critical-path --overlay).
func Decompressed(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var src io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gs, err := newGzStream(br)
		if err != nil {
			return nil, err
		}
		src = bufio.NewReaderSize(gs, 1<<16)
	}
	b := src.(*bufio.Reader)
	if bom, _ := b.Peek(3); len(bom) == 3 && bom[0] == 0xef && bom[1] == 0xbb && bom[2] == 0xbf {
		b.Discard(3)
	}
	return b, nil
}
