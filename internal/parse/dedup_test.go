package parse

import (
	"fmt"
	"strings"
	"testing"
)

// TestDedupSharesEqualValues: events with equal launch parameters and
// shapes share one stored copy, and every event still reads its own values.
func TestDedupSharesEqualValues(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"traceEvents":[`)
	n := 0
	for i := 0; i < 300; i++ {
		grid, regs := i%3+1, 16*(i%5+1)
		if n > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":%d,"dur":1,"args":{"grid":[%d,1,1],"block":[128,1,1],"registers per thread":%d,"correlation":%d}}`, 10*i, grid, regs, i+1)
		fmt.Fprintf(&b, `,{"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":%d,"dur":2,"args":{"Input Dims":[[%d,4]],"External id":%d}}`, 10*i, i%4, i+1)
		n += 2
	}
	b.WriteString(`]}`)
	tr, err := Read(strings.NewReader(b.String()), "dedup", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.NumEvents() != n {
		t.Fatalf("%d events, want %d", tr.NumEvents(), n)
	}
	for i := 0; i < tr.NumEvents(); i++ {
		e := tr.Ev(i)
		k := int(e.Start / 10000) // ts is in us, Start in ns
		switch tr.NameOf(i) {
		case "k":
			a := tr.AuxOf(i)
			if a == nil || a.Grid != [3]int32{int32(k%3 + 1), 1, 1} || a.Block != [3]int32{128, 1, 1} || a.Regs != int32(16*(k%5+1)) {
				t.Fatalf("kernel %d: aux %+v", k, a)
			}
		case "op":
			x := tr.ExtraOf(i)
			if want := fmt.Sprintf("[[%d,4]]", k%4); x == nil || tr.Str(x.InputDims) != want || x.Aux != -1 {
				t.Fatalf("op %d: extra %+v, dims %q, want %q", k, x, tr.Str(x.InputDims), want)
			}
		}
	}
	// 15 distinct launch configurations, 4 distinct shapes
	if tr.Aux.Len() != 15 || tr.Extras.Len() != 15+4 {
		t.Errorf("%d auxes and %d extras stored, want 15 and 19", tr.Aux.Len(), tr.Extras.Len())
	}
}
