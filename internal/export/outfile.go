package export

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/tracetab/tracetab/internal/atomicfile"
)

// outFile is a dataset's file being written through a buffer. The Parquet
// writers write each page's header and body, each column chunk's index
// and the footer's parts as writes of their own: 43 write calls per file
// on average over a 256-rank export (155 thousand for its 3,585 files),
// which the buffer turns into one or a few.
type outFile struct {
	f    *atomicfile.File
	w    *bufio.Writer
	size int64 // bytes written: the file's size once flushed
}

// outBufs recycles the buffers: an export of many small traces opens 14
// files per trace.
var outBufs = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// createOut makes the directory of path and starts its file.
func createOut(path string) (*outFile, error) {
	if err := mkdirOf(path); err != nil {
		return nil, err
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		if derr := os.MkdirAll(filepath.Dir(path), 0o755); derr != nil {
			return nil, derr // names the directory, not the temporary file
		}
		return nil, err
	}
	w := outBufs.Get().(*bufio.Writer)
	w.Reset(f)
	return &outFile{f: f, w: w}, nil
}

// mkdirOf makes the directory of path and its parents. The directory is
// new (a trace's partition directory of a dataset, whose parent the first
// trace made) or exists already for most files of an export: one mkdir
// answers where os.MkdirAll stats the path, then its parent, then makes it.
func mkdirOf(path string) error {
	dir := filepath.Dir(path)
	err := os.Mkdir(dir, 0o755)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return nil // (a file in its place: the file's creation says so)
	}
	return os.MkdirAll(dir, 0o755) // the parents, or the error it names
}

// Write adds p to the file.
func (o *outFile) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	o.size += int64(n)
	return n, err
}

// done flushes the buffer and returns the file, still under its temporary
// name, and its size; on an error the file is removed.
func (o *outFile) done() (*atomicfile.File, int64, error) {
	err := o.w.Flush()
	o.release()
	if err != nil {
		o.f.Abort()
		return nil, 0, err
	}
	return o.f, o.size, nil
}

// abort removes the file.
func (o *outFile) abort() {
	o.release()
	o.f.Abort()
}

func (o *outFile) release() {
	if o.w != nil {
		o.w.Reset(nil)
		outBufs.Put(o.w)
		o.w = nil
	}
}
