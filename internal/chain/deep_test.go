package chain

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// deepTrace is one CPU thread nested n deep (level i spans [i, 2n-i) us),
// with a launch call and its kernel at the bottom. same gives every level
// the same name.
func deepTrace(t testing.TB, n int, same bool) *trace.Trace {
	var b bytes.Buffer
	b.WriteString(`{"traceEvents":[` + "\n")
	for i := 0; i < n; i++ {
		name := "level"
		if !same {
			name = "level_" + strconv.Itoa(i)
		}
		fmt.Fprintf(&b, `{"ph":"X","cat":"cpu_op","name":"%s","pid":1,"tid":1,"ts":%d,"dur":%d},`+"\n", name, i, 2*(n-i))
	}
	fmt.Fprintf(&b, `{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":1,"args":{"correlation":7}},`+"\n", n)
	fmt.Fprintf(&b, `{"ph":"X","cat":"kernel","name":"deep_kernel","pid":0,"tid":7,"ts":%d,"dur":5,"args":{"correlation":7,"device":0,"stream":7}}`+"\n]}\n", n+10)
	tr, err := parse.Read(&b, "deep", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestDeepNesting: 1e5 levels, with one name or distinct names: every
// walk is linear, the output stays within --max-lines, and what was left
// out is counted exactly.
func TestDeepNesting(t *testing.T) {
	const n, lines = 100_000, 100
	for _, same := range []bool{true, false} {
		t.Run(fmt.Sprint("same=", same), func(t *testing.T) {
			tr := deepTrace(t, n, same)
			start := time.Now()
			o := Options{MaxLines: lines}
			// default: no steps, the first top-level event that launched GPU work
			r := walk(t, tr, Query{}, o)
			if r.sel.Mode != ModeTopGPU || len(r.items[0]) != lines || r.items[0][0].Depth != 0 {
				t.Fatalf("default: mode %s, %d items", r.sel.Mode, len(r.items[0]))
			}
			// n levels + the launch call + its kernel
			if got := r.chains[0].OmittedLines; got != n+2-lines {
				t.Errorf("omitted %d lines, want %d", got, n+2-lines)
			}
			for k, it := range r.items[0] {
				if it.Depth != k || it.DurNs != int64(2*(n-k))*1000 || it.SelfNs != 2000 {
					t.Fatalf("item %d: depth %d dur %d self %d", k, it.Depth, it.DurNs, it.SelfNs)
				}
			}
			// up from the kernel: the launch call and n levels, bounded
			up := walk(t, tr, Query{Match: exact(t, "deep_kernel")}, o)
			if len(up.items[0]) != lines || up.chains[0].OmittedLines != n+1-lines || up.items[0][0].Name != "cudaLaunchKernel" {
				t.Fatalf("up: %d frames, %d omitted", len(up.items[0]), up.chains[0].OmittedLines)
			}
			// --depth cuts the display, not the self times
			d := walk(t, tr, Query{}, Options{MaxDepth: 3})
			ev := events(d.items[0])
			if len(ev) != 4 || d.chains[0].HiddenBelowDepth != n+1-4 || ev[3].SelfNs != 2000 {
				t.Fatalf("depth 3: %d events shown, %d hidden, self %d", len(ev), d.chains[0].HiddenBelowDepth, ev[3].SelfNs)
			}
			if same {
				all := walk(t, tr, Query{Match: exact(t, "level"), All: true}, o)
				if all.sel.Total != n || len(all.sel.Chosen) != 1 || all.sel.Nested != n-1 {
					t.Fatalf("--all: %d instances, %d chosen, %d nested", all.sel.Total, len(all.sel.Chosen), all.sel.Nested)
				}
				s, _ := Select(tr, Query{Match: exact(t, "level")})
				sum := Summarize(s)
				if sum.Calls != 1 || sum.Nested != n-1 || len(sum.Rows) != 1 || sum.Rows[0].Count != 1 {
					t.Fatalf("summary %+v", sum)
				}
				// instance N is the N-th in the trace: level N-1 here
				in := walk(t, tr, Query{Match: exact(t, "level"), Instance: 500}, Options{MaxLines: 1})
				if in.items[0][0].StartNs != 499_000 {
					t.Fatalf("instance 500 starts at %d", in.items[0][0].StartNs)
				}
			}
			if el := time.Since(start); el > 20*time.Second {
				t.Errorf("walks of a %d-deep trace took %v", n, el)
			}
		})
	}
}
