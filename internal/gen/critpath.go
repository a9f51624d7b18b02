package gen

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// CritCases are small traces with a known critical path (tracegen
// -critpath CASE), one ProfilerStep#1 each, for critical-path's tests:
//
//	cpu-bound     three ops back to back, each launching a short kernel on an
//	              idle stream: the path is the CPU chain
//	gpu-chain     three 500 us kernels queued on one stream, then a
//	              cudaStreamSynchronize: launch, the kernels, kernel_kernel gaps,
//	              the stream sync, the op after it
//	device-sync   a 300 us kernel on stream 7 and an 800 us one on stream 20, then
//	              cudaDeviceSynchronize: the path waits on stream 20
//	stream-wait   cudaEventRecord after a 500 us kernel on stream 7 and
//	              cudaStreamWaitEvent on stream 20: the next kernel on stream 20
//	              waits for it (a GPU-GPU sync edge)
//	launch-delay  a kernel that starts 210 us after its launch call on an idle
//	              stream: a launch edge of 210 us
//	big-gap       a 300 us kernel queued behind another, 1.875 ms after it ends:
//	              no kernel_kernel edge (over 1.5 ms), the kernel stands alone
//	tie           two 100 us kernels on two streams whose paths are equally long,
//	              joined by cudaDeviceSynchronize: the tie goes to the event earlier
//	              in the file (stream 20's kernel is written first)
var CritCases = []string{"cpu-bound", "gpu-chain", "device-sync", "stream-wait", "launch-delay", "big-gap", "tie"}

// CritFacts is the path the generator built a case around.
type CritFacts struct {
	PathNs     int64
	WallNs     int64
	Breakdown  map[string]int64 // cpu, gpu_compute, launch, kernel_kernel (nonzero ones)
	PathEvents []string         // names of the events on the path, in order
	EdgeTypes  map[string]int   // path edges per type
	SyncEdges  int              // sync edges in the window's graph
	SyncOnPath []string         // kinds of the sync edges on the path
}

type critWriter struct {
	b     []string
	corr  int64
	ext   int64
	first bool
}

const (
	critPid    = 100
	critTid    = 100
	us         = int64(1000)
	critKernel = "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float> >(int)"
)

func usText(ns int64) string { return string(appendTs(nil, ns)) }

func (c *critWriter) ev(cat, name string, pid, tid int, ts, dur int64, args string) {
	s := `{"ph": "X", "cat": "` + cat + `", "name": "` + name + `", "pid": ` + strconv.Itoa(pid) + `, "tid": ` + strconv.Itoa(tid) +
		`, "ts": ` + usText(ts) + `, "dur": ` + usText(dur)
	if args != "" {
		s += `, "args": {` + args + `}`
	}
	c.b = append(c.b, s+"}")
}

func (c *critWriter) op(name string, ts, dur int64) {
	c.ext++
	c.ev("cpu_op", name, critPid, critTid, ts, dur, `"External id": `+strconv.FormatInt(c.ext, 10))
}

// call writes a runtime call and returns its correlation id.
func (c *critWriter) call(name string, ts, dur int64) int64 {
	c.corr++
	c.ev("cuda_runtime", name, critPid, critTid, ts, dur, `"correlation": `+strconv.FormatInt(c.corr, 10))
	return c.corr
}

func (c *critWriter) kernel(name string, stream int, corr, ts, dur int64) {
	c.ev("kernel", name, 0, stream, ts, dur, `"device": 0, "stream": `+strconv.Itoa(stream)+`, "correlation": `+strconv.FormatInt(corr, 10))
}

func (c *critWriter) sync(name string, tid int, stream int64, corr, ts, dur int64, extra string) {
	c.ev("cuda_sync", name, 0, tid, ts, dur, `"cuda_sync_kind": "`+name+`", "stream": `+strconv.FormatInt(stream, 10)+
		`, "correlation": `+strconv.FormatInt(corr, 10)+`, "device": 0`+extra)
}

// launch writes cudaLaunchKernel at ts (10 us) and its kernel.
func (c *critWriter) launch(ts int64, stream int, kts, kdur int64) {
	corr := c.call("cudaLaunchKernel", ts, 10*us)
	c.kernel(critKernel, stream, corr, kts, kdur)
}

// WriteCritCase writes one of CritCases to w and returns its known path.
func WriteCritCase(w io.Writer, name string) (CritFacts, error) {
	c := &critWriter{corr: 100}
	var f CritFacts
	end := int64(0)
	switch name {
	case "cpu-bound":
		c.op("aten::a", 10*us, 300*us)
		c.launch(100*us, 7, 120*us, 10*us)
		c.op("aten::b", 320*us, 300*us)
		c.launch(400*us, 7, 420*us, 10*us)
		c.op("aten::c", 630*us, 300*us)
		end = 1000 * us
		f = CritFacts{PathNs: 900 * us, WallNs: 920 * us, Breakdown: map[string]int64{"cpu": 900 * us},
			PathEvents: []string{"aten::a", "cudaLaunchKernel", "aten::b", "cudaLaunchKernel", "aten::c"},
			EdgeTypes:  map[string]int{"operator": 7, "dependency": 2}}
	case "gpu-chain":
		c.op("aten::mm", 10*us, 30*us)
		c.launch(20*us, 7, 35*us, 500*us)
		c.op("aten::mm", 50*us, 30*us)
		c.launch(60*us, 7, 540*us, 500*us)
		c.op("aten::mm", 90*us, 30*us)
		c.launch(100*us, 7, 1045*us, 500*us)
		s := c.call("cudaStreamSynchronize", 130*us, 1420*us)
		c.sync("Stream Sync", 7, 7, s, 1545*us, 4*us, "")
		c.op("aten::relu", 1560*us, 20*us)
		end = 2000 * us
		f = CritFacts{PathNs: 1555 * us, WallNs: 1570 * us,
			Breakdown:  map[string]int64{"cpu": 30 * us, "launch": 15 * us, "gpu_compute": 1500 * us, "kernel_kernel": 10 * us},
			PathEvents: []string{"aten::mm", "cudaLaunchKernel", critKernel, critKernel, critKernel, "cudaStreamSynchronize", "aten::relu"},
			EdgeTypes:  map[string]int{"operator": 5, "launch": 1, "kernel_kernel": 2, "sync": 1, "dependency": 1},
			SyncEdges:  1, SyncOnPath: []string{"stream_sync"}}
	case "device-sync":
		c.op("aten::a", 5*us, 17*us)
		c.launch(10*us, 7, 25*us, 300*us)
		c.op("aten::b", 25*us, 17*us)
		c.launch(30*us, 20, 45*us, 800*us)
		d := c.call("cudaDeviceSynchronize", 50*us, 800*us)
		c.sync("Context Sync", -1, 4294967295, d, 846*us, 3*us, "")
		c.op("aten::relu", 860*us, 20*us)
		end = 1000 * us
		f = CritFacts{PathNs: 857 * us, WallNs: 875 * us,
			Breakdown:  map[string]int64{"cpu": 42 * us, "launch": 15 * us, "gpu_compute": 800 * us},
			PathEvents: []string{"aten::a", "cudaLaunchKernel", "aten::b", "cudaLaunchKernel", critKernel, "cudaDeviceSynchronize", "aten::relu"},
			EdgeTypes:  map[string]int{"operator": 6, "dependency": 2, "launch": 1, "sync": 1},
			SyncEdges:  2, SyncOnPath: []string{"device_sync"}}
	case "stream-wait":
		c.op("aten::a", 5*us, 17*us)
		c.launch(10*us, 7, 25*us, 500*us)
		rec := c.call("cudaEventRecord", 30*us, 3*us)
		wait := c.call("cudaStreamWaitEvent", 35*us, 3*us)
		c.sync("Stream Wait Event", 20, 20, wait, 40*us, 1*us,
			`, "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": `+strconv.FormatInt(rec, 10)+`, "wait_on_cuda_event_id": 1`)
		c.op("aten::b", 45*us, 17*us)
		c.launch(50*us, 20, 530*us, 100*us)
		d := c.call("cudaDeviceSynchronize", 70*us, 570*us)
		c.sync("Context Sync", -1, 4294967295, d, 631*us, 4*us, "")
		end = 1000 * us
		f = CritFacts{PathNs: 620 * us, WallNs: 625 * us,
			Breakdown:  map[string]int64{"cpu": 5 * us, "launch": 15 * us, "gpu_compute": 600 * us},
			PathEvents: []string{"aten::a", "cudaLaunchKernel", critKernel, critKernel},
			EdgeTypes:  map[string]int{"operator": 3, "launch": 1, "sync": 1},
			SyncEdges:  3, SyncOnPath: []string{"stream_wait_event"}}
	case "launch-delay":
		c.op("aten::a", 5*us, 17*us)
		c.launch(10*us, 7, 220*us, 10*us)
		c.op("aten::relu", 30*us, 10*us)
		end = 500 * us
		f = CritFacts{PathNs: 225 * us, WallNs: 225 * us,
			Breakdown:  map[string]int64{"cpu": 5 * us, "launch": 210 * us, "gpu_compute": 10 * us},
			PathEvents: []string{"aten::a", "cudaLaunchKernel", critKernel},
			EdgeTypes:  map[string]int{"operator": 2, "launch": 1}}
	case "big-gap":
		c.op("aten::a", 5*us, 17*us)
		c.launch(10*us, 7, 25*us, 100*us)
		c.op("aten::b", 30*us, 17*us)
		c.launch(35*us, 7, 2000*us, 300*us)
		end = 2500 * us
		f = CritFacts{PathNs: 300 * us, WallNs: 300 * us, Breakdown: map[string]int64{"gpu_compute": 300 * us},
			PathEvents: []string{critKernel}, EdgeTypes: map[string]int{"operator": 1}}
	case "tie":
		c.op("aten::a", 0, 30*us)
		corrA := c.call("cudaLaunchKernel", 5*us, 5*us)
		corrB := c.call("cudaLaunchKernel", 15*us, 5*us)
		c.kernel("kernel_on_stream_20", 20, corrB, 20*us, 100*us) // written first: wins the tie
		c.kernel("kernel_on_stream_7", 7, corrA, 20*us, 100*us)
		d := c.call("cudaDeviceSynchronize", 40*us, 90*us)
		c.sync("Context Sync", -1, 4294967295, d, 121*us, 4*us, "")
		c.op("aten::relu", 135*us, 10*us)
		end = 200 * us
		f = CritFacts{PathNs: 130 * us, WallNs: 145 * us,
			Breakdown:  map[string]int64{"cpu": 25 * us, "launch": 5 * us, "gpu_compute": 100 * us},
			PathEvents: []string{"aten::a", "cudaLaunchKernel", "cudaLaunchKernel", "kernel_on_stream_20", "cudaDeviceSynchronize", "aten::relu"},
			EdgeTypes:  map[string]int{"operator": 5, "launch": 1, "sync": 1, "dependency": 1},
			SyncEdges:  2, SyncOnPath: []string{"device_sync"}}
	default:
		return f, fmt.Errorf("unknown critical-path case %q (one of %s)", name, strings.Join(CritCases, ", "))
	}
	c.ext++
	c.ev("user_annotation", "ProfilerStep#1", critPid, critTid, 0, end, `"External id": `+strconv.FormatInt(c.ext, 10))
	c.ev("Trace", "PyTorch Profiler (0)", critPid, critTid, 0, end, "")
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n")
	bw.WriteString(`{"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7"}},` + "\n")
	bw.WriteString(`{"ph": "M", "name": "thread_name", "pid": 0, "tid": 20, "args": {"name": "stream 20"}}`)
	for _, e := range c.b {
		bw.WriteString(",\n" + e)
	}
	bw.WriteString("\n  ]\n}\n")
	return f, bw.Flush()
}

// ValidCritCase reports whether s is one of CritCases.
func ValidCritCase(s string) bool { return slices.Contains(CritCases, s) }
