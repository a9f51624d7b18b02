// Package testtrace writes the tiny traces unit tests build their cases
// from, one event a line, and parses them as tracetab does.
package testtrace

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// Mini parses events written as "cat|name|tid|ts|dur[|corr]" (us; tid 0
// is stream 7 of GPU 0, anything else a CPU thread of pid 1; without corr
// each event gets its own correlation id, 100 plus its index).
func Mini(t testing.TB, rows ...string) *trace.Trace {
	t.Helper()
	var evs []string
	for k, r := range rows {
		f := strings.Split(r, "|")
		pid, tid := "1", f[2]
		if f[2] == "0" {
			pid, tid = "0", "7"
		}
		corr := fmt.Sprint(100 + k)
		if len(f) > 5 {
			corr = f[5]
		}
		evs = append(evs, fmt.Sprintf(`{"ph":"X","cat":%q,"name":%q,"pid":%s,"tid":%s,"ts":%s,"dur":%s,"args":{"correlation":%s}}`,
			f[0], f[1], pid, tid, f[3], f[4], corr))
	}
	tr, err := parse.Read(strings.NewReader(`{"traceEvents":[`+strings.Join(evs, ",")+`]}`), "mini.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// SmallModel is the JSON of steps profiler steps of a small model, in
// integer microseconds: Model_0 holds Encoder_0 (Linear_1 of linUs with a
// kernel of linUs*2/5, then Norm_0) and Decoder_0 (Norm_0, the same
// instance reached through another parent; with dropout, Dropout_0 too).
// With modules false the frames are plain Python functions (no
// "nn.Module: " prefix).
func SmallModel(steps, linUs int, dropout, modules bool) []byte {
	var ev []string
	corr := 0
	mod := func(n string, ts, dur int) {
		if modules {
			n = "nn.Module: " + n
		}
		ev = append(ev, fmt.Sprintf(`{"ph":"X","cat":"python_function","name":%q,"pid":1,"tid":1,"ts":%d,"dur":%d}`, n, ts, dur))
	}
	launch := func(ts, kdur int) {
		corr++
		ev = append(ev,
			fmt.Sprintf(`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":1,"args":{"correlation":%d}}`, ts, corr),
			fmt.Sprintf(`{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":%d,"dur":%d,"args":{"correlation":%d}}`, ts+5, kdur, corr))
	}
	for k := 0; k < steps; k++ {
		s := 1000 + 1000*k
		ev = append(ev, fmt.Sprintf(`{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":900}`, k+1, s))
		mod("Model_0", s+10, 800)
		mod("Encoder_0", s+20, 400)
		mod("Linear_1", s+30, linUs)
		launch(s+35, linUs*2/5)
		mod("Norm_0", s+300, 50)
		launch(s+310, 10)
		mod("Decoder_0", s+500, 200)
		mod("Norm_0", s+510, 50)
		launch(s+520, 10)
		if dropout {
			mod("Dropout_0", s+600, 20)
		}
	}
	return []byte(`{"schemaVersion":1,"traceEvents":[` + strings.Join(ev, ",") + `]}`)
}
