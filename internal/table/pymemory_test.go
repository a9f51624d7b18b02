package table

import (
	"bytes"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

// TestMemoryRecordAtPythonFrameStart settles issue 19's question on torch
// <= 2.3 (integer-microsecond Kineto traces with python_function events): a
// [memory] record whose time equals the start of a 1 us Python frame
// inside an op. In that era's _parse_kineto_results every KinetoEvent of
// device type CPU takes the records with start_us <= ts <= start_us +
// duration_us (MemRecordsAcc.in_interval: bisect_left, bisect_right), and a
// Python call's KinetoEvent is of device type CPU (Result::deviceType's
// default); its usage is inclusive, and _populate_cpu_children makes the
// frame the op's child, so self_cpu_memory_usage (usage less the
// children's) puts the bytes on the frame, not on the op. tracetab follows
// that source; an external rebuild that left Python frames without memory
// charged the op instead.
func TestMemoryRecordAtPythonFrameStart(t *testing.T) {
	src := `{"schemaVersion":1,"traceEvents":[` +
		`{"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":1000,"dur":500},` +
		`{"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":7,"tid":7,"ts":1100,"dur":100,"args":{"External id":1,"Ev Idx":0}},` +
		`{"ph":"X","cat":"python_function","name":"<built-in function time>","pid":7,"tid":7,"ts":1150,"dur":1,"args":{"Python id":5,"Ev Idx":1}},` +
		`{"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":7,"tid":7,"ts":1150,` +
		`"args":{"Addr":99,"Bytes":4096,"Total Allocated":4096,"Total Reserved":8192,"Device Type":0,"Device Id":-1,"Ev Idx":2}}]}`
	tr, err := parse.Read(bytes.NewReader([]byte(src)), "pyframe", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := RecordingOf(tr)
	if !rec.Newest.Less(Version{2, 4}) {
		t.Fatalf("the trace reads as %+v, want an era of torch <= 2.3", rec)
	}
	res, err := Compute(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Row{}
	for _, r := range res.Rows {
		got[r.Name] = r
	}
	op, frame := got["aten::copy_"], got["<built-in function time>"]
	if op.CPUMem != 4096 || op.SelfCPUMem != 0 {
		t.Errorf("aten::copy_: CPU Mem %d, Self %d; want 4096 inclusive, 0 self", op.CPUMem, op.SelfCPUMem)
	}
	if frame.CPUMem != 4096 || frame.SelfCPUMem != 4096 {
		t.Errorf("the Python frame: CPU Mem %d, Self %d; want 4096, 4096", frame.CPUMem, frame.SelfCPUMem)
	}
	if _, ok := got["[memory]"]; ok {
		t.Error("the record was left unclaimed")
	}
}
