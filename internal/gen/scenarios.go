package gen

import (
	"slices"
	"strconv"
)

// Scenarios are the stalls the generator can add to every step, one per
// verdict class of tracetab gaps (and fullqueue, a full launch queue):
// each step starts with ScenarioNs of it on the main thread, before
// matmul_add.
var Scenarios = []string{"dataloader", "preprocess", "sync", "wait", "tiny", "fullqueue"}

// FullQueueLaunches is how many kernels the fullqueue scenario queues
// behind its long kernel: more than a full queue (1,024, HTA's limit).
const FullQueueLaunches = 1100

// ScenarioNs is how long each step's stall lasts.
const ScenarioNs = 3_000_000

// ValidScenario reports whether s is "" or one of Scenarios.
func ValidScenario(s string) bool { return s == "" || slices.Contains(Scenarios, s) }

// scenarioLen is how much the stall delays matmul_add on the CPU (the
// wait scenario delays only the GPU).
func scenarioLen(cfg Config) int64 {
	if cfg.Scenario == "" || cfg.Scenario == "wait" {
		return 0
	}
	return ScenarioNs
}

// scenario writes the stall of cfg.Scenario from t on the main thread.
//
//	dataloader  enumerate(DataLoader)#...__next__ with a collate function inside
//	preprocess  a Python preprocessing function outside the loader
//	sync        aten::item: a tiny DtoH copy, then a cudaStreamSynchronize that
//	            holds the CPU long after the GPU finished
//	wait        the next kernel is launched in time but waits on an event
//	            (cudaStreamWaitEvent) recorded elsewhere for the whole stall
//	tiny        hundreds of 1 us kernels, each launched by a 5 us call
//	fullqueue   a 6 ms kernel, then FullQueueLaunches 1 us kernels launched
//	            2.5 us apart under one aten::_foreach_add_, all queued behind it
func (g *writer) scenario(cfg Config, t int64) {
	const P = ScenarioNs
	switch cfg.Scenario {
	case "dataloader":
		g.op("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", mainTid, t+1_000, P-2_000, "", "")
		g.x("python_function", "torch/utils/data/_utils/collate.py(141): default_collate", [2]int{pid, mainTid}, t+50_000, P-200_000, "")
	case "preprocess":
		g.x("python_function", "train.py(88): preprocess_images", [2]int{pid, mainTid}, t+1_000, P-2_000, "")
		g.x("python_function", "<built-in function resize>", [2]int{pid, mainTid}, t+10_000, P-100_000, "")
	case "sync":
		eItem := g.op("cpu_op", "aten::item", mainTid, t+1_000, P-2_000, "[[]]", "[\"float\"]")
		eDense := g.op("cpu_op", "aten::_local_scalar_dense", mainTid, t+2_000, P-4_000, "[[]]", "[\"float\"]")
		_ = eItem
		g.launch(mainTid, eDense, "cudaMemcpyAsync", t+3_000, 5_000, devMemcpy, 7, "Memcpy DtoH (Device -> Pinned)", 1_500)
		g.x("cuda_runtime", "cudaStreamSynchronize", [2]int{pid, mainTid}, t+9_000, P-14_000,
			"\"cbid\": 131, \"correlation\": "+strconv.FormatInt(g.corr, 10))
		g.corr++
		g.f.LaunchCalls++
	case "wait":
		g.x("cuda_runtime", "cudaStreamWaitEvent", [2]int{pid, mainTid}, t+1_000, 3_000,
			"\"cbid\": 147, \"correlation\": "+strconv.FormatInt(g.corr, 10))
		g.corr++
		g.f.LaunchCalls++
		// the next op on stream 7 starts only when the event fires
		g.free[7] = max(g.free[7], t+g.lag+P)
	case "tiny":
		for at := t + 1_000; at+7_000 <= t+P; at += 7_000 {
			e := g.op("cpu_op", "aten::add_", mainTid, at, 6_500, "", "")
			g.launch(mainTid, e, "cudaLaunchKernel", at+500, 5_000, devKernel, 7, addKernel, 1_000)
		}
	case "fullqueue":
		e := g.op("cpu_op", "aten::_foreach_add_", mainTid, t+1_000, P-2_000, "", "")
		g.launch(mainTid, e, "cudaLaunchKernel", t+2_000, 2_000, devKernel, 7, addKernel, 2*P)
		for k := int64(0); k < FullQueueLaunches; k++ {
			g.launch(mainTid, e, "cudaLaunchKernel", t+10_000+k*2_500, 2_000, devKernel, 7, addKernel, 1_000)
		}
	}
}
