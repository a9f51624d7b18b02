package names

import (
	"slices"
	"strings"
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

// TestElideShared: names of as many '_' words that a middle cut makes read
// the same keep the words where their family differs (its first word and
// as many more as fit whole), each run of shared words one "...", before
// any is numbered; where even that does not fit, or the names differ in
// their number of words, they are numbered as before.
func TestElideShared(t *testing.T) {
	k := func(w, v string) string {
		return "void split_embedding_backward_codegen_rowwise_adagrad_" + w + "_kernel_" + v + "_per_row_1<float, float, float, 1ul>(int)"
	}
	in := []string{k("unweighted", "cta"), k("unweighted", "warp"), k("weighted", "cta"), k("weighted", "warp")}
	want := []string{"split...unweighted...cta...", "split...unweighted...warp...", "split...weighted...cta...", "split...weighted...warp..."}
	if got := Labels(in, 28); !slices.Equal(got, want) {
		t.Errorf("width 28: %q, want %q", got, want)
	}
	// with room, more leading words are kept whole
	want40 := []string{"split_embedding...unweighted...cta...", "split_embedding...unweighted...warp...",
		"split_embedding...weighted...cta...", "split_embedding...weighted...warp..."}
	if got := Labels(in, 40); !slices.Equal(got, want40) {
		t.Errorf("width 40: %q, want %q", got, want40)
	}
	// every label's words are the name's, in its order
	for _, w := range []int{28, 40, 60} {
		for i, l := range Labels(in, w) {
			rest := in[i]
			for _, word := range strings.Split(strings.ReplaceAll(l, "...", " "), " ") {
				for _, part := range strings.Split(word, "_") {
					j := strings.Index(rest, part)
					if j < 0 {
						t.Fatalf("width %d: %q: %q not in order in %q", w, l, part, in[i])
					}
					rest = rest[j+len(part):]
				}
			}
		}
	}
	// too narrow for the first word and the differing ones (split...unweighted...cta... is 27): numbered apart
	narrow := Labels(in, 20)
	for i, l := range narrow {
		if len(l) > 20 || strings.Count(l, "...") > 1 || (i > 0 && !strings.Contains(l, "#")) || slices.Index(narrow, l) != i {
			t.Errorf("width 20: %q, want a middle cut within 20 columns, numbered from the second", narrow)
			break
		}
	}
	// different numbers of words: no family, numbered as before
	odd := []string{"aaaa_bbbb_cccc_dddd_eeee_ffff_x", "aaaa_bbbb_cccc_dddd_eeee_ffff_gggg_y"}
	for _, l := range Labels(odd, 14) {
		if strings.Count(l, "...") > 1 {
			t.Errorf("names of different lengths elided: %q", l)
		}
	}
}
