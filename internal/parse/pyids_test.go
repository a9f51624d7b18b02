package parse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// TestPythonIDsNotStored: a Python frame's "Python id" and "Python parent
// id" (every frame's are its own) give it no Extra and no Aux in the full
// reading, so thousands of frames store nothing beside their events; a
// frame's other args and a kernel's launch parameters beside them are
// read as before.
func TestPythonIDsNotStored(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"traceEvents": [`)
	const frames = 500
	for k := range frames {
		fmt.Fprintf(&b, `{"ph":"X","cat":"python_function","name":"f%d","pid":1,"tid":1,"ts":%d,"dur":5,"args":{"Python id":%d,"Python parent id":%d,"Python thread":0}},`,
			k%7, 10*k, k+1, k)
	}
	b.WriteString(`{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":3,"dur":2,"args":{"correlation":1,"grid":[2,1,1],"block":[64,1,1],"registers per thread":32,"Python id":9}}`)
	b.WriteString(`]}`)
	tr, err := Read(strings.NewReader(b.String()), "py.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	frameCount, kernels := 0, 0
	for i := range tr.NumEvents() {
		e := tr.Ev(i)
		switch e.Kind {
		case trace.KindPython:
			frameCount++
			if x := tr.ExtraOf(i); x != nil {
				t.Fatalf("frame %d (%s) stores %+v", i, tr.NameOf(i), *x)
			}
		case trace.KindKernel:
			kernels++
			a := tr.AuxOf(i)
			if a == nil || !a.HasLaunch || a.Grid != [3]int32{2, 1, 1} || a.Block != [3]int32{64, 1, 1} || a.Regs != 32 {
				t.Fatalf("kernel's launch parameters: %+v", a)
			}
		}
	}
	if frameCount != frames || kernels != 1 {
		t.Fatalf("%d frames and %d kernels, want %d and 1", frameCount, kernels, frames)
	}
	if n := tr.Aux.Len(); n != 1 {
		t.Errorf("%d Aux stored, want the kernel's alone", n)
	}
}
