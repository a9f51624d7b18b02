package gen

// Late before the step (Config.StragglerBeforeStep): the straggler spends
// its StragglerDelay on the CPU before each ProfilerStep#N begins (an
// annotation "straggler_work" between the steps, as a slow data loader
// outside the step would), then runs the step's work on the usual
// schedule from its late start. Its collective is launched that much
// later, like the in-step straggler's, but its step is the shortest: every
// rank's step ends when the all-reduce ends.

// enterLate writes the straggler's delay before the step that would start
// at t and returns it (0 for every other rank and mode).
func (g *writer) enterLate(cfg Config, t int64) int64 {
	g.lateIn = 0
	if cfg.World <= 0 || !cfg.StragglerBeforeStep || cfg.StragglerDelay <= 0 || cfg.Rank != cfg.Straggler {
		return 0
	}
	g.op("user_annotation", "straggler_work", mainTid, t, cfg.StragglerDelay, "", "")
	g.lateIn = cfg.StragglerDelay
	return g.lateIn
}
