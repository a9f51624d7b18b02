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
