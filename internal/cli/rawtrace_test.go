package cli

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rawEvent is a trace event as written, read independently of the parser.
type rawEvent struct {
	Ph   string                     `json:"ph"`
	Cat  string                     `json:"cat"`
	Name string                     `json:"name"`
	Ts   json.Number                `json:"ts"`
	Dur  json.Number                `json:"dur"`
	Pid  json.RawMessage            `json:"pid"`
	Tid  json.RawMessage            `json:"tid"`
	Args map[string]json.RawMessage `json:"args"`
}

// thread is the event's pid and tid as written.
func (e *rawEvent) thread() (pid, tid string) {
	return strings.Trim(string(e.Pid), `"`), strings.Trim(string(e.Tid), `"`)
}

func readRaw(t *testing.T, path string) []rawEvent {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []rawEvent `json:"traceEvents"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc.TraceEvents
}

// usToNs turns a decimal microsecond string ("5002.837") into exact ns.
func usToNs(t *testing.T, n json.Number) int64 {
	t.Helper()
	s := string(n)
	if s == "" {
		return 0
	}
	whole, frac, _ := strings.Cut(s, ".")
	frac = (frac + "000")[:3]
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("bad time %q", s)
	}
	return w*1000 + f
}

func argInt(e rawEvent, key string) (int64, bool) {
	raw, ok := e.Args[key]
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	return v, err == nil
}

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

// readRawFile reads a trace (gzip or not) as raw events.
func readRawFile(t *testing.T, path string) []rawEvent {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	var evs []rawEvent
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
		err = d.Decode(&evs)
	} else {
		var doc struct {
			TraceEvents []rawEvent `json:"traceEvents"`
		}
		err = d.Decode(&doc)
		evs = doc.TraceEvents
	}
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

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
		pid, tid := e.thread()
		lo := usToNs(t, e.Ts)
		byTid[pid+"/"+tid] = append(byTid[pid+"/"+tid], rawSpan{e, tid, lo, lo + usToNs(t, e.Dur)})
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
