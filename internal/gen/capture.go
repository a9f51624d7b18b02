package gen

import "strconv"

// CUDA graph capture (Config.Capture > 0): before the first step the main
// thread captures a graph, as torch.cuda.graph and vLLM's or SGLang's
// capture do. Inside the annotation "capture_graph" a
// cudaStreamBeginCapture ... cudaStreamEndCapture window holds Capture
// ops (aten::mm and aten::add by turns), each asking
// cudaStreamGetCaptureInfo and launching one kernel that is recorded into
// the graph: its launch call has a correlation id and no device op. A
// cudaGraphInstantiate follows. Each step then replays the graph: one
// cudaGraphLaunch whose Capture kernels run on stream 7 under the launch
// call's correlation id.

// captureOpNs is how long one captured op takes on the CPU.
const captureOpNs = 10_000

// capturedName is the kernel the j-th captured op launches.
func capturedName(j int) string {
	if j%2 == 0 {
		return gemm
	}
	return addKernel
}

// capture writes the capture window from t and returns where the first
// step may start.
func (g *writer) capture(cfg Config, t int64) int64 {
	if cfg.Capture <= 0 {
		return t
	}
	start := int64(50_000)
	end := start + 20_000 + int64(cfg.Capture)*captureOpNs
	g.op("user_annotation", "capture_graph", mainTid, start, end-start, "", "")
	rt := func(name string, ts, dur int64) int64 {
		c := g.corr
		g.corr++
		g.x("cuda_runtime", name, [2]int{pid, mainTid}, ts, dur, "\"cbid\": 0, \"correlation\": "+strconv.FormatInt(c, 10))
		g.f.LaunchCalls++
		return c
	}
	rt("cudaStreamBeginCapture", start+1_000, 3_000)
	at := start + 5_000
	for j := 0; j < cfg.Capture; j++ {
		name, dims := "aten::mm", dims64
		if j%2 == 1 {
			name, dims = "aten::add", dimsAdd
		}
		ext := g.op("cpu_op", name, mainTid, at, captureOpNs-1_000, dims, types2)
		rt("cudaStreamGetCaptureInfo_v2", at+1_000, 1_000)
		c := g.corr
		g.corr++
		g.x("cuda_runtime", "cudaLaunchKernel", [2]int{pid, mainTid}, at+3_000, 4_000,
			"\"External id\": "+strconv.FormatInt(ext, 10)+", \"cbid\": 211, \"correlation\": "+strconv.FormatInt(c, 10))
		g.f.LaunchCalls++
		g.f.CapturedLaunches++
		at += captureOpNs
	}
	rt("cudaStreamEndCapture", at+1_000, 3_000)
	rt("cudaGraphInstantiate", at+5_000, 8_000)
	return max(t, end+50_000)
}

// graphReplay writes one cudaGraphLaunch at ts replaying the captured
// kernels on stream 7.
func (g *writer) graphReplay(cfg Config, ts int64) {
	if cfg.Capture <= 0 {
		return
	}
	c := g.corr
	g.corr++
	g.x("cuda_runtime", "cudaGraphLaunch", [2]int{pid, mainTid}, ts, 6_000, "\"cbid\": 311, \"correlation\": "+strconv.FormatInt(c, 10))
	g.f.LaunchCalls++
	g.f.Launches++
	start := max(ts+g.lag+4_100, g.free[7])
	for j := 0; j < cfg.Capture; j++ {
		g.x("kernel", capturedName(j), [2]int{0, 7}, start, 2_000,
			"\"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": "+strconv.FormatInt(c, 10))
		g.f.Kernels++
		g.f.Replayed++
		start += 2_500
	}
	g.free[7] = start + 1_000
}
