package gaps

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// scaleTrace writes n GPU streams with one kernel each, launched from one
// thread, and n blocking syncs between the launches.
func scaleTrace(t testing.TB, streams, syncs int) *trace.Trace {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`{"traceEvents":[`)
	sep := ""
	ev := func(f string, a ...any) {
		b.WriteString(sep)
		fmt.Fprintf(&b, f, a...)
		sep = ",\n"
	}
	for k := 0; k < streams; k++ {
		ts := 10 * k
		ev(`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":2,"args":{"correlation":%d}}`, ts, k+1)
		ev(`{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":%d,"ts":%d,"dur":3,"args":{"correlation":%d}}`, 7+k, ts+4, k+1)
	}
	for k := 0; k < syncs; k++ {
		ev(`{"ph":"X","cat":"cuda_runtime","name":"cudaStreamSynchronize","pid":1,"tid":1,"ts":%d,"dur":2,"args":{"correlation":%d}}`, 10*k+3, streams+k+1)
	}
	b.WriteString("]}")
	tr, err := parse.Read(&b, "scale.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Links()
	return tr
}

// TestScale: 1e5 streams and 1e5 syncs are analysed (the merge per stream
// and the check of every sync against every kernel were quadratic: about
// 50 s and 10 s).
func TestScale(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	tr := scaleTrace(t, 100_000, 100_000)
	start := time.Now()
	r := Analyze(tr, Options{Device: -1, Stream: -1, Top: 10})
	took := time.Since(start)
	t.Logf("1e5 streams, 1e5 syncs: %v", took)
	if len(r.Streams) != 100_000 || len(r.Devices) != 1 || r.Devices[0].Ops != 100_000 {
		t.Fatalf("%d streams, %+v", len(r.Streams), r.Devices)
	}
	if len(r.Syncs) != 10 || r.Syncs[0].GPUBusyNs != 1000 {
		t.Errorf("syncs %+v", r.Syncs)
	}
	// A hang guard, not a speed measurement (BenchmarkScale is that): the
	// quadratic passes took minutes here; linear ones take well under 1 s
	// even under -race on a loaded 2-core machine.
	if took > 60*time.Second {
		t.Errorf("took %v: a quadratic pass is back", took)
	}
}

// BenchmarkScale: one analysis of 1e5 streams and 1e5 syncs.
func BenchmarkScale(b *testing.B) {
	tr := scaleTrace(b, 100_000, 100_000)
	b.ResetTimer()
	for range b.N {
		Analyze(tr, Options{Device: -1, Stream: -1, Top: 10})
	}
}
