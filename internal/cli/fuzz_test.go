package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// fuzzCats are the categories an event can be turned into.
var fuzzCats = []string{"cpu_op", "user_annotation", "python_function", "cuda_runtime", "cuda_driver", "kernel", "gpu_memcpy",
	"gpu_memset", "gpu_user_annotation", "cuda_sync", "overhead", "Trace", "ac2g", "fwdbwd", "cpu_instant_event"}

// mutateTrace applies the structural edits that ops spells, two bytes an
// edit (what, which event), to the sample's events: drop, duplicate, move,
// recategorise, zero or stretch durations, rename to a step, add a
// [memory] record or a flow end at it.
func mutateTrace(events []map[string]any, ops []byte) []map[string]any {
	evs := make([]map[string]any, len(events))
	for i, e := range events {
		c := make(map[string]any, len(e))
		for k, v := range e {
			c[k] = v
		}
		evs[i] = c
	}
	for k := 0; k+1 < len(ops) && len(evs) > 0; k += 2 {
		i := int(ops[k+1]) % len(evs)
		e := evs[i]
		ts, _ := e["ts"].(float64)
		switch ops[k] % 10 {
		case 0:
			evs = append(evs[:i], evs[i+1:]...)
		case 1:
			evs = append(evs, e)
		case 2:
			e["ts"] = ts + float64(int(ops[k+1])-128)*3.5
		case 3:
			e["cat"] = fuzzCats[int(ops[k+1])%len(fuzzCats)]
		case 4:
			e["dur"] = 0.0
		case 5:
			d, _ := e["dur"].(float64)
			e["dur"] = d*7 + 1000
		case 6:
			e["name"] = "ProfilerStep#" + string(rune('0'+ops[k+1]%10))
			e["cat"] = "user_annotation"
		case 7:
			evs = append(evs, map[string]any{"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": e["pid"], "tid": e["tid"],
				"ts": ts, "args": map[string]any{"Addr": float64(ops[k+1]), "Bytes": float64(int(ops[k+1]) - 100), "Total Allocated": 4096.0,
					"Total Reserved": 8192.0, "Device Type": float64(ops[k+1] % 2), "Device Id": 0.0}})
		case 8:
			evs = append(evs, map[string]any{"ph": "f", "id": float64(ops[k+1]), "pid": e["pid"], "tid": e["tid"], "ts": ts, "cat": "ac2g", "name": "ac2g", "bp": "e"})
		case 9:
			if a, ok := e["args"].(map[string]any); ok {
				a["correlation"] = float64(ops[k+1] % 8)
				a["External id"] = float64(ops[k+1] % 5)
			}
		}
	}
	return evs
}

// FuzzCommands mutates the structure of a real trace (events dropped,
// duplicated, moved, recategorised, zeroed, stretched; steps, memory
// records and flow ends added; links rewired) and runs every command on
// it: none may panic or hang; each exits with a documented code.
func FuzzCommands(f *testing.F) {
	raw, err := os.ReadFile(testdata("sample.pt.trace.json"))
	if err != nil {
		f.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		f.Fatal(err)
	}
	events := []map[string]any{}
	for _, e := range doc["traceEvents"].([]any) {
		events = append(events, e.(map[string]any))
	}
	for _, seed := range []string{"", "\x00\x03", "\x01\x05\x04\x09", "\x03\x07\x03\x08\x06\x01", "\x07\x02\x07\x02\x07\x02", "\x09\x01\x09\x02\x00\x00\x08\x05", "\x05\x00\x02\xff\x06\x10"} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	lines := [][]string{
		{"table"}, {"table", "--by", "kernel"}, {"table", "--by", "step"}, {"table", "--sort", "cpu_memory_usage"},
		{"gaps"}, {"gaps", "--hta"}, {"chain"}, {"chain", "--regex", "--summary", "."}, {"compile"}, {"ranks"},
		{"diff", "SELF"}, {"check", "--max-gpu-idle", "100"},
	}
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 64 {
			ops = ops[:64]
		}
		doc["traceEvents"] = mutateTrace(events, ops)
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		fh, err := os.CreateTemp(dir, "mut-*.json") // one file per input: the workers run at once
		if err != nil {
			t.Fatal(err)
		}
		p := fh.Name()
		defer os.Remove(p)
		_, err = fh.Write(b)
		if cerr := fh.Close(); err != nil || cerr != nil {
			t.Fatal(err, cerr)
		}
		for _, l := range lines {
			args := append([]string{l[0], p}, l[1:]...)
			for i, a := range args {
				if a == "SELF" {
					args[i] = p
				}
			}
			var out, errb bytes.Buffer
			code := Main(args, strings.NewReader(""), &out, &errb)
			if strings.Contains(errb.String(), "internal error") || code > ExitUnreadable || code < 0 {
				t.Fatalf("%v on %q: exit %d: %s", args, ops, code, errb.String())
			}
		}
	})
}
