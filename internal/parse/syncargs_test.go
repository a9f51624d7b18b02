package parse

import (
	"strings"
	"testing"
)

// A cuda_sync event keeps what it waited on, with and without NoExtras.
func TestSyncWaitArgs(t *testing.T) {
	t.Parallel()
	src := `{"traceEvents": [
{"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 20, "ts": 10, "dur": 1,
 "args": {"wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": 5169, "stream": 20, "correlation": 5170}},
{"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 7, "ts": 20, "dur": 1, "args": {"stream": 7, "correlation": 15}}]}`
	for _, lean := range []bool{false, true} {
		tr, err := Read(strings.NewReader(src), "t", Options{NoExtras: lean})
		if err != nil {
			t.Fatal(err)
		}
		a := tr.AuxOf(0)
		if a == nil || a.WaitStream != 7 || a.WaitRecord != 5169 {
			t.Fatalf("NoExtras %v: aux %+v, want wait_on_stream 7, record 5169", lean, a)
		}
		if b := tr.AuxOf(1); b != nil && (b.WaitStream != -1 || b.WaitRecord != -1) {
			t.Fatalf("NoExtras %v: a sync without wait args has %+v", lean, b)
		}
	}
}
