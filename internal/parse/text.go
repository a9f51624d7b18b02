package parse

import (
	"bufio"
	"io"
	"os"
)

// Text is the JSON text of a trace file, decompressed when it is gzip
// (detected by its magic bytes, as Open does), for a command that streams
// the text itself (crop copies events as written). Close it when done.
type Text struct {
	io.Reader
	Gzip bool
	f    *os.File
	gs   *gzStream
	ra   *readahead
}

// OpenText opens the trace file at path for reading its text. Errors are
// *Error values naming the file.
func OpenText(path string) (*Text, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Offset: -1, Msg: "cannot open: " + errText(err)}
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, &Error{File: path, Offset: -1, Msg: "is a directory, not a trace file"}
	}
	br := bufio.NewReaderSize(f, 1<<16)
	tx := &Text{Reader: br, f: f}
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gs, err := newGzStream(br)
		if err != nil {
			f.Close()
			return nil, &Error{File: path, Msg: "corrupt gzip header: " + err.Error(), Gzip: true}
		}
		tx.Gzip, tx.gs = true, gs
		tx.ra = newReadahead(gs)
		tx.Reader = tx.ra
	}
	return tx, nil
}

// Close stops the decompression and closes the file.
func (tx *Text) Close() error {
	if tx.ra != nil {
		tx.ra.Close()
	}
	if tx.gs != nil {
		tx.gs.Close()
	}
	return tx.f.Close()
}

// Ns converts a ts or dur as the reader does (a decimal count of
// microseconds, "1419247332814.773") to integer nanoseconds.
func Ns(text []byte) (int64, bool) {
	v, _, ok := parseNs(text)
	return v, ok
}

// Int converts an integer field (correlation, External id, pid) as the
// reader does.
func Int(text []byte) (int64, bool) { return parseInt(text) }
