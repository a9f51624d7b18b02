package cli

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/tracetab/tracetab/internal/parse"
)

// progressMin is the file size from which reading shows progress.
const progressMin = 200 << 20

// showProgress starts a progress line on stderr for a large file when
// stderr is a terminal, and returns the function that clears it.
func (e *env) showProgress(path string, opts *parse.Options) func() {
	if path == "-" || !isTerminal(e.stderr) {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil || st.Size() < progressMin {
		return nil
	}
	var n atomic.Int64
	opts.Progress = &n
	gz := false
	if f, err := os.Open(path); err == nil {
		var m [2]byte
		f.Read(m[:])
		f.Close()
		gz = m[0] == 0x1f && m[1] == 0x8b
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(e.stderr, "\r\033[K")
				return
			case <-tick.C:
				read := n.Load()
				if gz {
					fmt.Fprintf(e.stderr, "\rreading %s: %d MB of JSON", path, read>>20)
				} else {
					fmt.Fprintf(e.stderr, "\rreading %s: %d of %d MB (%d%%)", path, read>>20, st.Size()>>20, read*100/st.Size())
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}
