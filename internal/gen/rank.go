package gen

import (
	"fmt"
	"strconv"
)

// Rank mode: each rank of a job is written by its own Write call, with the
// same schedule; every step ends with an all-reduce on stream 20. NCCL
// kernels of one collective end together on every rank: a rank that
// arrives early waits in the kernel for the last one. The straggler (when
// StragglerDelay > 0) works StragglerDelay longer on the CPU before it
// launches the all-reduce, so its kernel starts that much later and runs
// for the transfer time alone (allReduceDur); every other rank's kernel
// starts on time and lasts StragglerDelay + allReduceDur. Every rank's
// step is StragglerDelay longer, so the steps stay aligned.

// ValidateRank checks the rank-mode fields.
func (c Config) ValidateRank() error {
	switch {
	case c.World < 0 || c.Rank < 0 || c.Straggler < 0 || c.StragglerDelay < 0:
		return fmt.Errorf("-rank, -world, -straggler and -straggler-delay must not be negative")
	case c.World == 0 && (c.Rank > 0 || c.StragglerDelay > 0 || c.PGSeq):
		return fmt.Errorf("-rank, -straggler-delay and -pg-seq need -world")
	case c.World > 0 && (c.Rank >= c.World || c.Straggler >= c.World):
		return fmt.Errorf("-rank and -straggler must be below -world %d", c.World)
	}
	return nil
}

func (g *writer) distInfo(cfg Config) {
	if cfg.World <= 0 {
		return
	}
	g.w.WriteString(`  "distributedInfo": {"backend": "nccl", "rank": ` + strconv.Itoa(cfg.Rank) +
		`, "world_size": ` + strconv.Itoa(cfg.World) + "},\n")
}

func (g *writer) stragglerDelay(cfg Config) int64 {
	if cfg.World > 0 {
		return cfg.StragglerDelay
	}
	return 0
}

// rankCollective prepares the step's all-reduce in rank mode and returns
// how much later than the schedule this rank launches it: the straggler's
// extra CPU work, written here as an annotation.
func (g *writer) rankCollective(cfg Config, ct int64) int64 {
	if cfg.World <= 0 {
		return 0
	}
	late := cfg.StragglerDelay > 0 && cfg.Rank == cfg.Straggler
	ct -= g.lateIn // the schedule every rank keeps
	var shift int64
	if late && !cfg.StragglerBeforeStep {
		shift = cfg.StragglerDelay
		g.op("user_annotation", "straggler_work", mainTid, ct+45_000-shift/2, shift/2, "", "")
	}
	// the all-reduce is launched at ct+60_000 on time, StragglerDelay
	// later by the straggler; a kernel starts 4.1us after its launch (as
	// launchCat has it) or when its stream is free
	free := g.free[20]
	onTime := max(ct+60_000+g.lag+4_100, free)
	last := max(ct+60_000+cfg.StragglerDelay+g.lag+4_100, free)
	end := last + allReduceDur
	own := onTime
	if late {
		own = last
	}
	g.fixColl = func(int64) (int64, int64) { return own, end - own }
	g.seq++
	if cfg.PGSeq {
		g.collArgs = `, "Collective name": "allreduce", "Process Group Name": "0", "Seq": ` + strconv.FormatInt(g.seq, 10)
	}
	return shift
}
