// Package hostile writes traces shaped to break a trace reader: very many
// streams, threads or names, deep nesting, huge values, gzip bombs, bad
// numbers and bad text. Each generator takes a size n, so tests run them
// small and `make stress` at full size. The traces are valid Chrome traces
// unless the name says otherwise.
package hostile

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// w is a buffered writer that remembers its first error.
type w struct {
	b     *bufio.Writer
	first bool
	err   error
}

func newW(out io.Writer) *w {
	x := &w{b: bufio.NewWriterSize(out, 1<<20), first: true}
	x.s(`{"schemaVersion":1,"traceEvents":[`)
	return x
}

func (x *w) s(s string) {
	if x.err == nil {
		_, x.err = x.b.WriteString(s)
	}
}

func (x *w) f(format string, a ...any) {
	if x.err == nil {
		_, x.err = fmt.Fprintf(x.b, format, a...)
	}
}

// ev starts a new event in the array.
func (x *w) ev(format string, a ...any) {
	if !x.first {
		x.s(",\n")
	}
	x.first = false
	x.f(format, a...)
}

func (x *w) end() error {
	x.s("]}\n")
	if x.err != nil {
		return x.err
	}
	return x.b.Flush()
}

// cpu writes a cpu_op (or another CPU category) event; times in us.
func (x *w) cpu(cat, name string, tid, ts, dur int64, args string) {
	x.ev(`{"ph":"X","cat":"%s","name":"%s","pid":1,"tid":%d,"ts":%d,"dur":%d,"args":{%s}}`, cat, name, tid, ts, dur, args)
}

// gpu writes a device op on device 0.
func (x *w) gpu(cat, name string, stream, ts, dur, corr int64) {
	x.ev(`{"ph":"X","cat":"%s","name":"%s","pid":0,"tid":%d,"ts":%d,"dur":%d,"args":{"correlation":%d,"device":0,"stream":%d}}`, cat, name, stream, ts, dur, corr, stream)
}

func (x *w) step(n, ts, dur int64) {
	x.cpu("user_annotation", fmt.Sprintf("ProfilerStep#%d", n), 1, ts, dur, "")
}

// Streams: one kernel on each of n GPU streams, each launched from the CPU.
func Streams(out io.Writer, n int) error {
	x := newW(out)
	x.step(1, 0, int64(n)*10+100)
	for i := 0; i < n; i++ {
		ts := int64(i) * 10
		x.cpu("cuda_runtime", "cudaLaunchKernel", 1, ts+1, 2, fmt.Sprintf(`"correlation":%d`, i+1))
		x.gpu("kernel", "k", int64(7+i), ts+5, 3, int64(i+1))
	}
	return x.end()
}

// Syncs: n kernels on one stream and n blocking syncs between them.
func Syncs(out io.Writer, n int) error {
	x := newW(out)
	x.step(1, 0, int64(n)*20+100)
	for i := 0; i < n; i++ {
		ts := int64(i) * 20
		x.cpu("cuda_runtime", "cudaLaunchKernel", 1, ts+1, 2, fmt.Sprintf(`"correlation":%d`, 2*i+1))
		x.gpu("kernel", "k", 7, ts+4, 3, int64(2*i+1))
		x.cpu("cuda_runtime", "cudaDeviceSynchronize", 1, ts+4, 10, fmt.Sprintf(`"correlation":%d`, 2*i+2))
		x.gpu("cuda_sync", "Device Synchronize", 7, ts+8, 5, int64(2*i+2))
	}
	return x.end()
}

// Names: n ops, each with its own name.
func Names(out io.Writer, n int) error {
	x := newW(out)
	for i := 0; i < n; i++ {
		x.cpu("cpu_op", fmt.Sprintf("aten::op_%d", i), 1, int64(i)*3, 2, "")
	}
	return x.end()
}

// Threads: one op on each of n CPU threads, each thread named.
func Threads(out io.Writer, n int) error {
	x := newW(out)
	for i := 0; i < n; i++ {
		x.ev(`{"ph":"M","name":"thread_name","pid":1,"tid":%d,"args":{"name":"worker %d"}}`, i+100, i)
		x.cpu("cpu_op", "aten::add", int64(i+100), int64(i), 5, "")
	}
	return x.end()
}

// Nested: n ops, each inside the one before, on one thread; with same,
// every level has the same name.
func Nested(out io.Writer, n int, same bool) error {
	x := newW(out)
	for i := 0; i < n; i++ {
		name := "op"
		if !same {
			name = fmt.Sprintf("level_%d", i)
		}
		x.cpu("cpu_op", name, 1, int64(i), int64(2*(n-i)), fmt.Sprintf(`"External id":%d`, i+1))
	}
	return x.end()
}

// BigArray: an event whose args hold an array of n numbers (about 6n
// bytes), then an ordinary event.
func BigArray(out io.Writer, n int) error {
	x := newW(out)
	x.ev(`{"ph":"X","cat":"cpu_op","name":"big","pid":1,"tid":1,"ts":1,"dur":1,"args":{"values":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			x.s(",")
		}
		x.s("12345")
	}
	x.s(`]}}`)
	x.cpu("cpu_op", "after", 1, 3, 1, "")
	return x.end()
}

// DeepArgs: an event whose args nest n arrays deep.
func DeepArgs(out io.Writer, n int) error {
	x := newW(out)
	x.ev(`{"ph":"X","cat":"cpu_op","name":"deep","pid":1,"tid":1,"ts":1,"dur":1,"args":{"a":`)
	x.s(strings.Repeat("[", n))
	x.s("1")
	x.s(strings.Repeat("]", n))
	x.s(`}}`)
	x.cpu("cpu_op", "after", 1, 3, 1, "")
	return x.end()
}

// ReusedCorr: n launches and n kernels that all share a few correlation ids.
func ReusedCorr(out io.Writer, n int) error {
	x := newW(out)
	x.step(1, 0, int64(n)*10+100)
	for i := 0; i < n; i++ {
		ts := int64(i) * 10
		c := int64(i%3 + 1)
		x.cpu("cpu_op", "aten::mm", 1, ts, 4, fmt.Sprintf(`"External id":%d`, c))
		x.cpu("cuda_runtime", "cudaLaunchKernel", 1, ts+1, 2, fmt.Sprintf(`"correlation":%d,"External id":%d`, c, c))
		x.gpu("kernel", "gemm", 7, ts+5, 3, c)
	}
	return x.end()
}

// LongNames: n ops whose names are size bytes long (distinct).
func LongNames(out io.Writer, n, size int) error {
	x := newW(out)
	body := strings.Repeat("n", size)
	for i := 0; i < n; i++ {
		x.cpu("cpu_op", fmt.Sprintf("%d_%s", i, body), 1, int64(i)*3, 2, "")
		x.cpu("cuda_runtime", "cudaLaunchKernel", 1, int64(i)*3, 1, fmt.Sprintf(`"correlation":%d`, i+1))
		x.gpu("kernel", fmt.Sprintf("k%d_%s", i, body), 7, int64(i)*3+1, 1, int64(i+1))
	}
	return x.end()
}

// BadTimes: events whose ts or dur is NaN, Infinity, 1e400, null, a
// string, or near the int64 limit, among n ordinary ones.
func BadTimes(out io.Writer, n int) error {
	x := newW(out)
	bad := []string{"NaN", "Infinity", "-Infinity", "1e400", "-1e400", "null", `"x"`, "9200000000000000", "-9200000000000000", "1e15"}
	for i := 0; i < n; i++ {
		x.cpu("cpu_op", "ok", 1, int64(i)*10, 5, "")
		b := bad[i%len(bad)]
		x.ev(`{"ph":"X","cat":"cpu_op","name":"badts","pid":1,"tid":1,"ts":%s,"dur":3}`, b)
		x.ev(`{"ph":"X","cat":"cpu_op","name":"baddur","pid":1,"tid":1,"ts":%d,"dur":%s}`, int64(i)*10+6, b)
		x.ev(`{"ph":"X","cat":"kernel","name":"kbad","pid":0,"tid":7,"ts":%d,"dur":%s,"args":{"correlation":%d}}`, int64(i)*10+1, b, i+1)
	}
	return x.end()
}

// Repeated: n copies of one valid event (gzipped, a gzip bomb).
func Repeated(out io.Writer, n int) error {
	x := newW(out)
	for i := 0; i < n; i++ {
		x.ev(`{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":1,"dur":1}`)
	}
	return x.end()
}

// badBytes puts raw bytes in place of the markers in BadText's templates.
var badBytes = strings.NewReplacer("<FF>", "\xff", "<FE>", "\xfe", "<C3>", "\xc3", "<E282>", "\xe2\x82", "<01>", "\x01", "<02>", "\x02")

// BadText: names, categories, thread names and kernel names with invalid
// UTF-8 bytes, lone surrogate escapes, control characters and escaped NULs,
// in an ordinary CPU and GPU trace of n steps.
func BadText(out io.Writer, n int) error {
	x := newW(out)
	b := badBytes.Replace
	x.ev("%s", b(`{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main<FF>\ud800"}}`))
	x.ev("%s", b(`{"ph":"M","name":"process_name","pid":0,"args":{"name":"gpu<FE>"}}`))
	for i := 0; i < n; i++ {
		ts := int64(i) * 100
		x.step(int64(i+1), ts, 90)
		x.cpu("user_annotation", b("region<C3>"), 1, ts+1, 80, "")
		x.cpu("cpu_op", `aten::mm\ud800`, 1, ts+2, 70, fmt.Sprintf(`"External id":%d,"Input Dims":[["\udc00"]]`, i+1))
		x.cpu("cpu_op", b("aten::add<01><02>"), 1, ts+3, 10, "")
		x.cpu("cpu_op", `nul\u0000name`, 1, ts+14, 5, "")
		x.cpu("cuda_runtime", "cudaLaunchKernel", 1, ts+4, 5, fmt.Sprintf(`"correlation":%d,"External id":%d`, i+1, i+1))
		x.gpu("kernel", b("gemm<E282>"), 7, ts+10, 20, int64(i+1))
	}
	return x.end()
}
