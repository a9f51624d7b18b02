package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestDiffLabelsAtTerminal: diff of two real traces on an 80-column
// pseudo-terminal (no --width). The status column goes first (the
// footnote says so) and every row's name is a label of a row the JSON
// lists: a device row's (device_op) behind "[device] ", its name's first
// word whole (not "[device] ..."), an op's without the prefix (a kernel
// once lost it: names.Labels read "[device] void f(...)" as a C++ name
// with a return type). Each word of a label is in the row's key, checked
// against the JSON's keys, not against the labelling.
func TestDiffLabelsAtTerminal(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	base, test := filepath.Join(dir, "HTA__trace_diff__control__control.json.gz"), filepath.Join(dir, "HTA__trace_diff__test__test.json.gz")
	js, _, _ := run(t, "diff", base, test, "--format", "json")
	var doc struct {
		Rows []struct {
			Key      string `json:"key"`
			DeviceOp bool   `json:"device_op"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.Rows) == 0 {
		t.Fatalf("diff --format json: %v, %d rows", err, len(doc.Rows))
	}
	out, _, _ := runPTY(t, 80, "diff", base, test)
	for _, l := range tooWide(out, 80) {
		t.Errorf("wider than 80 columns: %s", l)
	}
	// the first metric table: from its header to the first blank line
	lines := strings.Split(out, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "name ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "---") {
			start = i + 2
			if strings.Contains(l, "status") {
				t.Errorf("the status column is printed at 80 columns: %q", l)
			}
			break
		}
	}
	if start < 0 {
		t.Fatalf("no metric table in:\n%s", out)
	}
	if !strings.Contains(out, "left out: status") {
		t.Errorf("no footnote saying the status column was left out")
	}
	devices, shown := 0, 0
	for _, l := range lines[start:] {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "(") {
			break
		}
		// the name is what precedes the first value cell (two blanks)
		name := strings.TrimSpace(l)
		if k := strings.Index(name, "  "); k >= 0 {
			name = name[:k]
		}
		if name == "(outside steps)" || name == "[geomean]" {
			continue
		}
		shown++
		dev := strings.HasPrefix(name, "[device] ")
		if dev {
			devices++
			if strings.HasPrefix(name, "[device] ...") {
				t.Errorf("%q: the device row's name is cut at its start", name)
			}
		}
		// its words (a label keeps parts of the name: the function's, the
		// arguments that tell rows apart, a flat name's fields)
		label := strings.TrimPrefix(name, "[device] ")
		if k := strings.LastIndex(label, "#"); k > 0 {
			label = label[:k] // numbered apart
		}
		words := strings.FieldsFunc(label, func(r rune) bool {
			return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		})
		found := false
		for _, r := range doc.Rows {
			if r.DeviceOp != dev || r.DeviceOp != strings.HasPrefix(r.Key, "[device] ") {
				continue
			}
			ok := true
			for _, w := range words {
				if !strings.Contains(r.Key, w) {
					ok = false
				}
			}
			if ok {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%q (device %v) is the label of no row of the JSON", name, dev)
		}
	}
	if shown < 10 || devices == 0 {
		t.Errorf("the first table shows %d rows, %d of them device rows; want 10 or more with some of each", shown, devices)
	}
}
