package gaps

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestQueueOfSmall: hand-counted queues.
func TestQueueOfSmall(t *testing.T) {
	for _, c := range []struct {
		name          string
		launch, start []int64
		limit         int
		want          string
	}{
		// three launches at 0, 10, 20; ops start at 30, 40, 50:
		// 1 for 10, 2 for 10, 3 for 10, 2 for 10, 1 for 10 (window 50)
		{"ramp", []int64{0, 10, 20}, []int64{30, 40, 50}, 3, "max 3 at 20 for 10, median 2, full 10, min 0"},
		// a launch and an op start at the same instant apply at once
		{"tie", []int64{0, 10}, []int64{10, 20}, 2, "max 1 at 0 for 20, median 1, full 0, min 0"},
		// an op that starts before its launch call (clocks apart): -1 for 5
		{"early", []int64{10}, []int64{5}, 1, "max 0 at 10 for 0, median -1, full 0, min -1"},
		{"one instant", []int64{7}, []int64{7}, 1, "max 0 at 7 for 0, median 0, full 0, min 0"},
		{"none", nil, nil, 1, "max 0 at 0 for 0, median 0, full 0, min 0"},
	} {
		q := queueOf(slices.Clone(c.launch), slices.Clone(c.start), 0, c.limit, 0, nil)
		got := fmt.Sprintf("max %d at %d for %d, median %d, full %d, min %d", q.MaxLen, q.MaxAtNs, q.TimeAtMaxNs, q.MedianLen, q.FullNs, q.MinLen)
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// rawQueue is the queue of one stream computed apart from queueOf: the
// level just after instant x is the number of launch calls started at or
// before x less the number of ops started at or before x (binary search
// in the two sorted lists); full and at-max time add up the stretches
// between consecutive instants.
func rawQueue(launch, start []int64, limit int) string {
	slices.Sort(launch)
	slices.Sort(start)
	upTo := func(s []int64, x int64) int { return sort.Search(len(s), func(i int) bool { return s[i] > x }) }
	at := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(launch), start...))))
	level := make([]int, len(at))
	best := 0
	for k, x := range at {
		level[k] = upTo(launch, x) - upTo(start, x)
		best = max(best, level[k])
	}
	var full, atMax int64
	for k := 0; k+1 < len(at); k++ {
		if level[k] >= limit {
			full += at[k+1] - at[k]
		}
		if level[k] == best {
			atMax += at[k+1] - at[k]
		}
	}
	return fmt.Sprintf("%d ops: max %d for %d, full %d", len(start), best, atMax, full)
}

// TestQueueRaw: per stream, the most ops queued, the time at that length
// and the time with a full queue equal rawQueue over the launch-call and
// op starts read from the raw JSON (decimal times), on every GPU trace of
// ../shared/traces; the limit is lowered to 64 so that the full time is
// not 0 everywhere.
func TestQueueRaw(t *testing.T) {
	t.Parallel() // reads cached traces and raw events only
	shared := testenv.Shared(t)
	files, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	const limit = 64
	checked, fullSeen := 0, 0
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
				var launch, start []int64
				for _, x := range ops {
					if x.launch != nil {
						launch, start = append(launch, x.launch.Ts), append(start, x.Ts)
					}
				}
				if len(start) > 0 {
					want = append(want, rawQueue(launch, start, limit))
				}
			}
			r := Analyze(load(t, f), Options{Device: -1, Stream: -1, Top: 1, MaxQueue: limit})
			var got []string
			for _, q := range r.Queues {
				if q.Ops > 0 {
					got = append(got, fmt.Sprintf("%d ops: max %d for %d, full %d", q.Ops, q.MaxLen, q.TimeAtMaxNs, q.FullNs))
					if q.FullNs > 0 {
						fullSeen++
					}
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("per stream:\n got %q\nwant %q", got, want)
			}
			for _, q := range r.Queues {
				if q.Ops > 0 {
					t.Logf("device %d stream %d: %d ops, max %d, median %d, min %d, %d early", q.Device, q.Stream, q.Ops, q.MaxLen, q.MedianLen, q.MinLen, q.EarlyOps)
				}
			}
			checked++
		})
	}
	if checked < 10 {
		t.Errorf("only %d GPU traces checked", checked)
	}
	if fullSeen == 0 {
		t.Errorf("no stream of any trace held %d ops: the full time was never checked above 0", limit)
	}
}

// TestQueuePlanted: the fullqueue scenario queues gen.FullQueueLaunches
// kernels behind a 6 ms one in each step: the queue is full (1,024, HTA's
// limit) for a while in every step, and the raw sweep agrees.
func TestQueuePlanted(t *testing.T) {
	path, tr := genFile(t, gen.Config{Steps: 3, Scenario: "fullqueue"})
	r := analyzeAll(tr)
	if len(r.Queues) == 0 {
		t.Fatal("no queue")
	}
	var full []Queue
	for _, q := range r.Queues {
		if q.Full() {
			full = append(full, q)
		}
		if q.Limit != QueueLimit {
			t.Errorf("limit %d, want %d", q.Limit, QueueLimit)
		}
	}
	if len(full) != 1 || full[0].MaxLen < QueueLimit || full[0].FullNs < 1_000_000 {
		t.Fatalf("want one stream full for over 1 ms, got %+v", r.Queues)
	}
	for _, ops := range rawStreams(readRaw(t, path)) {
		var launch, start []int64
		for _, x := range ops {
			if x.launch != nil {
				launch, start = append(launch, x.launch.Ts), append(start, x.Ts)
			}
		}
		want := rawQueue(launch, start, QueueLimit)
		q := full[0]
		if got := fmt.Sprintf("%d ops: max %d for %d, full %d", q.Ops, q.MaxLen, q.TimeAtMaxNs, q.FullNs); len(start) == q.Ops && got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}
