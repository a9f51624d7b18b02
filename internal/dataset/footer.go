package dataset

import (
	"encoding/binary"
	"fmt"
	"io"
)

// footerFits checks the length a Parquet file's last eight bytes give its
// footer (the metadata) against the file's size before parquet-go reads
// it: parquet-go allocates the length it reads, so one flipped bit there
// made it allocate 2.6 GB for a 20 kB file (TestByteFlips, 2026-12-07). A
// file too short for the magic bytes, or with other magic bytes, is left
// to parquet-go's own message.
func footerFits(r io.ReaderAt, size int64) error {
	if size < 12 {
		return nil
	}
	var b [8]byte
	if _, err := r.ReadAt(b[:], size-8); err != nil {
		return nil
	}
	if m := string(b[4:]); m != "PAR1" && m != "PARE" {
		return nil
	}
	if n := int64(binary.LittleEndian.Uint32(b[:4])); n > size-12 {
		return fmt.Errorf("corrupt Parquet file: its footer claims %d bytes, more than the file's %d: export the trace again", n, size)
	}
	return nil
}
