package parse

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// sameWithoutExtras asserts that lean (read with NoExtras) is full without
// its extras: every event with the same name, times, ids, track, kind and
// flags, and no Extra; the same tracks and warnings that do not come from
// the skipped args.
func sameWithoutExtras(t *testing.T, what string, full, lean *trace.Trace) {
	t.Helper()
	for i := 0; i < lean.Extras.Len(); i++ {
		if x := lean.Extras.At(i); x.InputDims != 0 || x.InputTypes != 0 || x.Stack != 0 || x.Concrete != 0 || x.Aux < 0 {
			t.Fatalf("%s: NoExtras kept extra %d: %+v", what, i, *x)
		}
	}
	if full.NumEvents() != lean.NumEvents() {
		t.Fatalf("%s: %d events, %d without extras", what, full.NumEvents(), lean.NumEvents())
	}
	for i := 0; i < full.NumEvents(); i++ {
		a, b := *full.Ev(i), *lean.Ev(i)
		// Only a collective's process group and sequence number stay.
		if a, b := full.AuxOf(i), lean.AuxOf(i); b != nil {
			want := trace.NewAux()
			want.PG, want.Seq = a.PG, a.Seq
			if full.Str(a.PG) != lean.Str(b.PG) || b.Seq != a.Seq || b.Grid != want.Grid || b.Block != want.Block ||
				b.Regs != want.Regs || b.SharedMem != want.SharedMem || b.Bytes != want.Bytes ||
				b.HasLaunch {
				t.Fatalf("%s: event %d keeps %+v without extras (full %+v)", what, i, *b, *a)
			}
		} else if b := lean.ExtraOf(i); b != nil {
			t.Fatalf("%s: event %d has Extra %+v without extras", what, i, *b)
		} else if a := full.AuxOf(i); a != nil && (a.PG != 0 || a.Seq != -1) {
			t.Fatalf("%s: event %d lost its process group or seq without extras: %+v", what, i, *a)
		}
		if full.Str(a.Name) != lean.Str(b.Name) {
			t.Fatalf("%s: event %d named %q, %q without extras", what, i, full.Str(a.Name), lean.Str(b.Name))
		}
		a.Extra, b.Extra, a.Name, b.Name = 0, 0, 0, 0
		if a != b {
			t.Fatalf("%s: event %d differs without extras: %+v vs %+v", what, i, a, b)
		}
	}
	if len(full.Tracks) != len(lean.Tracks) || full.TraceStart != lean.TraceStart || full.BytesRead != lean.BytesRead {
		t.Fatalf("%s: tracks %d/%d, start %d/%d, bytes %d/%d", what, len(full.Tracks), len(lean.Tracks),
			full.TraceStart, lean.TraceStart, full.BytesRead, lean.BytesRead)
	}
	if full.Dist != lean.Dist {
		t.Fatalf("%s: distributedInfo %+v / %+v", what, full.Dist, lean.Dist)
	}
}

// TestNoExtrasRealTraces: on every real trace, reading without extras
// gives the same events and tracks, sequentially and in parallel.
func TestNoExtrasRealTraces(t *testing.T) {
	shared := testenv.Shared(t)
	files, _ := filepath.Glob(filepath.Join(shared, "traces", "*.json*"))
	if len(files) == 0 {
		t.Fatal("no traces in " + shared)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "manifest.json") {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			full, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			lean, err := Open(path, Options{NoExtras: true})
			if err != nil {
				t.Fatal(err)
			}
			sameWithoutExtras(t, filepath.Base(path), full, lean)
			if full.MemRecords > 0 {
				bare, err := Open(path, Options{NoExtras: true, NoMemory: true})
				if err != nil {
					t.Fatal(err)
				}
				sameWithoutMemory(t, filepath.Base(path), lean, bare)
			}
		})
	}
}

// TestNoExtrasParallel: without extras, the parallel reading of the
// adversarial trace is still the sequential one.
func TestNoExtrasParallel(t *testing.T) {
	path := writeTemp(t, "adv.json", adversarial(3000, 97))
	for _, seg := range []int64{53, 211, 4096} {
		seq, serr, par, perr := readBoth(t, path, Options{NoExtras: true}, seg)
		if serr != nil || perr != nil {
			t.Fatalf("segment %d: %v / %v", seg, serr, perr)
		}
		equalTraces(t, "no extras", seq, par)
	}
}

// sameWithoutMemory asserts that bare (read with NoExtras and NoMemory) is
// lean (NoExtras alone) with its [memory] records counted instead of
// stored: the same count, only the [OutOfMemory] records kept, and every
// other part of the model equal, warnings included.
func sameWithoutMemory(t *testing.T, what string, lean, bare *trace.Trace) {
	t.Helper()
	var oom []trace.MemEvent
	for _, m := range lean.Mem {
		if m.OOM {
			oom = append(oom, m)
		}
	}
	if lean.MemRecords != len(lean.Mem) || bare.MemRecords != lean.MemRecords || len(bare.Mem) != len(oom) ||
		len(oom) > 0 && !reflect.DeepEqual(bare.Mem, oom) {
		t.Fatalf("%s: %d records (%d stored) read, %d (%d stored) without memory, %d out-of-memory", what,
			lean.MemRecords, len(lean.Mem), bare.MemRecords, len(bare.Mem), len(oom))
	}
	mem := bare.Mem
	bare.Mem = lean.Mem
	defer func() { bare.Mem = mem }()
	if !reflect.DeepEqual(lean, bare) {
		t.Fatalf("%s: the traces read with and without memory records differ beyond them", what)
	}
}

// TestKinetoShapeParallel: on a generated trace of the Kineto benchmark
// shape (shapes, strides, memory records, absolute timestamps, Kineto's
// layout), every reading (full, lean, lean without memory) is the same in
// parallel, cut every few KiB, as sequentially; without memory it is the
// lean reading with the records counted.
func TestKinetoShapeParallel(t *testing.T) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Steps: 12, Layers: 4, Kineto: gen.KinetoStyle()}); err != nil {
		t.Fatal(err)
	}
	path := writeTemp(t, "kineto.json", buf.String())
	var lean *trace.Trace
	for _, o := range []Options{{}, {NoExtras: true}, {NoExtras: true, NoMemory: true}} {
		for _, seg := range []int64{1531, 4096} {
			seq, serr, par, perr := readBoth(t, path, o, seg)
			if serr != nil || perr != nil {
				t.Fatalf("%+v, segment %d: %v / %v", o, seg, serr, perr)
			}
			equalTraces(t, fmt.Sprintf("%+v, segment %d", o, seg), seq, par)
			if seq.MemRecords == 0 || seq.NumEvents() == 0 {
				t.Fatalf("%+v: %d events, %d memory records", o, seq.NumEvents(), seq.MemRecords)
			}
			switch {
			case o.NoMemory:
				sameWithoutMemory(t, "kineto", lean, seq)
			case o.NoExtras:
				lean = seq
			}
		}
	}
}
