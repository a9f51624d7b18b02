package diff

import (
	"reflect"
	"testing"

	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestReduceReuse: Reduce reads the table it is given for its one trace
// (a doctored total shows), gives what it computes itself when given the
// trace's own, and ignores Reuse when it reduces more than one trace.
func TestReduceReuse(t *testing.T) {
	tr := stepKernels(t)
	one := []*trace.Trace{tr}
	plain, err := Reduce(one, []string{"a"}, Options{By: "op"})
	if err != nil {
		t.Fatal(err)
	}
	all, err := table.Compute(tr, table.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Reduce(one, []string{"a"}, Options{By: "op", Reuse: &Reuse{Table: all, Gaps: (*Reuse)(nil).gaps(tr)}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, plain) {
		t.Fatalf("with the trace's own table and report: %v, want %v", got.Totals, plain.Totals)
	}
	doctored := *all
	doctored.SumSelfCPU += 7
	got, err = Reduce(one, []string{"a"}, Options{By: "op", Reuse: &Reuse{Table: &doctored}})
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(got.Totals["self_cpu"], plain.Totals["self_cpu"]) {
		t.Fatalf("a doctored table gave the same self_cpu %v", plain.Totals["self_cpu"])
	}
	two, err := Reduce([]*trace.Trace{tr, tr}, []string{"a", "b"}, Options{By: "op"})
	if err != nil {
		t.Fatal(err)
	}
	got, err = Reduce([]*trace.Trace{tr, tr}, []string{"a", "b"}, Options{By: "op", Reuse: &Reuse{Table: &doctored}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, two) {
		t.Fatal("Reuse was read for a reduction of two traces")
	}
}
