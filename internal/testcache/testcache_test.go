package testcache

import (
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
)

// TestOneEntryPerReading: the options that do not change what is read
// (Sequential; AllowTruncated on a trace that reads whole) share one
// entry; those that do (NoExtras) and a cut trace under AllowTruncated
// get their own.
func TestOneEntryPerReading(t *testing.T) {
	whole := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	cut := filepath.Join(testenv.Root(), "testdata", "quirks", "truncated.json")
	get := func(path string, o parse.Options) (tr any, err error) {
		t.Helper()
		tr2, shared, err := Open(path, o)
		if !shared {
			t.Fatalf("%s is a read-only input, yet not cached", path)
		}
		return tr2, err
	}
	a, err := get(whole, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []parse.Options{{Sequential: true}, {AllowTruncated: true}, {AllowTruncated: true, Sequential: true}} {
		if b, err := get(whole, o); err != nil || b != a {
			t.Errorf("%+v: another reading of a whole trace (%v)", o, err)
		}
	}
	if b, _ := get(whole, parse.Options{NoExtras: true}); b == a {
		t.Error("NoExtras shares the full reading's entry")
	}
	if _, err := get(cut, parse.Options{}); err == nil {
		t.Fatal("the cut trace reads without --allow-truncated")
	}
	tr, _, err := Open(cut, parse.Options{AllowTruncated: true})
	if err != nil || tr == nil || !tr.Truncated {
		t.Fatalf("the cut trace under AllowTruncated: %v, truncated %v", err, tr != nil && tr.Truncated)
	}
}
