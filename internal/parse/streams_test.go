package parse

import (
	"fmt"
	"strings"
	"testing"
)

// TestLaneStreamFromArgs: a device lane is named by its events'
// args.stream (an MTIA trace writes a thread id as tid), by its tid
// when they give none or several; the parallel reading agrees.
func TestLaneStreamFromArgs(t *testing.T) {
	var evs []string
	for k := 0; k < 400; k++ {
		// tid 4: stream 30 in args; tid 5: none; tid 6: two streams
		evs = append(evs,
			fmt.Sprintf(`{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":4,"ts":%d,"dur":1,"args":{"stream":30,"correlation":%d}}`, 10*k, k),
			fmt.Sprintf(`{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":5,"ts":%d,"dur":1,"args":{"correlation":%d}}`, 10*k, 1000+k),
			fmt.Sprintf(`{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":6,"ts":%d,"dur":1,"args":{"stream":%d}}`, 10*k, 40+k%2),
			fmt.Sprintf(`{"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":4,"ts":%d,"dur":1,"args":{"stream":99}}`, 10*k))
	}
	path := writeTemp(t, "streams.json", `{"traceEvents":[`+strings.Join(evs, ",\n")+`]}`)
	seq, serr, par, perr := readBoth(t, path, Options{}, 4096)
	if serr != nil || perr != nil {
		t.Fatal(serr, perr)
	}
	equalTraces(t, "streams", seq, par)
	want := map[int64]int64{4: 30, 5: 5, 6: 6}
	seen := 0
	for _, tr := range seq.Tracks {
		if tr.Pid.Int != 0 {
			continue
		}
		seen++
		if got := tr.Stream; got != want[tr.Tid.Int] {
			t.Errorf("tid %d: stream %d, want %d", tr.Tid.Int, got, want[tr.Tid.Int])
		}
	}
	if seen != 3 {
		t.Errorf("%d device tracks", seen)
	}
}
