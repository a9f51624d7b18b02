package export

import "github.com/tracetab/tracetab/internal/trace"

// eventSteps is, for each event of t, the index of its profiler step in
// t.StepWindows() (-1: none) by the rule of tracetab table --steps: a CPU
// event by its start, a device op by its launch call's start (its own
// when the trace has no launch call for it). The events' rows and the
// per-step tables both read it.
//
// A step cursor answers in place of a search per event (file order keeps
// each track's events mostly in time order): on tracegen -shape export at
// 200 MB (403k events, 1377 steps) the binary searches here took some 37
// ms of CPU, the walk a few.
func eventSteps(t *trace.Trace) []int32 {
	cur := trace.StepCursor{Steps: t.StepWindows()}
	launch := t.Links().Launch
	of := make([]int32, t.NumEvents())
	i := 0
	for _, c := range t.Events.Chunks() {
		for k := range c {
			e := &c[k]
			at := e.Start
			if e.Kind.IsDevice() {
				if r := launch[i]; r >= 0 {
					at = t.Ev(int(r)).Start
				}
			}
			of[i] = int32(cur.At(at))
			i++
		}
	}
	return of
}

// memSteps is, for each [memory] record of t, the index of the step in
// t.StepWindows() its time falls in (-1: none), as trace.StepAt finds it.
func memSteps(t *trace.Trace) []int32 {
	cur := trace.StepCursor{Steps: t.StepWindows()}
	of := make([]int32, len(t.Mem))
	for j := range t.Mem {
		of[j] = int32(cur.At(t.Mem[j].Ts))
	}
	return of
}

// stepSplit assigns t's events and [memory] records to its profiler steps
// by the rule of tracetab table --steps: a CPU event by its start, a
// device op by its launch call's start (its own when the trace has no
// launch call for it), a record by its time; what lies in no step is in
// none (of: eventSteps, memOf: memSteps). ev[k] and mem[k] list step k's (of t.StepWindows()) in file order.
type stepSplit struct {
	steps []trace.Step
	ev    [][]int32
	mem   [][]int32
	remap []trace.StrID // t's string id -> the step trace's, 0 when not yet used
}

func splitSteps(t *trace.Trace, of, memOf []int32) *stepSplit {
	s := &stepSplit{steps: t.StepWindows()}
	n := len(s.steps)
	if n == 0 {
		return s
	}
	count := make([]int32, n)
	for _, k := range of {
		if k >= 0 {
			count[k]++
		}
	}
	// one flat array cut into the steps' lists, filled by index (an
	// append stored a slice header into s.ev per event, which paid the
	// write barrier while the collector marked)
	total := 0
	for _, c := range count {
		total += int(c)
	}
	flat := make([]int32, total)
	next := make([]int32, n) // where step k's next event goes
	at := int32(0)
	for k, c := range count {
		next[k] = at
		at += c
	}
	for i, k := range of {
		if k >= 0 {
			flat[next[k]] = int32(i)
			next[k]++
		}
	}
	s.ev = make([][]int32, n)
	at = 0
	for k, c := range count {
		s.ev[k] = flat[at : at+c : at+c]
		at += c
	}
	s.mem = make([][]int32, n)
	for j, k := range memOf {
		if k >= 0 {
			s.mem[k] = append(s.mem[k], int32(j))
		}
	}
	s.remap = make([]trace.StrID, len(t.Strings))
	return s
}

// subTrace is the trace of step k alone: its events and records, on t's
// lanes, with t's trace-level facts (origin, era, clock base), so that a
// model computes on it what it computes on the events of that step, as on
// a crop of the step (tracetab crop --step). Its string table holds only
// the names it uses (a model's cost per trace then follows the step's
// size, not the whole trace's); it has no shapes, stacks or launch
// parameters (no table or kernel view reads them ungrouped).
func (s *stepSplit) subTrace(t *trace.Trace, k int) *trace.Trace {
	u := &trace.Trace{
		File: t.File, Container: t.Container, Base: t.Base, HasBase: t.HasBase,
		Strings: []string{""}, Devices: t.Devices, Dist: t.Dist, Meta: t.Meta,
		TraceStart: t.TraceStart, HasTraceSpan: t.HasTraceSpan,
		FractionalTs: t.FractionalTs, LegacyExport: t.LegacyExport, LowerExtID: t.LowerExtID, EvIdx: t.EvIdx,
		ProcessNames: t.ProcessNames, CatCounts: t.CatCounts,
		BigIDs: t.BigIDs, // the events' ids beyond an Event's own, as t's events refer to them
	}
	// the op and kernel tables never read the parents or the launch
	// counts (as tracetab table leaves them out)
	u.OmitFromLinks(true, true)
	var used []trace.StrID
	str := func(id trace.StrID) trace.StrID {
		if id == 0 {
			return 0
		}
		if s.remap[id] == 0 {
			s.remap[id] = trace.StrID(len(u.Strings))
			u.Strings = append(u.Strings, t.Strings[id])
			used = append(used, id)
		}
		return s.remap[id]
	}
	u.Tracks = make([]trace.Track, len(t.Tracks))
	for j, tr := range t.Tracks {
		if tr.Pid.IsStr {
			tr.Pid.Str = str(tr.Pid.Str)
		}
		if tr.Tid.IsStr {
			tr.Tid.Str = str(tr.Tid.Str)
		}
		u.Tracks[j] = tr
	}
	for _, i := range s.ev[k] {
		e := *t.Ev(int(i))
		e.Name, e.Extra = str(e.Name), -1
		u.Events.Append(e)
	}
	for _, id := range used {
		s.remap[id] = 0
	}
	if len(s.mem[k]) > 0 {
		u.Mem = make([]trace.MemEvent, len(s.mem[k]))
		for j, m := range s.mem[k] {
			u.Mem[j] = t.Mem[m]
		}
	}
	return u
}
