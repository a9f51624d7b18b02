// Command scanbase is the speed limit that make bench measures tracetab
// against: it maps a trace into memory and, on one goroutine per core, finds
// every "ts" and "dur" field and sums their integer parts. It builds no model
// and checks nothing; whatever tracetab does beyond this is its own cost.
// A gzip file (.gz) is only decompressed, by the decoder tracetab uses, on
// one goroutine: the speed limit of reading it.
//
//	scanbase FILE
//	scanbase FILE.json.gz
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"

	"github.com/klauspost/compress/gzip"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: scanbase FILE")
		os.Exit(2)
	}
	if strings.HasSuffix(os.Args[1], ".gz") {
		gunzip(os.Args[1])
		return
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "scanbase:", err)
		os.Exit(3)
	}
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		fmt.Fprintln(os.Stderr, "scanbase: empty or unreadable file")
		os.Exit(3)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		fmt.Fprintln(os.Stderr, "scanbase:", err)
		os.Exit(3)
	}
	n := runtime.GOMAXPROCS(0)
	sums := make([]int64, n)
	counts := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		lo, hi := len(data)*i/n, len(data)*(i+1)/n
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[i], counts[i] = scan(data[lo:hi])
		}()
	}
	wg.Wait()
	var s, c int64
	for i := range n {
		s += sums[i]
		c += counts[i]
	}
	fmt.Printf("%d fields, sum %d\n", c, s)
}

var keys = [][]byte{[]byte(`"ts":`), []byte(`"dur":`)}

// scan sums the integer part of every "ts" and "dur" value in b.
func scan(b []byte) (sum, count int64) {
	for {
		i := bytes.IndexByte(b, '"')
		if i < 0 {
			return
		}
		b = b[i:]
		matched := false
		for _, k := range keys {
			if bytes.HasPrefix(b, k) {
				b = b[len(k):]
				for len(b) > 0 && b[0] == ' ' {
					b = b[1:]
				}
				var v int64
				for len(b) > 0 && b[0] >= '0' && b[0] <= '9' {
					v = v*10 + int64(b[0]-'0')
					b = b[1:]
				}
				sum += v
				count++
				matched = true
				break
			}
		}
		if !matched {
			b = b[1:]
		}
	}
}

// gunzip decompresses path and discards the text.
func gunzip(path string) {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "scanbase:", err)
		os.Exit(3)
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		fmt.Fprintln(os.Stderr, "scanbase:", err)
		os.Exit(3)
	}
	n, err := io.CopyBuffer(io.Discard, zr, make([]byte, 1<<20))
	if err != nil {
		fmt.Fprintln(os.Stderr, "scanbase:", err)
		os.Exit(3)
	}
	fmt.Printf("%d bytes of text\n", n)
}
