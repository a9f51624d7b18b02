package memoryview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/parse"
)

// goldenModel is the model of cli's memory goldens: the generated trace
// of three steps with a leak of 1 MiB per step, two pre-trace frees, CPU
// allocations and reused addresses, read as memory reads it (no extras)
// with memory's default --leak-share of 0.01%.
func goldenModel(t *testing.T) *memory.Model {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Steps: 3, Layers: 1,
		Memory: gen.Memory{AllocsPerOp: 1, LeakBytes: 1 << 20, PreTrace: 2, CPU: true, Reuse: true}}); err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Read(bytes.NewReader(b.Bytes()), "-", parse.Options{NoExtras: true})
	if err != nil {
		t.Fatal(err)
	}
	return memory.Build(tr, memory.Options{LeakShare: 0.01 / 100})
}

// TestGolden: memory's views of the generated trace on the model (the
// text at 80 columns, Markdown, JSON, the timeline at 72, one section,
// each CSV section), in parallel. cli's TestMemoryGolden checks that
// `tracetab memory` prints exactly these, and their peaks against the
// raw JSON.
func TestGolden(t *testing.T) {
	m := goldenModel(t)
	cases := map[string]func(w *strings.Builder) error{
		"--width_80": func(w *strings.Builder) error {
			return Write(w, m, Options{File: "-", Format: "text", Top: 10, Width: 80})
		},
		"--format_md_--top_3":   func(w *strings.Builder) error { return Write(w, m, Options{File: "-", Format: "md", Top: 3}) },
		"--format_json":         func(w *strings.Builder) error { return JSON(w, m, "-", 0) },
		"--timeline_--width_72": func(w *strings.Builder) error { return Timeline(w, m, 72, false) },
		"--section_alive_--width_80": func(w *strings.Builder) error {
			return Write(w, m, Options{File: "-", Format: "text", Section: "alive", Top: 10, Width: 80})
		},
	}
	for _, s := range []string{"devices", "alive", "steps", "lifetimes", "leak"} {
		cases["--format_csv_--section_"+s] = func(w *strings.Builder) error {
			return Write(w, m, Options{File: "-", Format: "csv", Section: s, Top: 10})
		}
	}
	for args, show := range cases {
		name := "memory_gen." + args + ".golden"
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var b strings.Builder
			if err := show(&b); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, ".", name, b.String())
		})
	}
}
