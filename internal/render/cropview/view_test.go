package cropview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/crop"
)

// TestJSONNulls: without a window and a device, window_*_ns and device
// are null; with them, the window is from the trace's origin.
func TestJSONNulls(t *testing.T) {
	r := &crop.Result{Events: 3, EventsIn: 9}
	var b bytes.Buffer
	if err := JSON(&b, "in.json", "out.json", &crop.Plan{Device: -1, Window: "all"}, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"window_start_ns": null`, `"window_end_ns": null`, `"device": null`, `"schema": "` + CropSchema + `"`, `"events": 3`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %s in\n%s", want, b.String())
		}
	}
	b.Reset()
	p := &crop.Plan{Lo: 1500, Hi: 4000, HasWindow: true, Origin: 1000, Device: 2}
	if err := JSON(&b, "in.json", "out.json", p, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"window_start_ns": 500`, `"window_end_ns": 3000`, `"device": 2`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %s in\n%s", want, b.String())
		}
	}
}
