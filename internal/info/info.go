// Package info summarises a trace: what a user checks first.
package info

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/tracetab/tracetab/internal/trace"
)

// Schema is the version of the JSON form of Info.
const Schema = "tracetab.info/1"

// Info is the summary of one trace. Times are microseconds in JSON.
type Info struct {
	Schema       string            `json:"schema"`
	File         string            `json:"file"`
	Bytes        int64             `json:"bytes"`
	Container    string            `json:"container"`
	Era          string            `json:"era"`
	Torch        string            `json:"torch_hint"`
	EraNotes     string            `json:"era_notes"`
	TorchAssumed string            `json:"torch_assumed"`
	TorchWhy     string            `json:"torch_assumed_why"`
	Meta         map[string]string `json:"metadata,omitempty"`
	Rank         *int64            `json:"rank,omitempty"`
	WorldSize    *int64            `json:"world_size,omitempty"`
	Backend      string            `json:"backend,omitempty"`
	SpanUs       float64           `json:"span_us"`
	StartNs      int64             `json:"-"`
	EndNs        int64             `json:"-"`
	Events       int               `json:"events"`
	Categories   []CatCount        `json:"categories"`
	Flows        int               `json:"flows"`
	Memory       int               `json:"memory_events"`
	Instants     int               `json:"instant_events"`
	Counters     int               `json:"counter_events"`
	Devices      []Device          `json:"devices"`
	Threads      []Thread          `json:"threads"`
	Steps        []Step            `json:"steps"`
	DeviceOps    int               `json:"device_ops"`
	Linked       int               `json:"device_ops_linked"`
	Unlinked     int               `json:"device_ops_unlinked"`
	LaunchCalls  int               `json:"launch_calls"`
	LaunchesInOp int               `json:"launch_calls_in_an_op"`
	GraphLaunch  int               `json:"graph_launches"`
	Truncated    bool              `json:"truncated"`
	Warnings     []string          `json:"warnings"`
}

// CatCount is the number of X events of one category.
type CatCount struct {
	Cat   string `json:"cat"`
	Count int    `json:"count"`
}

// Device is one GPU with its streams.
type Device struct {
	ID      int      `json:"device"`
	Name    string   `json:"name,omitempty"`
	Streams []Stream `json:"streams"`
}

// Stream is one GPU stream.
type Stream struct {
	ID      int64   `json:"stream"`
	Kernels int     `json:"kernels"`
	Memcpy  int     `json:"memcpy"`
	Memset  int     `json:"memset"`
	Other   int     `json:"other"`
	BusyUs  float64 `json:"sum_us"`
}

// Thread is one CPU lane.
type Thread struct {
	Pid    string `json:"pid"`
	Tid    string `json:"tid"`
	Name   string `json:"name,omitempty"`
	Events int    `json:"events"`
}

// Step is one ProfilerStep#N annotation.
type Step struct {
	N     int64   `json:"step"`
	DurUs float64 `json:"dur_us"`
}

func idStr(t *trace.Trace, id trace.ID) string {
	if id.IsStr {
		return t.Str(id.Str)
	}
	return strconv.FormatInt(id.Int, 10)
}

// Summarize builds the Info of t.
func Summarize(t *trace.Trace) *Info {
	era := t.Era()
	in := &Info{
		Schema: Schema, File: t.File, Bytes: t.BytesRead, Container: t.Container,
		Era: era.Tag, Torch: era.Torch, EraNotes: era.Notes, Meta: t.Meta,
		TorchAssumed: fmt.Sprintf("%d.%d", era.Newest[0], era.Newest[1]),
		TorchWhy:     "the newest torch that writes the " + era.Tag + " form (" + era.Torch + "); table rebuilds the events by its rules and prints with them unless --torch says otherwise",
		Events:       t.NumEvents(), Memory: len(t.Mem), Instants: t.Instants, Counters: t.Counters,
		Flows: len(t.Flows) + t.LaunchFlows, Truncated: t.Truncated,
	}
	if t.Dist.Present {
		in.Backend = t.Dist.Backend
		if t.Dist.Rank >= 0 {
			r := t.Dist.Rank
			in.Rank = &r
		}
		if t.Dist.WorldSize >= 0 {
			w := t.Dist.WorldSize
			in.WorldSize = &w
		}
	}
	for c, n := range t.CatCounts {
		in.Categories = append(in.Categories, CatCount{c, n})
	}
	sort.Slice(in.Categories, func(i, j int) bool {
		a, b := in.Categories[i], in.Categories[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Cat < b.Cat
	})

	streams := map[int32]*Stream{}
	threads := map[int32]*Thread{}
	first := true
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if e.Kind == trace.KindTraceSpan {
			continue
		}
		if first || e.Start < in.StartNs {
			in.StartNs = e.Start
		}
		if first || e.End() > in.EndNs {
			in.EndNs = e.End()
		}
		first = false
		tr := &t.Tracks[e.Track]
		switch tr.Kind {
		case trace.TrackDevice:
			s := streams[e.Track]
			if s == nil {
				s = &Stream{ID: tr.Stream}
				streams[e.Track] = s
			}
			switch e.Kind {
			case trace.KindKernel:
				s.Kernels++
			case trace.KindMemcpy:
				s.Memcpy++
			case trace.KindMemset:
				s.Memset++
			default:
				s.Other++
			}
			if e.Kind.IsDeviceWork() {
				s.BusyUs += float64(e.Dur) / 1e3
			}
		case trace.TrackCPU:
			th := threads[e.Track]
			if th == nil {
				th = &Thread{Pid: idStr(t, tr.Pid), Tid: idStr(t, tr.Tid), Name: tr.Name}
				threads[e.Track] = th
			}
			th.Events++
			if e.Kind == trace.KindAnnotation || e.Kind == trace.KindCPUOp {
				if n, ok := trace.StepNumber(t.Str(e.Name)); ok {
					in.Steps = append(in.Steps, Step{N: n, DurUs: float64(e.Dur) / 1e3})
				}
			}
		}
	}
	in.SpanUs = float64(in.EndNs-in.StartNs) / 1e3
	sort.Slice(in.Steps, func(i, j int) bool { return in.Steps[i].N < in.Steps[j].N })

	devs := map[int]*Device{}
	for k, s := range streams {
		d := t.Tracks[k].Device
		dv := devs[d]
		if dv == nil {
			dv = &Device{ID: d}
			for _, p := range t.Devices {
				if p.ID == d {
					dv.Name = p.Name
				}
			}
			devs[d] = dv
		}
		dv.Streams = append(dv.Streams, *s)
	}
	for _, d := range devs {
		sort.Slice(d.Streams, func(i, j int) bool { return d.Streams[i].ID < d.Streams[j].ID })
		in.Devices = append(in.Devices, *d)
	}
	sort.Slice(in.Devices, func(i, j int) bool { return in.Devices[i].ID < in.Devices[j].ID })
	for _, th := range threads {
		in.Threads = append(in.Threads, *th)
	}
	sort.Slice(in.Threads, func(i, j int) bool {
		a, b := in.Threads[i], in.Threads[j]
		if a.Events != b.Events {
			return a.Events > b.Events
		}
		return a.Tid < b.Tid
	})

	l := t.Links()
	in.DeviceOps = l.DeviceOps
	in.Linked = l.LinkedDeviceOps
	in.Unlinked = l.DeviceOps - l.LinkedDeviceOps
	in.LaunchCalls = l.LaunchCalls
	in.LaunchesInOp = l.LaunchesWithOp
	if l.DuplicateCorrIDs > 0 {
		in.Warnings = append(in.Warnings, strconv.Itoa(l.DuplicateCorrIDs)+" launch calls reuse a correlation id seen before; their device ops are linked to the first")
	}
	for r, n := range l.Launched {
		if n > 1 && trace.IsGraphLaunch(t.NameOf(r)) {
			in.GraphLaunch++
		}
	}
	for _, w := range t.Warnings {
		msg := w.Msg
		if w.Count > 1 {
			msg += " (" + strconv.Itoa(w.Count) + " times)"
		}
		in.Warnings = append(in.Warnings, msg)
	}
	return in
}
