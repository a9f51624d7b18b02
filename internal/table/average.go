package table

import (
	"math"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Row is one line of key_averages(): all events sharing a key. Times are
// float64 microseconds summed in torch's order; memory is bytes.
type Row struct {
	Name       string
	Device     bool // a device op row (kernel, memcpy, memset, GPU annotation span)
	UserAnn    bool
	Count      int64
	CPUTotal   float64 // cpu_time_total
	SelfCPU    float64 // self_cpu_time_total
	DevTotal   float64 // device_time_total (CUDA total)
	SelfDev    float64 // self_device_time_total (Self CUDA)
	CPUMem     int64
	SelfCPUMem int64
	DevMem     int64
	SelfDevMem int64
	Shapes     string   // Python repr of input shapes, when grouping by shape
	Stack      []string // top frames, when grouping by stack
	TopLevel   bool     // the first event of the row has no CPU parent
	firstSeen  int
}

// CPUAvg is "CPU time avg".
func (r *Row) CPUAvg() float64 { return avg(r.CPUTotal, r.Count) }

// DevAvg is "CUDA time avg".
func (r *Row) DevAvg() float64 { return avg(r.DevTotal, r.Count) }

func avg(total float64, n int64) float64 {
	if n == 0 {
		return 0
	}
	return 1.0 * total / float64(n)
}

type rowKey struct {
	key    int32
	device bool
	ann    bool
	shapes string
	stack  string
}

// average groups the events into rows in first-occurrence order.
//
// It also counts the CPU events (Python functions aside) whose own Self CPU
// is negative: children that overhang their parent.
func (f *fevents) average(t *trace.Trace, v Version, useDevice bool, byShape bool, stackN int) (rows []Row, negEvents int) {
	a := &averager{f: f, t: t, v: v, useDevice: useDevice, byShape: byShape, stackN: stackN, devTotal: f.kdev, index: map[rowKey]int{}}
	// a row per name listed, about (export's per-step tables on tracegen
	// -shape export at 200 MB grew their rows 7 times each from a few;
	// a table of a million names, each row copied as the rows grew, took
	// 0.8 s and 250 MB more)
	a.rows = make([]Row, 0, max(len(f.keys), f.rowsHint))
	// the positions the tree has made final (all of them unless it is
	// built beside: buildBeside)
	ready := f.n()
	if f.ready != nil {
		ready = 0
	}
	// device_time_total of CPU events, made bottom-up by buildTree.
	if !useDevice {
		for ready < f.n() {
			ready = f.nextReady()
		}
		clear(a.devTotal)
	}
	var mp *memPass
	if f.mem != nil {
		if f.treeDone != nil && !byShape && stackN <= 0 {
			mp = startMemPass(f, v)
		} else {
			a.mt = newMemTotals(f, v)
		}
	}
	for i := 0; i < f.n(); i++ {
		for i >= ready {
			ready = f.nextReady()
		}
		a.add(i)
	}
	if mp != nil {
		mp.fill(a.rows)
	}
	return a.rows, a.negEvents
}

// nextReady is the next position the tree sends (buildBeside); should
// its goroutine have ended without sending the last, its panic is raised
// again here.
func (f *fevents) nextReady() int {
	w, ok := <-f.ready
	if !ok {
		f.treeWait()
		panic("table: the tree ended before its last position")
	}
	return w
}

// averager is average under way.
type averager struct {
	f                  *fevents
	t                  *trace.Trace
	v                  Version
	useDevice, byShape bool
	stackN             int
	devTotal           []float64
	mt                 *memTotals // nil when the trace has no [memory] records
	rows               []Row
	index              map[rowKey]int         // with shapes or stacks: the row of each key
	fast               []int32                // without: the row of each (name, device, annotation) slot, -1
	shapeCache         map[trace.StrID]string // shapes text by input dims
	negEvents          int
}

// add counts list position i in its row.
func (a *averager) add(i int) {
	f := a.f
	var cpuMem, devMem int64
	if a.mt != nil {
		// every position's usage, kept or not, leaves its parent's self
		cpuMem, devMem = a.mt.at(i)
		if pr := a.mt.parentRow[i]; pr > 0 {
			a.rows[pr-1].SelfCPUMem -= cpuMem
			a.rows[pr-1].SelfDevMem -= devMem
		}
	}
	if f.deleted(i) {
		return
	}
	kind, key, start, end := f.at(i)
	if kind == trace.KindPython && a.v.skipsPythonFunctions() {
		return
	}
	device, ann := kind.IsDevice(), isAnnKind(kind)
	k, stack := a.keyOf(i, key, device, ann)
	ri := a.rowFor(i, k, stack, ann)
	r := &a.rows[ri]
	var cpuTotal, selfCPU, selfDev, dt float64
	if !device {
		cpuTotal = end - start
		childCPU, childDev := a.children(i, ri)
		selfCPU = cpuTotal - childCPU
		if selfCPU < 0 && kind != trace.KindPython {
			a.negEvents++
		}
		dt = a.devTotal[i]
		selfDev = dt - childDev
		r.SelfCPUMem += cpuMem
		r.SelfDevMem += devMem
	} else if a.useDevice {
		dt = end - start
		selfDev = dt
	}
	r.CPUTotal += cpuTotal
	r.DevTotal += dt
	r.SelfCPU += selfCPU
	r.SelfDev += selfDev
	r.CPUMem += cpuMem
	r.DevMem += devMem
	r.Count++
}

// children sums the CPU time and the device total of position i's
// children, and notes i's row as their parent's (for the memory self).
func (a *averager) children(i, ri int) (cpu, dev float64) {
	f := a.f
	for ch := f.firstChild[i]; ch >= 0; ch = f.nextSib[ch] {
		cpu += f.dur(int(ch))
		dev += a.devTotal[ch]
		if a.mt != nil {
			a.mt.parentRow[ch] = int32(ri + 1)
		}
	}
	return cpu, dev
}

// keyOf is torch's row key of position i: the name, device or not, user
// annotation or not (from torch 2.5), and with group_by_input_shape the
// shapes ("[]" when unrecorded), with group_by_stack_n the first N frames.
func (a *averager) keyOf(i int, key int32, device, ann bool) (rowKey, []string) {
	k := rowKey{key: key, device: device}
	if a.v.keyHasUserAnnotation() {
		k.ann = ann
	}
	if !a.byShape && a.stackN <= 0 {
		return k, nil
	}
	var stack []string
	if ev := a.f.ev[i]; ev >= 0 {
		if x := a.t.ExtraOf(int(ev)); x != nil {
			if a.byShape {
				k.shapes = a.shapesOf(x.InputDims, x.InputTypes)
			}
			if a.stackN > 0 && x.Stack != 0 {
				stack = firstFrames(a.t.Str(x.Stack), a.stackN)
				k.stack = strings.Join(stack, "\x00")
			}
		}
	}
	if a.byShape && k.shapes == "" {
		k.shapes = "[]"
	}
	return k, stack
}

// shapesOf is the shapes text of input dims and types, computed once per
// dims string.
func (a *averager) shapesOf(dims, types trace.StrID) string {
	if a.shapeCache == nil {
		a.shapeCache = map[trace.StrID]string{}
	}
	s, ok := a.shapeCache[dims]
	if !ok {
		s = pyShapes(a.t.Str(dims), a.t.Str(types))
		a.shapeCache[dims] = s
	}
	return s
}

// firstFrames are the first n frames of a recorded stack (splitStack).
func firstFrames(stack string, n int) []string {
	fr := splitStack(stack)
	if len(fr) > n {
		fr = fr[:n]
	}
	return fr
}

// rowFor is the row of key k, a new one (in first-occurrence order) the
// first time: looked up in a map with shapes or stacks, else in a slot
// per (name, device, annotation).
func (a *averager) rowFor(i int, k rowKey, stack []string, ann bool) int {
	var ri int
	var ok bool
	if a.byShape || a.stackN > 0 {
		ri, ok = a.index[k]
	} else {
		slot := int(k.key)*4 + b2i(k.device)*2 + b2i(k.ann)
		for len(a.fast) <= slot {
			a.fast = append(a.fast, -1)
		}
		ri = int(a.fast[slot])
		ok = ri >= 0
		if !ok {
			a.fast[slot] = int32(len(a.rows))
		}
	}
	if ok {
		return ri
	}
	ri = len(a.rows)
	if a.byShape || a.stackN > 0 {
		a.index[k] = ri
	}
	a.rows = append(a.rows, Row{
		Name: a.f.keys[k.key], Device: k.device, UserAnn: ann,
		Shapes: k.shapes, Stack: stack, TopLevel: a.f.flags[i]&feHasParent == 0, firstSeen: i,
	})
	return ri
}

// PyShapes is the input shapes of a row grouped by shape (Row.Shapes) for
// an event with these "Input Dims" and "Input type" texts.
func PyShapes(dims, types string) string {
	if dims == "" {
		return "[]"
	}
	return pyShapes(dims, types)
}

// pyShapes renders "Input Dims" JSON as Python's str() of torch's
// input_shapes: each element a flat int list, anything else (TensorList,
// nested lists, scalars) as [].
func pyShapes(dims, types string) string {
	elems := splitTop(dims)
	typ := splitTop(types)
	var b strings.Builder
	b.WriteByte('[')
	for i, e := range elems {
		if i > 0 {
			b.WriteString(", ")
		}
		if i < len(typ) && typ[i] == `"TensorList"` {
			b.WriteString("[]")
			continue
		}
		b.WriteString(flatIntList(e))
	}
	b.WriteByte(']')
	return b.String()
}

// splitTop splits a compact JSON array into its top-level elements.
func splitTop(s string) []string {
	if len(s) < 2 || s[0] != '[' {
		return nil
	}
	var out []string
	depth, start, inStr := 0, 1, false
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s)-1 {
		out = append(out, s[start:len(s)-1])
	}
	return out
}

func flatIntList(e string) string {
	if len(e) < 2 || e[0] != '[' || e[len(e)-1] != ']' {
		return "[]"
	}
	inner := e[1 : len(e)-1]
	if inner == "" {
		return "[]"
	}
	parts := strings.Split(inner, ",")
	for _, p := range parts {
		for j := 0; j < len(p); j++ {
			if (p[j] < '0' || p[j] > '9') && !(j == 0 && p[j] == '-') {
				return "[]"
			}
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// splitStack splits a "Call stack" argument into frames, dropping the
// frames torch filters (_filter_stack_entry).
func splitStack(s string) []string {
	var out []string
	for _, fr := range strings.Split(s, ";") {
		fr = strings.TrimSpace(fr)
		if fr == "" || filteredFrame(fr) {
			continue
		}
		out = append(out, fr)
	}
	return out
}

func filteredFrame(e string) bool {
	for _, f := range [][2]string{
		{"autograd/__init__", "_make_grads"},
		{"autograd/__init__", "backward"},
		{"torch/tensor", "backward"},
		{"_internal/common_utils", "prof_callable"},
		{"_internal/common_utils", "prof_func_call"},
		{"_internal/common_utils", "prof_meth_call"},
	} {
		if strings.Contains(e, f[0]) && strings.Contains(e, f[1]) {
			return true
		}
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Ns converts torch's float microseconds to integer nanoseconds, rounded
// to the nearest: the sums are torch's, the unit is the output contract's.
func Ns(us float64) int64 { return int64(math.Round(us * 1000)) }

// Pct is a as a percentage of b rounded to 2 decimals; ok is false when b
// is 0 (no share to give).
func Pct(a, b float64) (pct float64, ok bool) {
	if b == 0 {
		return 0, false
	}
	return math.Round(a*100/b*100) / 100, true
}
