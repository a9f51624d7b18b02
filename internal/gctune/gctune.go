// Package gctune is the one switch for the collector tuning tracetab's
// code does for a process that reads one trace and exits: a lower GC
// target (the commands' setGCPercent), a collection between phases (the
// parallel reader after its workers' stores are merged, crop and table
// before they render, export between traces) and the soft memory limit
// set from --max-memory. Each place says what it measured.
//
// The tuning is the process's, so a process that is not tracetab's
// command line turns it off: internal/cli's tests run Main thousands of
// times in one process that keeps every reference trace parsed in memory
// (internal/testcache, internal/rawjson), where each forced collection
// marks all of that. Measured on internal/cli's test binary (2 cores,
// 2026-12-07): 18 forced collections from the reader alone at 0.9-1.8 GB
// live, 0.8-1.5 CPU s each, and at a target of 20 the collector took
// 36-47% of TestSweepSharedTraces' CPU. The tests that measure memory run
// the built binary, which always tunes.
package gctune

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

var off atomic.Bool

// SetEnabled turns the tuning on or off and returns whether it was on.
func SetEnabled(on bool) bool { return !off.Swap(!on) }

// Enabled reports whether the tuning is on (it is unless turned off).
func Enabled() bool { return !off.Load() }

// Percent sets the collector's target like debug.SetGCPercent and returns
// the one before; with the tuning off it changes nothing and returns p.
func Percent(p int) int {
	if off.Load() {
		return p
	}
	return debug.SetGCPercent(p)
}

// Collect runs a collection now (runtime.GC), unless the tuning is off.
func Collect() {
	if !off.Load() {
		runtime.GC()
	}
}

// MemoryLimit sets the runtime's soft memory limit like
// debug.SetMemoryLimit (the commands give it their --max-memory bound)
// and returns the one before; with the tuning off it changes nothing and
// returns limit: a process that runs Main many times (internal/cli's
// tests) keeps the limit it chose for itself.
func MemoryLimit(limit int64) int64 {
	if off.Load() {
		return limit
	}
	return debug.SetMemoryLimit(limit)
}
