package categories

import (
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/opclass"
)

// TestClassifierRemembers: the remembered category and link of every
// device op of every shared trace are Classify's and LaunchingOp's,
// asked afresh for each op.
func TestClassifierRemembers(t *testing.T) {
	ops := 0
	for _, p := range sharedTraces(t) {
		tr := open(t, p)
		c := newClassifier(tr)
		for i := range tr.NumEvents() {
			if !tr.Ev(i).Kind.IsDeviceWork() {
				continue
			}
			ops++
			cat, linked := c.of(i)
			if want := Index(Classify(tr, i)); cat != want {
				t.Errorf("%s op %d %q: %s, Classify says %s", filepath.Base(p), i, tr.NameOf(i), opclass.Categories[cat], opclass.Categories[want])
			}
			if want := LaunchingOp(tr, i) != ""; linked != want {
				t.Errorf("%s op %d: linked %v, LaunchingOp %q", filepath.Base(p), i, linked, LaunchingOp(tr, i))
			}
		}
	}
	if ops < 1000 {
		t.Errorf("%d device ops checked", ops)
	}
}
