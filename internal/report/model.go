// Package report gathers what tracetab report shows of a trace: the
// models of the text commands (gaps, info, table, memory) and the notes
// they would print (NewInputs). internal/render/reportview lays them out
// and draws the page.
package report

import (
	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/info"
	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/table"
)

// Inputs are the models the page shows for one trace (NewInputs).
type Inputs struct {
	File          string
	Info          *info.Info
	Gaps          *gaps.Report
	Ops           *table.Result // nil: no op table
	Kernels       []table.KernelRow
	KernelTotalNs int64
	KernelDurs    map[string][]int64 // table.KernelDurations
	StepDurs      map[int64][]int64  // table.StepKernelDurations
	Memory        []MemorySeries     // the memory model's curves, per device (none: no memory section)
	Categories    *categories.Result // the device time by category (nil: no category section)
	Modules       *modules.Tree      // the module tree (nil: no module section)
	Notes         []string           // what the commands would say on stderr
	Warnings      []string
}

// MemorySeries is one device's memory curve as the memory model
// (internal/memory) gives it: the allocated and reserved bytes after each
// record (times from the trace's origin), or for a long series its
// resampled columns; and the peak with the op it happened in.
type MemorySeries struct {
	Device         string
	HasReserved    bool  // the records carry "Total Reserved"
	Relative       bool  // no "Total Allocated": levels are relative to the level before the first record
	StartBytes     int64 // the allocated before the first record
	TimesNs        []int64
	AllocatedBytes []int64
	ReservedBytes  []int64
	Columns        []MemoryColumn // instead of the points, for a long series
	PeakNs         int64
	PeakBytes      int64
	PeakOp         string
}

// MemoryColumn is a stretch of a resampled curve: the lowest and highest
// allocated held in it, and the highest reserved.
type MemoryColumn struct {
	StartNs, EndNs             int64
	MinAllocated, MaxAllocated int64
	MaxReserved                int64
}

// MaxMemoryPoints is how many points of a device's series the page holds;
// a longer one is drawn from MemoryColumns columns of its resampled curve.
const (
	MaxMemoryPoints = 40000
	MemoryColumns   = 8000
)
