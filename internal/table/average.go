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
	m := f.n()
	// device_time_total of CPU events, made bottom-up by buildTree.
	devTotal := f.kdev
	if !useDevice {
		clear(devTotal)
	}
	var mt *memTotals
	if f.mem != nil {
		mt = newMemTotals(f, v)
	}
	rows = []Row{}
	index := map[rowKey]int{}
	var shapeCache map[trace.StrID]string
	var fast []int32
	for i := 0; i < m; i++ {
		var cpuMem, devMem int64
		if mt != nil {
			// every position's usage, kept or not, leaves its parent's self
			cpuMem, devMem = mt.at(i)
			if pr := mt.parentRow[i]; pr > 0 {
				rows[pr-1].SelfCPUMem -= cpuMem
				rows[pr-1].SelfDevMem -= devMem
			}
		}
		if f.deleted(i) {
			continue
		}
		kind, key, start, end := f.at(i)
		if kind == trace.KindPython && v.skipsPythonFunctions() {
			continue
		}
		device, ann := kind.IsDevice(), isAnnKind(kind)
		k := rowKey{key: key, device: device}
		if v.keyHasUserAnnotation() {
			k.ann = ann
		}
		var stack []string
		if byShape || stackN > 0 {
			if f.ev[i] >= 0 {
				if x := t.ExtraOf(int(f.ev[i])); x != nil {
					if byShape {
						if shapeCache == nil {
							shapeCache = map[trace.StrID]string{}
						}
						s, ok := shapeCache[x.InputDims]
						if !ok {
							s = pyShapes(t.Str(x.InputDims), t.Str(x.InputTypes))
							shapeCache[x.InputDims] = s
						}
						k.shapes = s
					}
					if stackN > 0 && x.Stack != 0 {
						stack = splitStack(t.Str(x.Stack))
						if len(stack) > stackN {
							stack = stack[:stackN]
						}
						k.stack = strings.Join(stack, "\x00")
					}
				}
			}
			if byShape && k.shapes == "" {
				k.shapes = "[]"
			}
		}
		var ri int
		var ok bool
		if byShape || stackN > 0 {
			ri, ok = index[k]
		} else {
			slot := int(k.key)*4 + b2i(k.device)*2 + b2i(k.ann)
			for len(fast) <= slot {
				fast = append(fast, -1)
			}
			ri = int(fast[slot])
			ok = ri >= 0
			if !ok {
				fast[slot] = int32(len(rows))
			}
		}
		if !ok {
			ri = len(rows)
			index[k] = ri
			rows = append(rows, Row{
				Name: f.keys[k.key], Device: device, UserAnn: ann,
				Shapes: k.shapes, Stack: stack, TopLevel: f.flags[i]&feHasParent == 0, firstSeen: i,
			})
		}
		r := &rows[ri]
		var cpuTotal, selfCPU, selfDev, dt float64
		if !device {
			cpuTotal = end - start
			var c, cd float64
			for ch := f.firstChild[i]; ch >= 0; ch = f.nextSib[ch] {
				c += f.dur(int(ch))
				cd += devTotal[ch]
				if mt != nil {
					mt.parentRow[ch] = int32(ri + 1)
				}
			}
			selfCPU = cpuTotal - c
			if selfCPU < 0 && kind != trace.KindPython {
				negEvents++
			}
			dt = devTotal[i]
			selfDev = dt - cd
			r.SelfCPUMem += cpuMem
			r.SelfDevMem += devMem
		} else if useDevice {
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
	return rows, negEvents
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
