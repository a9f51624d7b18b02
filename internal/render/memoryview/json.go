package memoryview

import (
	"io"
	"math"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/memory"
)

// Schema is the JSON document's version (docs/output.md).
const Schema = "tracetab.memory/1"

type stepJSON struct {
	Step    int64 `json:"step"`
	StartNs int64 `json:"start_ns"`
	EndNs   int64 `json:"end_ns"`
}

type deviceStepJSON struct {
	Step                int64  `json:"step"`
	StartNs             int64  `json:"start_ns"`
	EndNs               int64  `json:"end_ns"`
	StartAllocatedBytes *int64 `json:"start_allocated_bytes"`
	EndAllocatedBytes   *int64 `json:"end_allocated_bytes"`
	GrowthBytes         int64  `json:"growth_bytes"`
	PeakAllocatedBytes  *int64 `json:"peak_allocated_bytes"`
	StartReservedBytes  *int64 `json:"start_reserved_bytes"`
	EndReservedBytes    *int64 `json:"end_reserved_bytes"`
	Allocations         int    `json:"allocations"`
	Frees               int    `json:"frees"`
}

type groupJSON struct {
	Op          *string `json:"op"`
	Bytes       int64   `json:"bytes"`
	Allocations int     `json:"allocations"`
	OldestNs    int64   `json:"oldest_ns"`
	OldestAgeNs int64   `json:"oldest_age_ns"`
}

type aliveJSON struct {
	InTraceBytes               int64       `json:"in_trace_bytes"`
	InTraceAllocations         int         `json:"in_trace_allocations"`
	BeforeTraceBytes           *int64      `json:"before_trace_bytes"`
	BeforeTraceFreedLater      int         `json:"before_trace_freed_later"`
	BeforeTraceFreedLaterBytes int64       `json:"before_trace_freed_later_bytes"`
	Groups                     []groupJSON `json:"groups"`
}

type survivorJSON struct {
	Op              *string `json:"op"`
	Bytes           int64   `json:"bytes"`
	Allocations     int     `json:"allocations"`
	Steps           int     `json:"steps"`
	NeverFreedBytes int64   `json:"never_freed_bytes"`
	NeverFreed      int     `json:"never_freed"`
}

type leakJSON struct {
	Judged           bool           `json:"judged"`
	Reason           *string        `json:"reason"`
	Flagged          bool           `json:"flagged"`
	SharePct         float64        `json:"share_pct"`
	GrowingSteps     int            `json:"growing_steps"`
	MinGrowthBytes   *int64         `json:"min_growth_bytes"`
	TotalGrowthBytes *int64         `json:"total_growth_bytes"`
	Survivors        []survivorJSON `json:"survivors"`
}

type lifetimeJSON struct {
	Op               *string `json:"op"`
	Allocations      int     `json:"allocations"`
	Bytes            int64   `json:"bytes"`
	MaxBytes         int64   `json:"max_bytes"`
	Freed            int     `json:"freed"`
	MedianLifetimeNs *int64  `json:"median_lifetime_ns"`
	MaxLifetimeNs    *int64  `json:"max_lifetime_ns"`
	NeverFreed       int     `json:"never_freed"`
}

type columnJSON struct {
	StartNs           int64  `json:"start_ns"`
	EndNs             int64  `json:"end_ns"`
	MaxAllocatedBytes int64  `json:"max_allocated_bytes"`
	MinAllocatedBytes int64  `json:"min_allocated_bytes"`
	MaxReservedBytes  *int64 `json:"max_reserved_bytes"`
}

type deviceJSON struct {
	Device              string           `json:"device_name"`
	DeviceType          string           `json:"device_type"`
	DeviceTypeID        int              `json:"device_type_id"`
	DeviceID            *int             `json:"device_id"`
	TotalsRecorded      bool             `json:"totals_recorded"`
	ReservedRecorded    bool             `json:"reserved_recorded"`
	AddrsRecorded       bool             `json:"addrs_recorded"`
	Records             int              `json:"records"`
	Allocations         int              `json:"allocations"`
	Frees               int              `json:"frees"`
	AllocatedBytes      int64            `json:"allocated_bytes"`
	FreedBytes          int64            `json:"freed_bytes"`
	PreTraceFrees       int              `json:"pre_trace_frees"`
	PreTraceFreedBytes  int64            `json:"pre_trace_freed_bytes"`
	SizeMismatches      int              `json:"size_mismatches"`
	InconsistentRecords int              `json:"inconsistent_records"`
	OutOfMemoryEvents   int              `json:"out_of_memory_events"`
	PeakAllocatedBytes  *int64           `json:"peak_allocated_bytes"`
	PeakAboveStartBytes int64            `json:"peak_above_start_bytes"`
	PeakNs              int64            `json:"peak_ns"`
	PeakStep            *int64           `json:"peak_step"`
	PeakOp              *string          `json:"peak_op"`
	PeakAnnotation      *string          `json:"peak_annotation"`
	PeakPython          *string          `json:"peak_python"`
	PeakReservedBytes   *int64           `json:"peak_reserved_bytes"`
	PeakReservedNs      *int64           `json:"peak_reserved_ns"`
	PeakReservedStep    *int64           `json:"peak_reserved_step"`
	StartAllocatedBytes *int64           `json:"start_allocated_bytes"`
	EndAllocatedBytes   *int64           `json:"end_allocated_bytes"`
	StartReservedBytes  *int64           `json:"start_reserved_bytes"`
	EndReservedBytes    *int64           `json:"end_reserved_bytes"`
	Steps               []deviceStepJSON `json:"steps"`
	AliveAtPeak         *aliveJSON       `json:"alive_at_peak"`
	Leak                leakJSON         `json:"leak"`
	Lifetimes           []lifetimeJSON   `json:"lifetimes"`
	Timeline            []columnJSON     `json:"timeline,omitempty"`
}

type docJSON struct {
	Schema            string       `json:"schema"`
	File              string       `json:"file"`
	Records           int          `json:"records"`
	OutOfMemoryEvents int          `json:"out_of_memory_events"`
	WindowStartNs     int64        `json:"window_start_ns"`
	WindowEndNs       int64        `json:"window_end_ns"`
	LeakSharePct      float64      `json:"leak_share_pct"`
	Steps             []stepJSON   `json:"steps"`
	Devices           []deviceJSON `json:"devices"`
	Notes             []string     `json:"notes"`
}

// orNull is v when ok, else nil.
func orNull[T any](v T, ok bool) *T {
	if !ok {
		return nil
	}
	return &v
}

func opJSON(op string) *string { return orNull(op, op != memory.NoOp) }

func pct(f float64) float64 { return math.Round(f*100*100) / 100 }

// JSON writes the model as tracetab.memory/1. timeline > 0 adds each
// device's curve resampled to that many columns over the window.
func JSON(w io.Writer, m *memory.Model, file string, timeline int) error {
	doc := docJSON{Schema: Schema, File: file, Records: m.Records, OutOfMemoryEvents: m.OutOfMemory, WindowStartNs: m.WindowStartNs,
		WindowEndNs: m.WindowEndNs, LeakSharePct: pct(m.LeakShare), Steps: []stepJSON{}, Devices: []deviceJSON{}, Notes: m.Notes}
	if doc.Notes == nil {
		doc.Notes = []string{}
	}
	for _, s := range m.Steps {
		doc.Steps = append(doc.Steps, stepJSON{s.N, s.StartNs, s.EndNs})
	}
	for _, d := range m.Devices {
		doc.Devices = append(doc.Devices, deviceOf(m, d, timeline))
	}
	return layout.JSON(w, doc)
}

func deviceOf(m *memory.Model, d *memory.Device, timeline int) deviceJSON {
	tot, res := d.Totals, d.Reserved
	j := deviceJSON{Device: d.Name, DeviceType: d.TypeName, DeviceTypeID: int(d.Type), DeviceID: orNull(d.ID, d.ID >= 0),
		TotalsRecorded: tot, ReservedRecorded: res, AddrsRecorded: d.Addrs,
		Records: d.Records, Allocations: d.Allocations, Frees: d.Frees, AllocatedBytes: d.AllocBytes, FreedBytes: d.FreedBytes,
		PreTraceFrees: d.PreTraceFrees, PreTraceFreedBytes: d.PreTraceFreedBytes, SizeMismatches: d.SizeMismatches,
		InconsistentRecords: d.Inconsistent, OutOfMemoryEvents: d.OutOfMemory,
		PeakAllocatedBytes: orNull(d.Peak.Bytes, tot), PeakAboveStartBytes: d.Peak.AboveStartBytes, PeakNs: d.Peak.Ns,
		PeakStep: orNull(d.Peak.Step, d.Peak.InStep), PeakOp: opJSON(d.Peak.Op),
		PeakAnnotation: orNull(d.Peak.Annotation, d.Peak.Annotation != ""), PeakPython: orNull(d.Peak.Python, d.Peak.Python != ""),
		PeakReservedBytes: orNull(d.PeakReserved.Bytes, res), PeakReservedNs: orNull(d.PeakReserved.Ns, res),
		PeakReservedStep:    orNull(d.PeakReserved.Step, res && d.PeakReserved.InStep),
		StartAllocatedBytes: orNull(d.Start.Allocated, tot), EndAllocatedBytes: orNull(d.End.Allocated, tot),
		StartReservedBytes: orNull(d.Start.Reserved, res), EndReservedBytes: orNull(d.End.Reserved, res),
		Steps: []deviceStepJSON{}}
	for _, s := range d.Steps {
		j.Steps = append(j.Steps, deviceStepJSON{Step: s.N, StartNs: s.StartNs, EndNs: s.EndNs,
			StartAllocatedBytes: orNull(s.Start.Allocated, tot), EndAllocatedBytes: orNull(s.End.Allocated, tot), GrowthBytes: s.GrowthBytes,
			PeakAllocatedBytes: orNull(s.PeakBytes, tot), StartReservedBytes: orNull(s.Start.Reserved, res), EndReservedBytes: orNull(s.End.Reserved, res),
			Allocations: s.Allocations, Frees: s.Frees})
	}
	if d.Alive.Measured {
		a := d.Alive
		aj := &aliveJSON{InTraceBytes: a.InTraceBytes, InTraceAllocations: a.InTraceCount, BeforeTraceBytes: orNull(a.BeforeTraceBytes, tot),
			BeforeTraceFreedLater: a.BeforeTraceFreedLater, BeforeTraceFreedLaterBytes: a.BeforeTraceFreedLaterBytes, Groups: []groupJSON{}}
		for _, g := range a.Groups {
			aj.Groups = append(aj.Groups, groupJSON{opJSON(g.Op), g.Bytes, g.Count, g.OldestNs, g.OldestAgeNs})
		}
		j.AliveAtPeak = aj
	}
	l := d.Leak
	j.Leak = leakJSON{Judged: l.Judged, Reason: orNull(l.Reason, l.Reason != ""), Flagged: l.Flagged, SharePct: pct(l.Share),
		GrowingSteps: l.GrowingSteps, MinGrowthBytes: orNull(l.MinGrowthBytes, l.Judged), TotalGrowthBytes: orNull(l.TotalGrowthBytes, l.Judged)}
	if d.Addrs {
		j.Leak.Survivors = []survivorJSON{}
		for _, s := range l.Survivors {
			j.Leak.Survivors = append(j.Leak.Survivors, survivorJSON{opJSON(s.Op), s.Bytes, s.Count, s.Steps, s.NeverFreedBytes, s.NeverFreedCount})
		}
		j.Lifetimes = []lifetimeJSON{}
		for _, lt := range d.Lifetimes {
			j.Lifetimes = append(j.Lifetimes, lifetimeJSON{Op: opJSON(lt.Op), Allocations: lt.Count, Bytes: lt.Bytes, MaxBytes: lt.MaxBytes, Freed: lt.Freed,
				MedianLifetimeNs: orNull(lt.MedianNs, lt.Freed > 0), MaxLifetimeNs: orNull(lt.MaxNs, lt.Freed > 0), NeverFreed: lt.NeverFreed})
		}
	}
	if timeline > 0 {
		j.Timeline = []columnJSON{}
		for _, c := range d.Curve(m.WindowStartNs, m.WindowEndNs, timeline) {
			j.Timeline = append(j.Timeline, columnJSON{c.StartNs, c.EndNs, c.MaxAllocated, c.MinAllocated, orNull(c.MaxReserved, res)})
		}
	}
	return j
}
