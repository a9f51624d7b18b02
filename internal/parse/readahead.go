package parse

import (
	"io"
	"time"

	"github.com/tracetab/tracetab/internal/safe"
)

// readahead reads its source on its own goroutine, a block ahead of the
// consumer, so gzip decompression and parsing use two cores.
type readahead struct {
	blocks chan []byte
	free   chan []byte
	cur    []byte
	last   []byte
	err    error
	errc   chan error
	done   chan struct{}
	exited chan struct{}
}

const raBlock = 1 << 20

func newReadahead(src io.Reader) *readahead {
	r := &readahead{blocks: make(chan []byte, 4), free: make(chan []byte, 5), done: make(chan struct{}), exited: make(chan struct{})}
	for i := 0; i < 5; i++ {
		r.free <- make([]byte, raBlock)
	}
	errc := make(chan error, 1)
	go func() {
		defer close(r.exited)
		defer close(r.blocks)
		defer func() {
			if x := recover(); x != nil {
				errc <- safe.New(x) // the reader's error: an internal one
			}
		}()
		for {
			var b []byte
			select {
			case b = <-r.free:
			case <-r.done:
				return
			}
			// fill the block; the source's own errors pass unchanged
			n := 0
			var err error
			for n < raBlock && err == nil {
				var k int
				k, err = src.Read(b[n:raBlock])
				n += k
			}
			if n > 0 {
				select {
				case r.blocks <- b[:n]:
				case <-r.done:
					return
				}
			}
			if err != nil {
				errc <- err
				return
			}
		}
	}()
	r.errc = errc
	return r
}

func (r *readahead) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if r.last != nil {
			r.free <- r.last[:cap(r.last)]
			r.last = nil
		}
		b, ok := <-r.blocks
		if !ok {
			if r.err == nil {
				r.err = <-r.errc
			}
			return 0, r.err
		}
		r.cur, r.last = b, b
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// Close stops the reading goroutine and waits for it, so the source may
// be closed next (it is not read concurrently with its Close).
func (r *readahead) Close() {
	select {
	case <-r.done:
	default:
		close(r.done)
	}
	// a read from a pipe whose writer pauses may not return: do not wait
	// for it forever
	select {
	case <-r.exited:
	case <-time.After(2 * time.Second):
	}
}
