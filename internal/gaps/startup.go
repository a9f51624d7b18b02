package gaps

import (
	"strings"

	istats "github.com/tracetab/tracetab/internal/stats"
	"github.com/tracetab/tracetab/internal/trace"
)

// One-time start-up work: runtime and driver calls that a process makes
// once (context and module set-up, stream, event and library handle
// creation) and first calls that take far longer than the rest of their
// name. Idle time they hold is start-up, not the steady state.
//
// A runtime or driver call is a start-up call when
//
//  1. its kind is one-time (isOneTimeCall): stream, event, context and
//     module creation, library handle creation (cuDNN, cuBLAS, cuSPARSE,
//     cuSOLVER, MIOpen, hipBLAS, rocBLAS); or a device property query
//     (cudaGetDeviceProperties) that the trace makes once (torch on ROCm
//     queries them for every op: then they are not one-time); or
//  2. it is an outlier of its name: it lasts at least StartupMinNs and at
//     least StartupFactor times the median duration of the calls of its
//     name in the trace, and it is the first call of that name, or the
//     first launch of the device op it launched (lazy module loading loads
//     a kernel at its first launch), or a memory call (cudaMalloc,
//     cudaFree, hipMalloc, hipFree, cuMemAlloc, cuMemFree, host
//     allocations: the allocator's first growth and context set-up show
//     as one unusually long call).
//
// A median over one or two calls is never a tenth of one of them, so an
// outlier is always one of three or more calls of its name.
const (
	StartupFactor = 10
	StartupMinNs  = 1_000_000
)

// isOneTimeCall: the calls that are one-time by kind.
func isOneTimeCall(name string) bool {
	for _, p := range []string{"StreamCreate", "EventCreate", "ModuleLoad", "CtxCreate", "PrimaryCtxRetain"} {
		if strings.Contains(name, p) {
			return true
		}
	}
	if name == "cuInit" || name == "hipInit" {
		return true
	}
	low := strings.ToLower(name)
	if !strings.Contains(low, "create") {
		return false
	}
	for _, lib := range []string{"cudnn", "cublas", "cusparse", "cusolver", "miopen", "hipblas", "rocblas", "hipsparse"} {
		if strings.HasPrefix(low, lib) {
			return true
		}
	}
	return false
}

// isPropertyQuery: a query of the device's properties, one-time when the
// trace makes it once.
func isPropertyQuery(name string) bool { return strings.Contains(name, "GetDeviceProperties") }

// isMemoryCall: allocation and free calls of the runtime and driver.
func isMemoryCall(name string) bool {
	for _, p := range []string{"Malloc", "Free", "HostAlloc", "MemAlloc"} {
		if strings.Contains(name, p) {
			return true
		}
	}
	return false
}

// startupFinder finds the start-up calls of a trace (by the rules above)
// in the causer's one pass over the events: each call name's first call
// and count, the first launch of each device op name, the long memory
// calls; then, only when some candidate's name has three calls or more,
// one more pass for the durations of those names' calls.
type startupFinder struct {
	t       *trace.Trace
	l       *trace.Links
	first   []int32 // call name -> its first call (-1)
	firstOp []int32 // device op name -> the first call that launched one (-1)
	count   []int32 // call name -> its calls
	kind    []int8  // call name: 0 unknown, 1 ordinary, 2 one-time, 3 memory, 4 property query
	cands   []int32
	out     map[int32]bool
}

func newStartupFinder(t *trace.Trace, l *trace.Links) *startupFinder {
	n := len(t.Strings)
	f := &startupFinder{t: t, l: l, first: make([]int32, n), firstOp: make([]int32, n), count: make([]int32, n),
		kind: make([]int8, n), out: map[int32]bool{}}
	for k := range f.first {
		f.first[k], f.firstOp[k] = -1, -1
	}
	return f
}

func (f *startupFinder) earlier(a, b int32) bool {
	ea, eb := f.t.Ev(int(a)), f.t.Ev(int(b))
	return ea.Start < eb.Start || (ea.Start == eb.Start && a < b)
}

// see takes event i (every event, in index order).
func (f *startupFinder) see(i int32, e *trace.Event) {
	switch {
	case e.Kind.IsLaunch():
		k := f.kind[e.Name]
		if k == 0 {
			name := f.t.Str(e.Name)
			k = 1
			if isOneTimeCall(name) {
				k = 2
			} else if isMemoryCall(name) {
				k = 3
			} else if isPropertyQuery(name) {
				k = 4
			}
			f.kind[e.Name] = k
		}
		if k == 2 {
			f.out[i] = true
			return
		}
		f.count[e.Name]++
		if k == 3 && e.Dur >= StartupMinNs {
			f.cands = append(f.cands, i)
		}
		if p := f.first[e.Name]; p < 0 || f.earlier(i, p) {
			f.first[e.Name] = i
		}
	case e.Kind.IsDeviceWork():
		if r := f.l.Launch[i]; r >= 0 {
			if p := f.firstOp[e.Name]; p < 0 || f.earlier(r, p) {
				f.firstOp[e.Name] = r
			}
		}
	}
}

// finish returns the start-up calls (event indices).
func (f *startupFinder) finish() map[int32]bool {
	t := f.t
	for name, k := range f.kind {
		if k == 4 && f.count[name] == 1 {
			f.out[f.first[name]] = true
		}
	}
	for _, list := range [][]int32{f.first, f.firstOp} {
		for _, i := range list {
			if i >= 0 && t.Ev(int(i)).Dur >= StartupMinNs {
				f.cands = append(f.cands, i)
			}
		}
	}
	want := map[trace.StrID][]int64{}
	for _, i := range f.cands {
		if name := t.Ev(int(i)).Name; f.count[name] >= 3 {
			want[name] = nil
		}
	}
	f.first, f.firstOp, f.kind = nil, nil, nil
	if len(want) == 0 {
		return f.out
	}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsLaunch() {
			continue
		}
		if d, ok := want[e.Name]; ok {
			want[e.Name] = append(d, e.Dur)
		}
	}
	med := make(map[trace.StrID]int64, len(want))
	for name, d := range want {
		med[name] = istats.MedianNs(d)
	}
	for _, i := range f.cands {
		e := t.Ev(int(i))
		if m, ok := med[e.Name]; ok && e.Dur >= StartupFactor*m {
			f.out[i] = true
		}
	}
	return f.out
}
