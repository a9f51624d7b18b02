package cli

import (
	"runtime"
	"runtime/debug"
)

// The commands tune Go's collector for a process that reads one trace and
// exits: a low target (root's 20, gaps' 5) keeps the peak near the live
// size, and a collection between phases drops what a phase left (each
// place says what it measured). Those settings are the process's, not a
// command's.
//
// gcTuned is false in the package's tests, where one process runs Main
// thousands of times over traces it keeps parsed in memory
// (internal/testcache): there every collection marks the whole cache, and
// at a target of 20 the collector took 36-47% of the sweep's CPU (CPU
// profile of TestSweepSharedTraces, 2026-12-07). The tests that measure
// memory run the built binary, which always tunes.
var gcTuned = true

// setGCPercent sets the collector's target like debug.SetGCPercent and
// returns the one before; with tuning off it changes nothing.
func setGCPercent(p int) int {
	if !gcTuned {
		return p
	}
	return debug.SetGCPercent(p)
}

// collect runs a collection now (runtime.GC), unless tuning is off.
func collect() {
	if gcTuned {
		runtime.GC()
	}
}
