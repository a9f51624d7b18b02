package gen

import (
	"fmt"
	"strconv"
	"strings"
)

// Kineto is the style of a trace as torch.profiler's export_chrome_trace
// writes it on a multi-GPU node with record_shapes=True and
// profile_memory=True: the shape users record, as against the generator's
// default (relative ns timestamps, two shape args, no memory records).
type Kineto struct {
	// Export writes absolute epoch microsecond timestamps with three
	// decimals and no baseTimeNanoseconds (Kineto before 2.4), and lays
	// out every event as Kineto's ChromeTraceLogger does, two-space
	// indented over several lines: flows, instants, metadata, spans.
	Export bool
	// Shapes writes the record_shapes args of an op with inputs as torch
	// does (Concrete Inputs, Input type, Input Strides, Input Dims) and
	// nests aten::as_strided under aten::transpose, so a linear layer is
	// a tree four ops deep (aten::linear > aten::t > aten::transpose >
	// aten::as_strided).
	Shapes bool
	// Memory writes [memory] records: each op that makes a tensor
	// (aten::mm, aten::addmm, aten::add, aten::relu, aten::sum, aten::bmm)
	// allocates its output on the GPU inside its interval, the oldest live
	// tensor beyond the last memKeep is freed in the same op, and every
	// aten::copy_ allocates and frees a pinned CPU buffer. Every record
	// lies inside an op.
	Memory bool
	// Devices > 0 lists this many H100s in deviceProperties (the device
	// work stays on device 0, as on one rank of a node); 0 the one A100.
	Devices int
	// Deep nests under every op that makes a tensor (as Memory), copies,
	// zeroes or all-reduces a chain of dispatcher ops
	// (aten::to > aten::_to_copy > aten::empty_strided, each with
	// record_shapes args) in the op's first microsecond, so every CPU op
	// tree is 3 to 6 deep, as export_chrome_trace writes a model whose
	// ops dispatch through several layers.
	Deep bool
}

// KinetoStyle is every knob at once: tracegen -kineto, the second
// benchmark shape (four H100s).
func KinetoStyle() Kineto { return Kineto{Export: true, Shapes: true, Memory: true, Devices: 4} }

// ExportStyle is the third benchmark shape (tracegen -shape export): the
// Kineto style on one A100 with every CPU op tree 3 to 6 deep (Deep).
func ExportStyle() Kineto { return Kineto{Export: true, Shapes: true, Memory: true, Deep: true} }

// Validate checks the Kineto fields.
func (k Kineto) Validate() error {
	if k.Devices < 0 || k.Devices > 64 {
		return fmt.Errorf("-devices %d: want 0 to 64", k.Devices)
	}
	return nil
}

func (k Kineto) any() bool { return k.Export || k.Shapes || k.Memory || k.Deep || k.Devices > 0 }

// memKeep is how many device tensors stay alive before an allocating op
// frees the oldest.
const memKeep = 8

// kstate is the writer's Kineto state.
type kstate struct {
	Kineto
	tsOff    int64             // added to every ts: base (ns) with Export
	strides  map[string]string // Input Dims -> Input Strides
	concrete map[string]string // Input type -> Concrete Inputs
	sizes    map[string]int64  // Input Dims -> bytes of the output
	live     []memBlock        // device tensors alive, oldest first
	inChain  bool              // writing a Deep chain: no chain under it
	addr     int64
	alloc    [2]int64 // total allocated: CPU, device
	reserved int64    // device bytes reserved (2 MiB segments)
}

type memBlock struct{ addr, bytes int64 }

func newKState(k Kineto, baseNs int64) kstate {
	s := kstate{Kineto: k, addr: 0x7f3a00000000}
	if k.Export {
		s.tsOff = baseNs
	}
	if k.Shapes {
		s.strides, s.concrete = map[string]string{}, map[string]string{}
	}
	if k.Memory {
		s.sizes = map[string]int64{}
	}
	return s
}

// kHeader writes the top-level keys and the metadata events in the Kineto
// style; false when no knob is on (header writes the default one).
func (g *writer) kHeader(cfg Config) bool {
	k := &g.k
	if !k.any() {
		return false
	}
	g.w.WriteString("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n")
	if k.Devices == 0 {
		g.w.WriteString(`    {
      "id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85031714816,
      "computeMajor": 8, "computeMinor": 0,
      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
      "regsPerBlock": 65536, "warpSize": 32,
      "sharedMemPerBlock": 49152, "numSms": 108
    }
`)
	}
	for d := 0; d < k.Devices; d++ {
		g.w.WriteString(`    {
      "id": ` + strconv.Itoa(d) + `, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85018279936,
      "computeMajor": 9, "computeMinor": 0,
      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
      "regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32,
      "sharedMemPerBlock": 49152, "sharedMemPerMultiprocessor": 233472,
      "numSms": 132, "sharedMemPerBlockOptin": 232448
    }`)
		if d+1 < k.Devices {
			g.w.WriteString(",")
		}
		g.w.WriteString("\n")
	}
	g.w.WriteString("  ],\n")
	g.distInfo(cfg)
	g.w.WriteString(`  "cupti_version": 24,
  "cuda_runtime_version": 12080,
  "cuda_driver_version": 12080,
  "record_shapes": 1,
`)
	if k.Memory {
		g.w.WriteString("  \"profile_memory\": 1,\n")
	}
	g.w.WriteString("  \"trace_id\": \"7A7B2C9D0E1F4A5B8C6D7E8F9A0B1C2D\",\n  \"displayTimeUnit\": \"ms\",\n")
	if !k.Export {
		g.w.WriteString("  \"baseTimeNanoseconds\": " + strconv.FormatInt(baseTime(cfg), 10) + ",\n")
	}
	g.w.WriteString("  \"traceEvents\": [\n")
	for _, m := range []struct {
		name string
		pid  int
		tid  int
		key  string
		val  string
	}{
		{"process_name", pid, 0, "name", "python3"},
		{"process_labels", pid, 0, "labels", "CPU"},
		{"thread_name", pid, mainTid, "name", "thread 4242 (python3)"},
		{"thread_name", pid, bwdTid, "name", "thread 4250 (pt_autograd_0)"},
		{"process_name", 0, 0, "name", "python3"},
		{"process_labels", 0, 0, "labels", "GPU 0"},
		{"thread_name", 0, 7, "name", "stream 7"},
		{"thread_name", 0, 20, "name", "stream 20"},
	} {
		g.sep()
		b := append(g.buf[:0], "  {\n    \"name\": \""...)
		b = append(b, m.name...)
		b = append(b, "\", \"ph\": \"M\", \"ts\": "...)
		b = appendTs(b, k.tsOff)
		b = append(b, ", \"pid\": "...)
		b = strconv.AppendInt(b, int64(m.pid), 10)
		b = append(b, ", \"tid\": "...)
		b = strconv.AppendInt(b, int64(m.tid), 10)
		b = append(b, ",\n    \"args\": {\n      \""...)
		b = append(b, m.key...)
		b = append(b, "\": \""...)
		b = append(b, m.val...)
		b = append(b, "\"\n    }\n  }"...)
		g.w.Write(b)
		g.buf = b
	}
	return true
}

// kFlow writes a flow end as Kineto does, on three lines.
func (g *writer) kFlow(cat string, ph byte, id int64, p, t int, ts int64) {
	g.sep()
	b := append(g.buf[:0], "  {\n    \"ph\": \""...)
	b = append(b, ph)
	b = append(b, "\", \"id\": "...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, ", \"pid\": "...)
	b = strconv.AppendInt(b, int64(p), 10)
	b = append(b, ", \"tid\": "...)
	b = strconv.AppendInt(b, int64(t), 10)
	b = append(b, ", \"ts\": "...)
	b = appendTs(b, ts+g.k.tsOff)
	b = append(b, ",\n    \"cat\": \""...)
	b = append(b, cat...)
	b = append(b, "\", \"name\": \""...)
	b = append(b, cat...)
	b = append(b, '"')
	if ph == 'f' {
		b = append(b, ", \"bp\": \"e\""...)
	}
	b = append(b, "\n  }"...)
	g.w.Write(b)
	g.buf = b
}

// kFooter writes the trace span, its iteration marker and the window end
// as Kineto does; false without Export.
func (g *writer) kFooter(t int64) bool {
	if !g.k.Export {
		return false
	}
	off := g.k.tsOff
	g.sep()
	b := append(g.buf[:0], "  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": "...)
	b = appendTs(b, off)
	b = append(b, ", \"dur\": "...)
	b = appendTs(b, t)
	b = append(b, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n    \"name\": \"PyTorch Profiler (0)\",\n    \"args\": {\n      \"Op count\": 0\n    }\n  },\n"...)
	b = append(b, "  {\n    \"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": "...)
	b = appendTs(b, off)
	b = append(b, "\n  },\n  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n    \"pid\": \"\", \"tid\": \"\", \"ts\": "...)
	b = appendTs(b, off+t)
	b = append(b, "\n  }\n  ],\n  \"traceName\": \"tracetab-sample.pt.trace.json\"\n}\n"...)
	g.w.Write(b)
	g.buf = b
	return true
}

// recordShapes is the args record_shapes=True gives an op with inputs, in
// torch's order, after "Record function id".
func (g *writer) recordShapes(dims, types string) string {
	k := &g.k
	st, ok := k.strides[dims]
	if !ok {
		st = stridesOf(dims)
		k.strides[dims] = st
	}
	ci, ok := k.concrete[types]
	if !ok {
		ci = concreteOf(types)
		k.concrete[types] = ci
	}
	return ", \"Concrete Inputs\": " + ci + ", \"Input type\": " + types + ", \"Input Strides\": " + st + ", \"Input Dims\": " + dims
}

// listOf reads the generator's shape lists ("[[64, 512], [], [512]]"):
// one []int64 per input, nil for an input that is not a flat list of
// sizes (a scalar, a tensor list).
func listOf(dims string) [][]int64 {
	s := strings.TrimSpace(dims)
	s = strings.TrimPrefix(s, "[")
	s = strings.TrimSuffix(s, "]")
	var out [][]int64
	for len(strings.TrimSpace(s)) > 0 {
		s = strings.TrimSpace(s)
		s = strings.TrimPrefix(s, ",")
		s = strings.TrimSpace(s)
		if !strings.HasPrefix(s, "[") {
			return out
		}
		// the input's text up to its matching ']'
		depth, end := 0, 0
		for i, c := range s {
			if c == '[' {
				depth++
			} else if c == ']' {
				depth--
				if depth == 0 {
					end = i
					break
				}
			}
		}
		in := s[1:end]
		s = s[end+1:]
		if strings.Contains(in, "[") {
			out = append(out, nil)
			continue
		}
		var sizes []int64
		for _, f := range strings.Split(in, ",") {
			if f = strings.TrimSpace(f); f != "" {
				v, _ := strconv.ParseInt(f, 10, 64)
				sizes = append(sizes, v)
			}
		}
		out = append(out, sizes)
	}
	return out
}

// stridesOf is the contiguous strides of each input of dims.
func stridesOf(dims string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, sz := range listOf(dims) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('[')
		st := int64(1)
		str := make([]int64, len(sz))
		for j := len(sz) - 1; j >= 0; j-- {
			str[j] = st
			st *= sz[j]
		}
		for j, v := range str {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.FormatInt(v, 10))
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return b.String()
}

// concreteOf is the Concrete Inputs of an op with input types: the value
// of each scalar, "" for a tensor.
func concreteOf(types string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, t := range strings.Split(strings.Trim(types, "[]"), ",") {
		if i > 0 {
			b.WriteString(", ")
		}
		switch strings.Trim(strings.TrimSpace(t), "\"") {
		case "Scalar":
			b.WriteString(strconv.Quote(strconv.Itoa(i % 2)))
		case "ScalarList":
			b.WriteString("\"[1]\"")
		default:
			b.WriteString("\"\"")
		}
	}
	b.WriteByte(']')
	return b.String()
}

// allocates lists the ops that make a new tensor (Kineto.Memory).
var allocates = map[string]bool{"aten::mm": true, "aten::addmm": true, "aten::add": true, "aten::relu": true, "aten::sum": true, "aten::bmm": true}

// deepens are the other ops Deep nests a chain under (besides allocates).
var deepens = map[string]bool{"aten::copy_": true, "aten::zero_": true, "c10d::allreduce_": true}

// afterOp writes what follows an op in the Kineto style: its memory
// records and the op nested in it.
func (g *writer) afterOp(cat, name string, tid int, ts, dur int64, dims, types string) {
	k := &g.k
	if cat != "cpu_op" || !k.Memory && !k.Shapes {
		return
	}
	if k.Memory && dims != "" {
		switch {
		case allocates[name]:
			n, ok := k.sizes[dims]
			if !ok {
				n = outBytes(dims)
				k.sizes[dims] = n
			}
			a := k.addr
			k.addr += n
			g.memRecord(tid, ts+dur/3, 1, 0, a, n)
			k.live = append(k.live, memBlock{a, n})
			if len(k.live) > memKeep {
				old := k.live[0]
				k.live = k.live[1:]
				g.memRecord(tid, ts+dur/2, 1, 0, old.addr, -old.bytes)
			}
		case name == "aten::copy_":
			const pinned = 16384
			a := k.addr
			k.addr += pinned
			g.memRecord(tid, ts+dur/3, 0, -1, a, pinned)
			g.memRecord(tid, ts+2*dur/3, 0, -1, a, -pinned)
		}
	}
	if k.Shapes && name == "aten::transpose" {
		g.op("cpu_op", "aten::as_strided", tid, ts+dur/8, dur*3/4, "[[512, 512], [], [], []]", "[\"float\", \"ScalarList\", \"ScalarList\", \"Scalar\"]")
	}
	if k.Deep && (allocates[name] || deepens[name]) && !k.inChain && dur >= 2_000 {
		g.deepChain(tid, ts, dims, types)
	}
}

// deepChain writes the Deep chain of three nested ops in the first
// microsecond after ts (before any child or launch of the op).
// The chain takes the op's inputs (dims and types).
func (g *writer) deepChain(tid int, ts int64, dims, types string) {
	k := &g.k
	k.inChain = true
	g.op("cpu_op", "aten::to", tid, ts+100, 900, dims, types)
	g.op("cpu_op", "aten::_to_copy", tid, ts+200, 700, dims, types)
	g.op("cpu_op", "aten::empty_strided", tid, ts+300, 400, dims, types)
	k.inChain = false
}

// outBytes is the size of an op's output as the caching allocator rounds
// it (to 512 bytes): 4-byte floats of the first input with sizes.
func outBytes(dims string) int64 {
	for _, sz := range listOf(dims) {
		if len(sz) == 0 {
			continue
		}
		n := int64(4)
		for _, v := range sz {
			n *= v
		}
		return (n + 511) / 512 * 512
	}
	return 512
}

// memRecord writes one [memory] instant: bytes > 0 an allocation, < 0 a
// free, on device type devType (0 CPU, 1 CUDA) and id devID.
func (g *writer) memRecord(tid int, ts int64, devType, devID int, addr, bytes int64) {
	k := &g.k
	i := devType & 1
	k.alloc[i] += bytes
	reserved := int64(0)
	if devType == 1 {
		for k.reserved < k.alloc[1] {
			k.reserved += 2 << 20
		}
		reserved = k.reserved
	}
	g.evIdx++
	g.f.MemoryRecords++
	g.sep()
	b := append(g.buf[:0], "  {\n    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n    \"pid\": "...)
	b = strconv.AppendInt(b, pid, 10)
	b = append(b, ", \"tid\": "...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, ",\n    \"ts\": "...)
	b = appendTs(b, ts+k.tsOff)
	b = append(b, ",\n    \"args\": {\n      \"Total Reserved\": "...)
	b = strconv.AppendInt(b, reserved, 10)
	b = append(b, ", \"Total Allocated\": "...)
	b = strconv.AppendInt(b, k.alloc[i], 10)
	b = append(b, ", \"Bytes\": "...)
	b = strconv.AppendInt(b, bytes, 10)
	b = append(b, ", \"Addr\": "...)
	b = strconv.AppendInt(b, addr, 10)
	b = append(b, ", \"Device Id\": "...)
	b = strconv.AppendInt(b, int64(devID), 10)
	b = append(b, ", \"Device Type\": "...)
	b = strconv.AppendInt(b, int64(devType), 10)
	b = append(b, ", \"Ev Idx\": "...)
	b = strconv.AppendInt(b, g.evIdx, 10)
	b = append(b, "\n    }\n  }"...)
	g.w.Write(b)
	g.buf = b
}

// Shape is a named benchmark shape.
type Shape struct {
	Name string
	Cfg  Config
}

// BenchShapes are the three shapes go test -bench measures (make bench
// writes them large): the generator's default, the Kineto style
// (-kineto) and the deep export style (-shape export), each 200 steps of
// 8 layers.
func BenchShapes() []Shape {
	return []Shape{
		{"default", Config{Steps: 200, Layers: 8}},
		{"kineto", Config{Steps: 200, Layers: 8, Kineto: KinetoStyle()}},
		{"export", Config{Steps: 200, Layers: 8, Kineto: ExportStyle()}},
	}
}
