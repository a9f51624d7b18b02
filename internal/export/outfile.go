package export

import (
	"bufio"
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
	f *atomicfile.File
	*bufio.Writer
}

// outBufs recycles the buffers: an export of many small traces opens 14
// files per trace.
var outBufs = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// createOut makes the directories of path and starts its file.
func createOut(path string) (*outFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	w := outBufs.Get().(*bufio.Writer)
	w.Reset(f)
	return &outFile{f: f, Writer: w}, nil
}

// done flushes the buffer and returns the file, still under its temporary
// name, and its size; on an error the file is removed.
func (o *outFile) done() (*atomicfile.File, int64, error) {
	err := o.Flush()
	o.release()
	var st os.FileInfo
	if err == nil {
		st, err = o.f.Stat()
	}
	if err != nil {
		o.f.Abort()
		return nil, 0, err
	}
	return o.f, st.Size(), nil
}

// abort removes the file.
func (o *outFile) abort() {
	o.release()
	o.f.Abort()
}

func (o *outFile) release() {
	if o.Writer != nil {
		o.Writer.Reset(nil)
		outBufs.Put(o.Writer)
		o.Writer = nil
	}
}
