package gen

import "strconv"

// Recompiles (Config.RecompileAt > 0, with the compiled or triton
// variant): from ProfilerStep#RecompileAt on, Dynamo runs compile 1 of
// frame 0 ("Torch-Compiled Region: 0/1", as after a guard failure); the
// first such step starts with the compile work Dynamo times,
// "_compile.compile_inner (dynamo_timed)".

// recompileNs is the compile work written before the first recompiled call.
const recompileNs = 12_000

// region is the compiled region's name in step stepNo, and writes the
// compile work at t when the recompile starts there.
func (g *writer) region(cfg Config, stepNo int, t int64) string {
	if cfg.RecompileAt <= 0 || stepNo < cfg.RecompileAt {
		return "Torch-Compiled Region: 0/0"
	}
	if stepNo == cfg.RecompileAt {
		g.op("user_annotation", "_compile.compile_inner (dynamo_timed)", mainTid, t, recompileNs, "", "")
		g.f.RecompileNs = recompileNs
	}
	return "Torch-Compiled Region: 0/" + strconv.Itoa(1)
}
