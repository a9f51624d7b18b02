// Package critpathview lays out critical-path's results: text that fits a
// width (one line per window, the top ops by path time, the syncs the
// path waits on, what-if) and JSON (tracetab.critical_path/1, documented
// field by field in docs/output.md).
package critpathview

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/critpath"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/trace"
)

// Schema is the JSON schema of critical-path.
const Schema = "tracetab.critical_path/1"

type breakdownJSON struct {
	CPU          int64 `json:"cpu"`
	GPUCompute   int64 `json:"gpu_compute"`
	GPUComm      int64 `json:"gpu_comm"`
	Launch       int64 `json:"launch"`
	KernelKernel int64 `json:"kernel_kernel"`
	DataLoading  int64 `json:"data_loading"`
}

type sharesJSON struct {
	CPU          float64 `json:"cpu"`
	GPUCompute   float64 `json:"gpu_compute"`
	GPUComm      float64 `json:"gpu_comm"`
	Launch       float64 `json:"launch"`
	KernelKernel float64 `json:"kernel_kernel"`
	DataLoading  float64 `json:"data_loading"`
}

type stepsJSON struct {
	First int64 `json:"first"`
	Last  int64 `json:"last"`
}

type graphJSON struct {
	Nodes   int `json:"nodes"`
	Edges   int `json:"edges"`
	Clamped int `json:"clamped_edges"`
}

type eventJSON struct {
	Name     string  `json:"name"`
	Cat      string  `json:"cat"`
	Pid      *int64  `json:"pid"`
	PidText  *string `json:"pid_text"`
	Tid      *int64  `json:"tid"`
	TidText  *string `json:"tid_text"`
	Device   *int64  `json:"device"`
	Stream   *int64  `json:"stream"`
	StartNs  int64   `json:"start_ns"`
	DurNs    int64   `json:"dur_ns"`
	OnPathNs int64   `json:"on_path_ns"`
	OnPath   bool    `json:"on_path"`
}

type edgeJSON struct {
	Type      string `json:"type"`
	From      int    `json:"from"`
	FromPoint string `json:"from_point"`
	To        int    `json:"to"`
	ToPoint   string `json:"to_point"`
	WeightNs  int64  `json:"weight_ns"`
}

type refJSON struct {
	Name    string `json:"name"`
	StartNs int64  `json:"start_ns"`
	DurNs   int64  `json:"dur_ns"`
}

type syncJSON struct {
	Kind   string  `json:"kind"`
	OnPath bool    `json:"on_path"`
	From   refJSON `json:"from"`
	To     refJSON `json:"to"`
}

type whatIfJSON struct {
	Name      string  `json:"name"`
	Speedup   float64 `json:"speedup"`
	OnPathNs  int64   `json:"on_path_ns"`
	NewPathNs int64   `json:"new_path_ns"`
	SavedNs   int64   `json:"saved_ns"`
}

type windowJSON struct {
	Label        string         `json:"label"`
	Step         *int64         `json:"step"`
	Steps        *stepsJSON     `json:"steps"`
	Annotation   *string        `json:"annotation"`
	Instance     *int           `json:"instance"`
	InstanceLast *int           `json:"instance_last"`
	StartNs      int64          `json:"start_ns"`
	EndNs        int64          `json:"end_ns"`
	PathNs       *int64         `json:"path_ns"`
	WallNs       *int64         `json:"wall_ns"`
	NoPathReason *string        `json:"no_path_reason"`
	Uncounted    *uncountedJSON `json:"uncounted_ns"`
	BreakdownNs  *breakdownJSON `json:"breakdown_ns"`
	BreakdownPct *sharesJSON    `json:"breakdown_pct"`
	Graph        graphJSON      `json:"graph"`
	EventsOnPath int            `json:"events_on_path"`
	Events       []eventJSON    `json:"events"`
	Edges        []edgeJSON     `json:"edges"`
	SyncEdges    []syncJSON     `json:"sync_edges"`
	WhatIf       []whatIfJSON   `json:"what_if"`
}

// uncountedJSON: the window's time the path does not count, by why
// (path_ns + the five = end_ns - start_ns).
type uncountedJSON struct {
	Idle    int64 `json:"idle"`
	Sync    int64 `json:"sync"`
	Blocked int64 `json:"blocked"`
	Clamped int64 `json:"clamped"`
	Outside int64 `json:"outside"`
}

type nameJSON struct {
	Name     string  `json:"name"`
	OnPathNs int64   `json:"on_path_ns"`
	SharePct float64 `json:"share_pct"`
	Events   int     `json:"events"`
}

type syncCountJSON struct {
	Kind  string `json:"kind"`
	From  string `json:"from"`
	To    string `json:"to"`
	Count int    `json:"count"`
}

type docJSON struct {
	Schema         string          `json:"schema"`
	File           string          `json:"file"`
	OriginTsNs     int64           `json:"origin_ts_ns"`
	Warnings       []string        `json:"warnings"`
	MaxKernelGapNs int64           `json:"kernel_kernel_max_gap_ns"`
	Speedup        float64         `json:"speedup"`
	MedianPathNs   *int64          `json:"median_path_ns"`
	TotalPathNs    int64           `json:"total_path_ns"`
	TotalBreakdown breakdownJSON   `json:"total_breakdown_ns"`
	Top            []nameJSON      `json:"top"`
	PathSyncs      []syncCountJSON `json:"path_syncs"`
	Windows        []windowJSON    `json:"windows"` // last: written window by window
}

func breakdown(b [critpath.NumCategories]int64) breakdownJSON {
	return breakdownJSON{b[critpath.CatCPU], b[critpath.CatGPUCompute], b[critpath.CatGPUComm], b[critpath.CatLaunch],
		b[critpath.CatKernelKernel], b[critpath.CatDataLoading]}
}

// Pct is part as a percentage of whole, rounded to 2 decimals (0 for an
// empty whole).
func Pct(part, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	return math.Round(float64(part)*10000/float64(whole)) / 100
}

func shares(b [critpath.NumCategories]int64, total int64) sharesJSON {
	return sharesJSON{Pct(b[critpath.CatCPU], total), Pct(b[critpath.CatGPUCompute], total), Pct(b[critpath.CatGPUComm], total),
		Pct(b[critpath.CatLaunch], total), Pct(b[critpath.CatKernelKernel], total), Pct(b[critpath.CatDataLoading], total)}
}

// Cat is the category label of an event kind, as the trace's categories
// are spelled in torch 2.x.
func Cat(k trace.Kind) string {
	switch k {
	case trace.KindRuntime:
		return "cuda_runtime"
	case trace.KindDriver:
		return "cuda_driver"
	}
	return k.String()
}

func idJSON(t *trace.Trace, id trace.ID) (*int64, *string) {
	if !id.IsStr {
		v := id.Int
		return &v, nil
	}
	s := t.Str(id.Str)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return &n, nil
	}
	return nil, &s
}

func point(end bool) string {
	if end {
		return "end"
	}
	return "start"
}

// JSON writes r as tracetab.critical_path/1. The windows are laid out
// one at a time (a trace of 15,000 steps has 15,000 of them), in
// layout.JSON's indentation.
func JSON(w io.Writer, file string, t *trace.Trace, r *critpath.Result, warnings []string) error {
	d := docJSON{Schema: Schema, File: file, OriginTsNs: t.TraceStart, Warnings: warnings, MaxKernelGapNs: critpath.MaxKernelGapNs,
		Speedup: r.Speedup, Windows: []windowJSON{}, TotalPathNs: r.TotalPathNs, TotalBreakdown: breakdown(r.TotalBreakdown),
		Top: []nameJSON{}, PathSyncs: []syncCountJSON{}}
	if d.Warnings == nil {
		d.Warnings = []string{}
	}
	if r.HasMedian {
		m := r.MedianPathNs
		d.MedianPathNs = &m
	}
	for _, n := range r.Names {
		d.Top = append(d.Top, nameJSON{n.Name, n.OnPathNs, Pct(n.OnPathNs, r.TotalPathNs), n.Events})
	}
	for _, s := range r.PathSyncs {
		d.PathSyncs = append(d.PathSyncs, syncCountJSON{s.Kind.String(), s.From, s.To, s.Count})
	}
	var head bytes.Buffer
	if err := layout.JSON(&head, d); err != nil {
		return err
	}
	const tail = "\"windows\": []\n}\n"
	h, ok := strings.CutSuffix(head.String(), tail)
	if !ok || len(r.Windows) == 0 {
		_, err := io.WriteString(w, head.String())
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(h + "\"windows\": [\n")
	var one bytes.Buffer
	for k := range r.Windows {
		one.Reset()
		if err := layout.JSON(&one, window(t, &r.Windows[k])); err != nil {
			return err
		}
		if k > 0 {
			bw.WriteString(",\n")
		}
		for i, line := range strings.Split(strings.TrimSuffix(one.String(), "\n"), "\n") {
			if i > 0 {
				bw.WriteString("\n")
			}
			bw.WriteString("    " + line)
		}
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

func window(t *trace.Trace, w *critpath.WindowResult) windowJSON {
	j := windowJSON{Label: w.Label, StartNs: w.StartNs, EndNs: w.EndNs, EventsOnPath: w.OnPathEvents,
		Graph:  graphJSON{w.Nodes, w.GraphEdges, w.Clamped},
		Events: []eventJSON{}, Edges: []edgeJSON{}, SyncEdges: []syncJSON{}, WhatIf: []whatIfJSON{}}
	if w.HasStep {
		s := w.Step
		j.Step = &s
	}
	if c, ok := w.Coverage(); ok {
		j.Uncounted = &uncountedJSON{c.Uncounted.IdleNs, c.Uncounted.SyncNs, c.Uncounted.BlockedNs, c.Uncounted.OtherNs, c.OutsideNs}
	}
	if w.HasSteps {
		j.Steps = &stepsJSON{w.FirstStep, w.LastStep}
	}
	if w.HasAnnotation {
		a, lo, hi := w.Annotation, w.FirstInstance, w.LastInstance
		j.Annotation, j.Instance, j.InstanceLast = &a, &lo, &hi
	}
	if !w.HasPath {
		reason := w.Reason
		j.NoPathReason = &reason
	} else {
		p, wall := w.PathNs, w.WallNs
		b, s := breakdown(w.Breakdown), shares(w.Breakdown, w.PathNs)
		j.PathNs, j.WallNs, j.BreakdownNs, j.BreakdownPct = &p, &wall, &b, &s
	}
	for _, e := range w.Events {
		tr := &t.Tracks[e.Track]
		ej := eventJSON{Name: e.Name, Cat: Cat(e.Kind), StartNs: e.StartNs, DurNs: e.DurNs, OnPathNs: e.OnPathNs, OnPath: e.OnPath}
		ej.Pid, ej.PidText = idJSON(t, tr.Pid)
		ej.Tid, ej.TidText = idJSON(t, tr.Tid)
		if tr.Kind == trace.TrackDevice {
			dev, st := int64(tr.Device), tr.Stream
			ej.Device, ej.Stream = &dev, &st
		}
		j.Events = append(j.Events, ej)
	}
	for _, e := range w.Edges {
		j.Edges = append(j.Edges, edgeJSON{e.Type.String(), e.From, point(e.FromEnd), e.To, point(e.ToEnd), e.WeightNs})
	}
	for _, s := range w.Syncs {
		j.SyncEdges = append(j.SyncEdges, syncJSON{s.Kind.String(), s.OnPath,
			refJSON{s.From.Name, s.From.StartNs, s.From.DurNs}, refJSON{s.To.Name, s.To.StartNs, s.To.DurNs}})
	}
	for _, x := range w.WhatIf {
		j.WhatIf = append(j.WhatIf, whatIfJSON{x.Name, x.Speedup, x.OnPathNs, x.NewPathNs, x.SavedNs})
	}
	return j
}
