package parse

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/tracetab/tracetab/internal/trace"
)

// TestBigIDs: External ids and correlation ids beyond an Event's 32 bits
// (and negative ones) read back exactly, by the sequential and the
// parallel reading alike (the parallel one equal to the sequential one,
// field for field), and a kernel links to its launch call by such an id;
// an Event stays 40 bytes.
func TestBigIDs(t *testing.T) {
	if n := unsafe.Sizeof(trace.Event{}); n != 40 {
		t.Errorf("an Event is %d bytes, want 40", n)
	}
	ids := []int64{0, 1, math.MaxInt32, math.MaxInt32 + 1, -5, 1 << 40, 1 << 62, -(1 << 60), 7}
	var b strings.Builder
	b.WriteString(`{"traceEvents": [`)
	for k, id := range ids {
		ext := ids[len(ids)-1-k]
		ts := 100 * k
		fmt.Fprintf(&b, `{"ph":"X","cat":"cpu_op","name":"op%d","pid":1,"tid":1,"ts":%d,"dur":50,"args":{"External id":%d}},`, k, ts, ext)
		fmt.Fprintf(&b, `{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":10,"args":{"correlation":%d,"External id":%d}},`, ts+5, id, ext)
		fmt.Fprintf(&b, `{"ph":"X","cat":"kernel","name":"k%d","pid":0,"tid":7,"ts":%d,"dur":20,"args":{"correlation":%d,"External id":%d}},`, k, ts+20, id, ext)
	}
	b.WriteString(`{"ph":"X","cat":"cpu_op","name":"last","pid":1,"tid":1,"ts":5000,"dur":1}]}`)
	path := writeTemp(t, "big.json", b.String())
	seq, serr, par, perr := readBoth(t, path, Options{}, 97)
	if serr != nil || perr != nil {
		t.Fatalf("sequential %v, parallel %v", serr, perr)
	}
	equalTraces(t, "big ids", seq, par)
	for _, tr := range []*trace.Trace{seq, par} {
		l := tr.Links()
		kernels := 0
		for i := range tr.NumEvents() {
			e := tr.Ev(i)
			name := tr.NameOf(i)
			if !strings.HasPrefix(name, "k") {
				continue
			}
			var k int
			fmt.Sscanf(name, "k%d", &k)
			kernels++
			if got := tr.CorrOf(e); got != ids[k] {
				t.Errorf("%s: correlation %d, want %d", name, got, ids[k])
			}
			if got, want := tr.ExtIDOf(e), ids[len(ids)-1-k]; got != want {
				t.Errorf("%s: External id %d, want %d", name, got, want)
			}
			if ids[k] == 0 {
				continue // a correlation of 0 links nothing
			}
			r := l.Launch[i]
			if r < 0 || tr.CorrOf(tr.Ev(int(r))) != ids[k] || tr.NameOf(int(r)) != "cudaLaunchKernel" {
				t.Errorf("%s: launch %d, want the call with correlation %d", name, r, ids[k])
			}
		}
		if kernels != len(ids) {
			t.Fatalf("%d kernels, want %d", kernels, len(ids))
		}
	}
}
