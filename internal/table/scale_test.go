package table

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// scaleBound is how long Compute may take on the generated traces below;
// the quadratic versions took over 60 s on the 2-core build machine.
const scaleBound = 15 * time.Second

func genTrace(t *testing.T, write func(b *bytes.Buffer)) *trace.Trace {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`{"schemaVersion":1,"baseTimeNanoseconds":1700000000000000000,"traceEvents":[`)
	b.WriteString(`{"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":0,"dur":1}`)
	write(&b)
	b.WriteString("]}")
	tr, err := parse.Read(bytes.NewReader(b.Bytes()), "generated", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func timedCompute(t *testing.T, tr *trace.Trace) *Result {
	t.Helper()
	start := time.Now()
	res, err := Compute(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > scaleBound {
		t.Fatalf("Compute took %v on %d events (bound %v): superlinear somewhere", d, tr.NumEvents(), scaleBound)
	}
	return res
}

// TestManyThreads: 200,000 threads, each an op with one child. The merge
// of per-thread orders must not scan every thread per event.
func TestManyThreads(t *testing.T) {
	const n = 200000
	tr := genTrace(t, func(b *bytes.Buffer) {
		for i := 0; i < n; i++ {
			fmt.Fprintf(b, `,{"ph":"X","cat":"cpu_op","name":"outer","pid":1,"tid":%d,"ts":%d,"dur":10}`, i+2, i)
			fmt.Fprintf(b, `,{"ph":"X","cat":"cpu_op","name":"inner","pid":1,"tid":%d,"ts":%d,"dur":4}`, i+2, i+3)
		}
	})
	res := timedCompute(t, tr)
	if len(res.Rows) != 2 {
		t.Fatalf("want 2 rows, got %d", len(res.Rows))
	}
	for _, r := range res.Rows {
		wantSelf := map[string]float64{"outer": 6 * n, "inner": 4 * n}[r.Name]
		if r.Count != n || r.SelfCPU != wantSelf {
			t.Errorf("%s: %d calls, Self CPU %v us; want %d calls, %v us", r.Name, r.Count, r.SelfCPU, n, wantSelf)
		}
	}
}

// TestManyNames: 300,000 distinct op names, one event each: a row per name
// in first-occurrence order, found without a linear lookup per new name.
func TestManyNames(t *testing.T) {
	const n = 300000
	tr := genTrace(t, func(b *bytes.Buffer) {
		for i := 0; i < n; i++ {
			fmt.Fprintf(b, `,{"ph":"X","cat":"cpu_op","name":"op_%d","pid":1,"tid":1,"ts":%d,"dur":1}`, i, 2*i)
		}
	})
	res := timedCompute(t, tr)
	if len(res.Rows) != n {
		t.Fatalf("want %d rows, got %d", n, len(res.Rows))
	}
	for i, r := range res.Rows {
		if want := fmt.Sprintf("op_%d", i); r.Name != want || r.Count != 1 {
			t.Fatalf("row %d: %s with %d calls, want %s with 1", i, r.Name, r.Count, want)
		}
	}
}
