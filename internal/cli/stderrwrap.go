package cli

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/tracetab/tracetab/internal/layout"
	"golang.org/x/term"
)

// wrapWriter wraps the lines written to a terminal's stderr at its width:
// a note or warning longer than the terminal breaks between words, the
// rest indented two spaces; a word wider than the line breaks inside
// (nothing is cut). A progress line (one with a carriage return) passes
// through as written. Piped stderr is not wrapped: a log keeps each
// message on one line for grep.
type wrapWriter struct {
	mu    sync.Mutex
	w     io.Writer
	f     *os.File // the terminal, for isTerminal
	width int
	buf   []byte
}

// wrapStderr returns w wrapped when it is a terminal, else w.
func wrapStderr(w io.Writer) io.Writer {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return w
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		width = 80
	}
	return &wrapWriter{w: w, f: f, width: max(width, minWidth)}
}

func (x *wrapWriter) Write(p []byte) (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if bytes.IndexByte(p, '\r') >= 0 {
		_, err := x.w.Write(p)
		return len(p), err
	}
	x.buf = append(x.buf, p...)
	for {
		i := bytes.IndexByte(x.buf, '\n')
		if i < 0 {
			break
		}
		if _, err := io.WriteString(x.w, wrapLine(string(x.buf[:i]), x.width)); err != nil {
			return len(p), err
		}
		x.buf = x.buf[i+1:]
	}
	return len(p), nil
}

// Flush writes what is left without a newline.
func (x *wrapWriter) Flush() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.buf) > 0 {
		io.WriteString(x.w, wrapLine(string(x.buf), x.width))
		x.buf = nil
	}
}

// wrapLine is s broken into lines of at most width columns, each ended by
// a newline; continuation lines are indented two spaces.
func wrapLine(s string, width int) string {
	if layout.Width(s) <= width {
		return s + "\n"
	}
	return strings.Join(layout.BreakWords("", s, width, "  "), "\n") + "\n"
}
