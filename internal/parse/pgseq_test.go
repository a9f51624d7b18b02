package parse

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestProcessGroupSeq: a collective kernel's "Process Group Name" and
// "Seq" are kept (the generator writes pg "0" and seq 1, 2, ... on its
// all-reduce kernels), the same by the sequential and the parallel reading;
// other events have neither.
func TestProcessGroupSeq(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.json")
	f, _ := os.Create(path)
	if _, err := gen.Write(f, gen.Config{Steps: 20, Layers: 2, World: 2, Rank: 1, PGSeq: true}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	check := func(what string, tr *trace.Trace) {
		seq := int64(0)
		for i := 0; i < tr.NumEvents(); i++ {
			a := tr.AuxOf(i)
			comm := tr.Ev(i).Kind == trace.KindKernel && strings.HasPrefix(tr.NameOf(i), "nccl")
			switch {
			case comm && (a == nil || tr.Str(a.PG) != "0" || a.Seq != seq+1):
				t.Fatalf("%s: kernel %d: aux %+v after seq %d", what, i, a, seq)
			case comm:
				seq++
			case a != nil && (a.PG != 0 || a.Seq != -1):
				t.Fatalf("%s: event %d (%s) has pg %q seq %d", what, i, tr.NameOf(i), tr.Str(a.PG), a.Seq)
			}
		}
		if seq != 20 {
			t.Fatalf("%s: %d collectives, want 20", what, seq)
		}
	}
	s, err := Open(path, Options{Sequential: true})
	if err != nil {
		t.Fatal(err)
	}
	check("sequential", s)
	defer func(a, b int64) { parallelMin, segmentSize = a, b }(parallelMin, segmentSize)
	for _, seg := range []int64{997, 65536} {
		parallelMin, segmentSize = 1, seg
		p, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("segment %d", seg), p)
	}
}
