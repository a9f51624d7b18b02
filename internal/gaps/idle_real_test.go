package gaps

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestIdleCategoriesRaw: per stream, host_wait / kernel_wait / other_wait
// equal an independent computation over the raw JSON (encoding/json and
// math/big) on every GPU trace of ../shared/traces.
func TestIdleCategoriesRaw(t *testing.T) {
	t.Parallel() // reads cached traces and raw events only
	shared := testenv.Shared(t)
	files, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".tar.gz") {
			continue
		}
		t.Run(filepath.Base(f)[:min(40, len(filepath.Base(f)))], func(t *testing.T) {
			raw := rawStreams(readRaw(t, f))
			if len(raw) == 0 {
				t.Skip("no GPU lane")
			}
			var want []string
			for _, ops := range raw {
				var w [3]int64
				var n [3]int
				end := ops[0].End
				for _, x := range ops[1:] {
					if gap := x.Ts - end; gap > 0 {
						k := 2
						switch {
						case x.launch != nil && x.launch.Ts > end:
							k = 0
						case gap < 30000:
							k = 1
						}
						w[k] += gap
						n[k]++
					}
					end = max(end, x.End)
				}
				want = append(want, fmt.Sprintf("%d ops: host %d/%d kernel %d/%d other %d/%d", len(ops), w[0], n[0], w[1], n[1], w[2], n[2]))
			}
			tr := load(t, f)
			r := Analyze(tr, Options{Device: -1, Stream: -1, Top: 1})
			var got []string
			for k, d := range r.Idle.Streams {
				got = append(got, fmt.Sprintf("%d ops: host %d/%d kernel %d/%d other %d/%d", r.Streams[k].Ops, d.WaitNs[HostWait], d.Gaps[HostWait],
					d.WaitNs[KernelWait], d.Gaps[KernelWait], d.WaitNs[OtherWait], d.Gaps[OtherWait]))
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("per stream:\n got %q\nwant %q", got, want)
			}
			checked++
		})
	}
	if checked < 10 {
		t.Errorf("only %d GPU traces checked", checked)
	}
}
