package diff

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestOutsideStepsCount: the row of the work outside the steps counts the
// ops that ran outside them and the [memory] records no op claimed outside
// them; never the records of the steps once per step (issue 19: -64177 on
// a trace with 18 ops outside its steps).
func TestOutsideStepsCount(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"schemaVersion":1,"baseTimeNanoseconds":1700000000000000000,"traceEvents":[`)
	b.WriteString(`{"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":0,"dur":1}`)
	id := 0
	op := func(name string, ts, dur int) {
		id++
		fmt.Fprintf(&b, `,{"ph":"X","cat":"cpu_op","name":%q,"pid":1,"tid":1,"ts":%d,"dur":%d,"args":{"External id":%d}}`, name, ts, dur, id)
	}
	mem := func(ts int) {
		fmt.Fprintf(&b, `,{"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":%d,`+
			`"args":{"Addr":%d,"Bytes":64,"Total Allocated":64,"Total Reserved":4096,"Device Type":0,"Device Id":-1}}`, ts, 5000+ts)
	}
	// 2 ops and 3 records before the steps, 1 op and 2 records after
	op("aten::zeros", 10, 5)
	op("aten::fill_", 20, 5)
	mem(30)
	mem(31)
	mem(32)
	for k := 0; k < 4; k++ {
		s := 100 + 100*k
		fmt.Fprintf(&b, `,{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":90}`, k+1, s)
		op("aten::add", s+10, 5)
		op("aten::mul", s+30, 5)
		mem(s + 12) // inside aten::add
		mem(s + 50) // inside the step, between ops: the step's annotation claims it
	}
	op("aten::sum", 600, 5)
	mem(700)
	mem(701)
	b.WriteString("]}")
	tr, err := parse.Read(bytes.NewReader(b.Bytes()), "outside", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	side, err := Reduce([]*trace.Trace{tr}, []string{"outside"}, Options{By: "op", Normalize: true})
	if err != nil {
		t.Fatal(err)
	}
	if side.Outside == nil {
		t.Fatal("no outside row")
	}
	// outside the steps: 3 ops, and 5 records that no op claims (each a
	// "[memory]" row of its own in torch's table)
	const want = 3 + 5
	if got := side.Outside.Samples["count"]; len(got) != 1 || got[0] != want {
		t.Errorf("outside count %v, want [%d]", got, want)
	}
	for _, r := range side.Rows {
		for k, x := range r.Samples["count"] {
			if x < 0 {
				t.Errorf("%s: negative count %v in sample %d", r.Key, x, k)
			}
		}
	}
}
