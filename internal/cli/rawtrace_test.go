package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/tracetab/tracetab/internal/rawjson"
	"slices"
	"strings"
	"testing"
)

// rawEvent is a trace event as written, read by rawjson apart from the
// parser (shared: never change one).
type rawEvent = rawjson.Event

// readRaw is the events of a trace file (plain or gzip, an object or a
// bare array), with their args.
func readRaw(t *testing.T, path string) []rawEvent {
	t.Helper()
	return rawjson.MustReadArgs(t, path)
}

// argInt is args[key] as an integer written as a JSON number.
func argInt(e rawEvent, key string) (int64, bool) { return e.ArgInt(key) }

// jsonRows runs table --format json and returns its rows by name (the
// first row of each name).
func jsonRows(t *testing.T, args ...string) map[string]map[string]any {
	t.Helper()
	out, stderr, code := run(t, append([]string{"table", "--format", "json", "--limit", "-1"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[string]any{}
	for _, r := range doc.Rows {
		name := r["name"].(string)
		if _, ok := rows[name]; !ok {
			rows[name] = r
		}
	}
	return rows
}

// readRawFile is readRaw.
func readRawFile(t *testing.T, path string) []rawEvent { return readRaw(t, path) }

// rawSpan is one X event with its thread and exact ns times.
type rawSpan struct {
	e      *rawEvent
	tid    string
	lo, hi int64
}

// sortSpans orders spans as torch does: start, then longest first.
func sortSpans(s []rawSpan) {
	slices.SortStableFunc(s, func(a, b rawSpan) int {
		if a.lo != b.lo {
			return cmp.Compare(a.lo, b.lo)
		}
		return cmp.Compare(b.hi, a.hi)
	})
}

// rootNs sums the durations of the spans no other span of the same group
// contains (torch's stack rule, half-open): that is "Self CPU time total".
func rootNs(groups map[string][]rawSpan) int64 {
	var sum int64
	for _, s := range groups {
		sortSpans(s)
		rootEnd := int64(-1 << 62)
		for _, x := range s {
			if x.lo >= rootEnd || x.hi > rootEnd {
				sum += x.hi - x.lo
				rootEnd = x.hi
			}
		}
	}
	return sum
}

// torchTimeText is torch's _format_time of integer ns.
func torchTimeText(ns int64) string {
	us := float64(ns) / 1000
	switch {
	case us >= 1e6:
		return fmt.Sprintf("%.3fs", us/1e6)
	case us >= 1e3:
		return fmt.Sprintf("%.3fms", us/1e3)
	}
	return fmt.Sprintf("%.3fus", us)
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// deviceCats are the device activities torch hands to the op that
// launched them (gpu_user_annotation spans are never linked).
var deviceCats = map[string]bool{"kernel": true, "gpu_memcpy": true, "gpu_memset": true, "cuda_sync": true}

// innermostOps maps each runtime or driver call to the External id of the
// innermost cpu_op on its thread that contains it (0 when none), by
// torch's stack rule.
func innermostOps(t *testing.T, evs []rawEvent) map[*rawEvent]int64 {
	byTid := map[string][]rawSpan{}
	for i := range evs {
		e := &evs[i]
		if e.Ph != "X" || (e.Cat != "cpu_op" && e.Cat != "cuda_runtime" && e.Cat != "cuda_driver") {
			continue
		}
		pid, tid := e.Pid, e.Tid
		lo := e.Ts
		byTid[pid+"/"+tid] = append(byTid[pid+"/"+tid], rawSpan{e, tid, lo, lo + e.Dur})
	}
	out := map[*rawEvent]int64{}
	for _, s := range byTid {
		sortSpans(s)
		var stack []rawSpan
		for _, x := range s {
			for len(stack) > 0 {
				p := stack[len(stack)-1]
				if x.lo >= p.hi || x.hi > p.hi {
					stack = stack[:len(stack)-1]
					continue
				}
				break
			}
			if x.e.Cat == "cpu_op" {
				stack = append(stack, x)
				continue
			}
			if len(stack) > 0 {
				out[x.e], _ = argInt(*stack[len(stack)-1].e, "External id")
			} else {
				out[x.e] = 0
			}
		}
	}
	return out
}
