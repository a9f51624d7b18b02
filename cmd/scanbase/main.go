// Command scanbase is the speed limit that make bench measures tracetab
// against: it maps a trace into memory and, on one goroutine per core, finds
// every "ts" and "dur" field and sums their integer parts. It builds no model
// and checks nothing; whatever tracetab does beyond this is its own cost.
//
//	scanbase FILE
package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"sync"
	"syscall"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: scanbase FILE")
		os.Exit(2)
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
