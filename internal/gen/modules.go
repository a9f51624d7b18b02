package gen

import "strconv"

// Module frames (Config.Modules): every step's forward work on the main
// thread runs inside a small nn.Module tree, as torch writes it with
// with_modules=True (python_function events named "nn.Module: NAME_N",
// N the instance's number, the same instance every step):
//
//	Model_0 > MatmulAdd_0 (the matmul_add body)
//	        > Linear_L, ReLU_L (each layer's aten::linear and aten::relu)
//
// Model_0 spans MatmulAdd_0 and the layers; each frame starts 100-300 ns
// before its first op and ends as long after its last, inside the gaps
// the step leaves between them, so every frame nests. The backward
// thread and the copy and all-reduce after the layers are outside any
// module (torch writes no module frames there). Nothing is random: the
// frames depend on the config alone.

// moduleFrame writes one module frame on the main thread.
func (g *writer) moduleFrame(name string, ts, dur int64) {
	g.moduleID++
	g.x("python_function", "nn.Module: "+name, [2]int{pid, mainTid}, ts, dur,
		"\"Python id\": "+strconv.FormatInt(g.moduleID, 10)+", \"Python thread\": 0")
	g.f.ModuleFrames++
}

// stepModules writes the step's Model_0 and MatmulAdd_0 frames around
// the matmul_add body (ma..maEnd) and the layers that follow from cur.
func (g *writer) stepModules(cfg Config, ma, maEnd, cur int64) {
	if !cfg.Modules {
		return
	}
	end := maEnd + 200
	if cfg.Layers > 0 {
		end = cur + int64(cfg.Layers)*layerWidth - 1_000 + 300 // the last ReLU ends 1 us before the layers' width
	}
	g.moduleFrame("Model_0", ma-200, end-(ma-200))
	g.moduleFrame("MatmulAdd_0", ma-100, maEnd+100-(ma-100))
}

// layerModule writes layer l's Linear and ReLU frames (the layer starts
// at lt: aten::linear lt..lt+52us, aten::relu lt+52.5us..lt+59us).
func (g *writer) layerModule(cfg Config, name string, l int, ts, dur int64) {
	if !cfg.Modules {
		return
	}
	g.moduleFrame(name+"_"+strconv.Itoa(l), ts-100, dur+200)
}
