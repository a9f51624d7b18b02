package crop

import (
	"compress/gzip"
	"errors"
	"fmt"
	"strings"

	"github.com/tracetab/tracetab/internal/atomicfile"
	"github.com/tracetab/tracetab/internal/parse"
)

// OutputError is a crop that could not be written (a full disk, a
// directory that does not exist).
type OutputError struct {
	Path string
	Err  error
}

func (e *OutputError) Error() string { return fmt.Sprintf("cannot write %s: %v", e.Path, e.Err) }
func (e *OutputError) Unwrap() error { return e.Err }

// File crops the trace file in to the file out, gzip-compressed when its
// name ends in .gz. The crop appears under its name only once complete
// (a temporary file is renamed), so a crop cut short leaves no file.
func File(p *Plan, in, out string, allowTruncated bool) (*Result, error) {
	tx, err := parse.OpenText(in)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	f, err := atomicfile.Create(out)
	if err != nil {
		return nil, &OutputError{out, err}
	}
	defer f.Abort()
	var zw *gzip.Writer
	dst := &countWriter{w: f}
	var sink = interface {
		Write([]byte) (int, error)
	}(dst)
	if strings.HasSuffix(out, ".gz") {
		zw = gzip.NewWriter(dst)
		sink = zw
	}
	res, err := Write(p, tx, sink, allowTruncated)
	if err != nil {
		if dst.err != nil {
			return nil, &OutputError{out, dst.err}
		}
		var ce *Error
		if errors.As(err, &ce) {
			ce.File = in
		}
		return nil, err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return nil, &OutputError{out, err}
		}
	}
	if dst.err != nil {
		return nil, &OutputError{out, dst.err}
	}
	if err := f.Commit(); err != nil {
		return nil, &OutputError{out, err}
	}
	res.FileBytes = dst.n
	res.Gzip = zw != nil
	return res, nil
}

// countWriter counts the bytes written and keeps the first error.
type countWriter struct {
	w   interface{ Write([]byte) (int, error) }
	n   int64
	err error
}

func (c *countWriter) Write(b []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(b)
	c.n += int64(n)
	if err != nil {
		c.err = err
	}
	return n, err
}
