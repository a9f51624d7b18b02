package cli

import "github.com/tracetab/tracetab/internal/gctune"

// The commands tune Go's collector for a process that reads one trace and
// exits: a low target (root's 20, gaps' 5) keeps the peak near the live
// size, and a collection between phases drops what a phase left (each
// place says what it measured). Those settings are the process's, so
// internal/gctune holds the one switch (the package's tests turn it off:
// gctune's comment says why).

// setGCPercent sets the collector's target like debug.SetGCPercent and
// returns the one before; with the tuning off it changes nothing.
func setGCPercent(p int) int { return gctune.Percent(p) }

// collect runs a collection now (runtime.GC), unless the tuning is off.
func collect() { gctune.Collect() }
