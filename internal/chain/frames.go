package chain

import "github.com/tracetab/tracetab/internal/trace"

// Frames is what chain --up walks from device op d: the runtime or driver
// call that launched it, then the events enclosing that call on its
// thread, innermost first (the op that launched it, the ops and
// annotations around it, up to the outermost). Both are empty for a device
// op whose launch call is not in the trace.
func Frames(t *trace.Trace, d int) (launch int32, enclosing []int32) {
	l := t.Links()
	launch = l.Launch[d]
	if launch < 0 || !t.Ev(d).Kind.IsDevice() {
		return -1, nil
	}
	for p := l.Parent[launch]; p >= 0; p = l.Parent[p] {
		enclosing = append(enclosing, p)
	}
	return launch, enclosing
}
