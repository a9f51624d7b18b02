package names

import (
	"slices"
	"testing"
)

// TestNewLabelItem: a C function's parameter list goes from a name that
// is not C++ (no "::", no "void ", no template); with a space before its
// "(" it is not a parameter list; a C++ name is parsed.
func TestNewLabelItem(t *testing.T) {
	if it := newLabelItem("ncclKernel_x(int)"); it.n != nil || it.flat != "ncclKernel_x" {
		t.Errorf("C function: n %v flat %q, want flat ncclKernel_x", it.n, it.flat)
	}
	if it := newLabelItem("copy (slow)"); it.n != nil || it.flat != "copy (slow)" {
		t.Errorf("a space before the parenthesis: flat %q, want it whole", it.flat)
	}
	if it := newLabelItem("void at::native::vectorized_kernel<float>(int)"); it.n == nil {
		t.Errorf("C++ name: not parsed")
	}
}

// TestNumberDuplicates: two names that still read the same after every
// rule (flat names have no fuller form) are told apart by #2, in input
// order; equal names keep equal labels.
func TestNumberDuplicates(t *testing.T) {
	in := []string{"ncclKernel_x(int)", "ncclKernel_x(float)", "ncclKernel_x(int)", "other"}
	// both lose their parameter list: ncclKernel_x twice; the second gets #2
	want := []string{"ncclKernel_x", "ncclKernel_x#2", "ncclKernel_x", "other"}
	if got := Labels(in, 0); !slices.Equal(got, want) {
		t.Errorf("no width: %q, want %q", got, want)
	}
	// at 14 columns ncclKernel_x (12) fits and so does ncclKernel_x#2 (12 + 2)
	if got := Labels(in, 14); !slices.Equal(got, want) {
		t.Errorf("width 14: %q, want %q", got, want)
	}
}
