package parse

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestShapesOnly: reading with ShapesOnly keeps every event's Input Dims,
// Input type and Concrete Inputs as the full reading has them, and none of
// the other extras (stacks, launch parameters; a kernel's
// efficiency estimates stay, as with every reading); the Concrete
// Inputs are those of the raw JSON, compacted.
func TestShapesOnly(t *testing.T) {
	shared := testenv.Shared(t)
	for _, name := range []string{"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz",
		"TraceLens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
		"kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(shared, "traces", name)
			full, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			sh, err := Open(path, Options{ShapesOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if full.NumEvents() != sh.NumEvents() {
				t.Fatalf("%d events, %d shapes-only", full.NumEvents(), sh.NumEvents())
			}
			var concrete []string
			for i := 0; i < full.NumEvents(); i++ {
				a, b := full.ExtraOf(i), sh.ExtraOf(i)
				var dims, types, values string
				if a != nil {
					dims, types, values = full.Str(a.InputDims), full.Str(a.InputTypes), full.Str(a.Concrete)
				}
				if values != "" {
					concrete = append(concrete, values)
				}
				// without shapes, an extra may hold only an Aux: the args kept
				// with every reading (a kernel's efficiency estimates, a
				// collective's group)
				hasShapes := dims != "" || types != "" || values != ""
				if (hasShapes && b == nil) || (!hasShapes && b != nil && (b.Aux < 0 || b.InputDims != 0 || b.InputTypes != 0 || b.Concrete != 0)) {
					t.Fatalf("event %d: extra %+v full, %+v shapes-only", i, a, b)
				}
				if b == nil {
					continue
				}
				if sh.Str(b.InputDims) != dims || sh.Str(b.InputTypes) != types || sh.Str(b.Concrete) != values || b.Stack != 0 {
					t.Fatalf("event %d: %q %q %q full, %q %q %q shapes-only (stack %d)", i, dims, types, values,
						sh.Str(b.InputDims), sh.Str(b.InputTypes), sh.Str(b.Concrete), b.Stack)
				}
				if x := sh.AuxOf(i); x != nil && (x.HasLaunch || x.Regs != -1 || x.Bytes != -1) {
					t.Fatalf("event %d keeps %+v", i, *x)
				}
			}
			// the raw JSON's Concrete Inputs, compacted, in file order
			var raw []string
			for _, e := range rawjson.MustReadArgs(t, path) {
				if v, ok := e.Arg("Concrete Inputs"); ok && e.Ph == "X" {
					var b bytes.Buffer
					json.Compact(&b, v)
					raw = append(raw, b.String())
				}
			}
			if len(raw) != len(concrete) {
				t.Fatalf("%d events with Concrete Inputs in the JSON, %d read", len(raw), len(concrete))
			}
			for i := range raw {
				if raw[i] != concrete[i] {
					t.Fatalf("Concrete Inputs %d: %s in the JSON, %s read", i, raw[i], concrete[i])
				}
			}
		})
	}
}
