package parse

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestDimsOnly: reading with DimsOnly keeps every event's Input Dims as the
// full reading has them and none of the other extras (types, concrete
// inputs, stacks, launch parameters); the events, the [memory]
// records and the args every reading keeps (a kernel's efficiency
// estimates) are the full reading's. On the generated deep export shape
// (shapes, strides and concrete inputs on every op) and on real traces with
// stacks and with launch parameters.
func TestDimsOnly(t *testing.T) {
	var buf bytes.Buffer
	cfg := gen.Config{Steps: 20, Layers: 2, Kineto: gen.ExportStyle()}
	if _, err := gen.Write(&buf, cfg); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	t.Run("export-shape", func(t *testing.T) {
		full, err := Read(bytes.NewReader(data), "gen", Options{})
		if err != nil {
			t.Fatal(err)
		}
		dims, err := Read(bytes.NewReader(data), "gen", Options{DimsOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		n := compareDimsOnly(t, full, dims)
		if n == 0 {
			t.Fatal("the generated export shape has no event with Input Dims")
		}
	})
	shared := testenv.Shared(t)
	for _, name := range []string{"HTA__call_stack__backward_thread.json",
		"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(shared, "traces", name)
			full, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			dims, err := Open(path, Options{DimsOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			compareDimsOnly(t, full, dims)
		})
	}
}

// compareDimsOnly checks a DimsOnly reading against the full one and
// returns how many events carry Input Dims.
func compareDimsOnly(t *testing.T, full, dims *trace.Trace) int {
	t.Helper()
	if full.NumEvents() != dims.NumEvents() || len(full.Mem) != len(dims.Mem) {
		t.Fatalf("%d events and %d memory records full, %d and %d dims-only", full.NumEvents(), len(full.Mem), dims.NumEvents(), len(dims.Mem))
	}
	n := 0
	for i := 0; i < full.NumEvents(); i++ {
		a, b := *full.Ev(i), *dims.Ev(i)
		if full.NameOf(i) != dims.NameOf(i) {
			t.Fatalf("event %d: %q full, %q dims-only", i, full.NameOf(i), dims.NameOf(i))
		}
		// the extras are compared below; the string tables differ
		a.Extra, b.Extra, a.Name, b.Name = 0, 0, 0, 0
		if a != b {
			t.Fatalf("event %d: %+v full, %+v dims-only", i, a, b)
		}
		want := ""
		if a := full.ExtraOf(i); a != nil {
			want = full.Str(a.InputDims)
		}
		got := ""
		if b := dims.ExtraOf(i); b != nil {
			got = dims.Str(b.InputDims)
			if b.InputTypes != 0 || b.Concrete != 0 || b.Stack != 0 {
				t.Fatalf("event %d keeps %+v", i, *b)
			}
		}
		if got != want {
			t.Fatalf("event %d: Input Dims %q full, %q dims-only", i, want, got)
		}
		if want != "" {
			n++
		}
		if x := dims.AuxOf(i); x != nil {
			if x.HasLaunch || x.Regs != -1 || x.Bytes != -1 {
				t.Fatalf("event %d keeps %+v", i, *x)
			}
			if y := full.AuxOf(i); y == nil || x.BlocksPerSM != y.BlocksPerSM || x.OccupancyPct != y.OccupancyPct {
				t.Fatalf("event %d: aux %+v dims-only, %+v full", i, *x, y)
			}
		}
	}
	return n
}
