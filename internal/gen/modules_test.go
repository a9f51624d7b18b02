package gen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestModules: -modules writes steps x (2 + 2 x layers) nn.Module frames
// on the main thread, each instance named the same every step, each
// frame inside Model_0's frame of its step and around the op it wraps;
// the kernels the frames hold (their launch calls inside the frame)
// are the ones the layer launches. Two writes are byte-identical, and
// the trace without -modules is the one with the frames taken out.
func TestModules(t *testing.T) {
	for _, k := range []Kineto{{}, ExportStyle()} {
		cfg := Config{Steps: 3, Layers: 2, Kineto: k, Modules: true}
		var a, b, plain bytes.Buffer
		f, err := Write(&a, cfg)
		if err != nil {
			t.Fatal(err)
		}
		Write(&b, cfg)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Error("two writes of one config differ")
		}
		cfg.Modules = false
		Write(&plain, cfg)
		if want := 3 * (2 + 2*2); f.ModuleFrames != want {
			t.Errorf("Facts: %d module frames, want %d", f.ModuleFrames, want)
		}
		var doc struct {
			TraceEvents []struct {
				Ph, Cat, Name string
				Tid           any
				Ts, Dur       json.Number
				Args          map[string]any
			}
		}
		if err := json.Unmarshal(a.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		var plainDoc struct{ TraceEvents []json.RawMessage }
		json.Unmarshal(plain.Bytes(), &plainDoc)
		ns := func(n json.Number) int64 { return usNs(t, n) }
		type span struct {
			name     string
			ts, end  int64
			launches []int64 // launch call starts inside
		}
		var frames []span
		count := map[string]int{}
		var models []span
		for _, e := range doc.TraceEvents {
			if e.Ph != "X" || !strings.HasPrefix(e.Name, "nn.Module: ") {
				continue
			}
			if e.Cat != "python_function" || e.Tid != float64(mainTid) {
				t.Errorf("%s: category %s, thread %v", e.Name, e.Cat, e.Tid)
			}
			s := span{name: strings.TrimPrefix(e.Name, "nn.Module: "), ts: ns(e.Ts), end: ns(e.Ts) + ns(e.Dur)}
			count[s.name]++
			frames = append(frames, s)
			if s.name == "Model_0" {
				models = append(models, s)
			}
		}
		if got := len(doc.TraceEvents) - len(plainDoc.TraceEvents); got != len(frames) {
			t.Errorf("the trace has %d more events with -modules, %d module frames", got, len(frames))
		}
		for _, n := range []string{"Model_0", "MatmulAdd_0", "Linear_0", "ReLU_0", "Linear_1", "ReLU_1"} {
			if count[n] != 3 {
				t.Errorf("%s: %d frames, want one a step (3)", n, count[n])
			}
		}
		for _, s := range frames {
			in := false
			for _, m := range models {
				in = in || s.ts >= m.ts && s.end <= m.end
			}
			if !in {
				t.Errorf("%s [%d, %d] is in no Model_0 frame", s.name, s.ts, s.end)
			}
		}
		// every Linear frame holds exactly its addmm launch, every ReLU its relu launch
		launches := map[string]int{}
		for _, e := range doc.TraceEvents {
			if e.Ph != "X" || e.Cat != "cuda_runtime" || e.Name != "cudaLaunchKernel" || e.Tid != float64(mainTid) {
				continue
			}
			ts := ns(e.Ts)
			for _, s := range frames {
				if ts >= s.ts && ts < s.end && s.name != "Model_0" {
					launches[s.name[:strings.IndexByte(s.name, '_')]]++
				}
			}
		}
		if launches["Linear"] != 3*2 || launches["ReLU"] != 3*2 || launches["MatmulAdd"] != 3*2 {
			t.Errorf("launch calls inside the frames: %v, want Linear 6, ReLU 6, MatmulAdd 6", launches)
		}
	}
}
