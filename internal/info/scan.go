package info

import (
	"sort"

	"github.com/tracetab/tracetab/internal/bitset"
	"github.com/tracetab/tracetab/internal/trace"
)

// window is the first start and the last end of a device's work.
type window struct{ lo, hi int64 }

// eventScan is what info's one pass over the events gathers.
type eventScan struct {
	streams      map[int32]*Stream // per device track
	threads      map[int32]*Thread // per CPU track
	work         map[int]*window   // per device
	launchedWork bitset.Set        // the calls some device work links to, by event index (a map of them: 18 and 6.6 ms of the scan and the counts on the 200 MB default shape)
	lo, hi       int64             // the events' span, the trace span event's included
	any          bool              // there is an event
	steps        []Step            // the ProfilerStep#N annotations and ops, in event order
}

// scanEvents counts the device ops per stream by kind (device work, not
// GPU annotations, makes the work time and window), the events per CPU
// thread and the step annotations, in one pass.
func scanEvents(t *trace.Trace, l *trace.Links) *eventScan {
	sc := &eventScan{streams: map[int32]*Stream{}, threads: map[int32]*Thread{}, work: map[int]*window{}, launchedWork: bitset.New(t.NumEvents())}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !sc.any || e.Start < sc.lo {
			sc.lo = e.Start
		}
		if !sc.any || e.End() > sc.hi {
			sc.hi = e.End()
		}
		sc.any = true
		if e.Kind == trace.KindTraceSpan {
			continue
		}
		tr := &t.Tracks[e.Track]
		switch tr.Kind {
		case trace.TrackDevice:
			s := sc.streams[e.Track]
			if s == nil {
				s = &Stream{ID: tr.Stream}
				sc.streams[e.Track] = s
			}
			switch e.Kind {
			case trace.KindKernel:
				s.Kernels++
			case trace.KindMemcpy:
				s.Memcpys++
			case trace.KindMemset:
				s.Memsets++
			default:
				s.Other++
			}
			if e.Kind.IsDeviceWork() {
				s.WorkNs += e.Dur
				w := sc.work[tr.Device]
				if w == nil {
					sc.work[tr.Device] = &window{e.Start, e.End()}
				} else {
					w.lo, w.hi = min(w.lo, e.Start), max(w.hi, e.End())
				}
				if r := l.Launch[i]; r >= 0 {
					sc.launchedWork.Add(int(r))
				}
			}
		case trace.TrackCPU:
			th := sc.threads[e.Track]
			if th == nil {
				th = &Thread{Name: strPtr(tr.Name)}
				th.Pid, th.PidText = ids(t, tr.Pid)
				th.Tid, th.TidText = ids(t, tr.Tid)
				sc.threads[e.Track] = th
			}
			th.Events++
			if e.Kind == trace.KindAnnotation || e.Kind == trace.KindCPUOp {
				if n, ok := trace.StepNumber(t.Str(e.Name)); ok {
					sc.steps = append(sc.steps, Step{N: n, StartNs: e.Start - t.TraceStart, DurNs: e.Dur})
				}
			}
		}
	}
	return sc
}

// devices is the devices with device ops, by id, each with its streams by
// id, its name from the trace's device list, else a vendor read from the
// trace, and its work window.
func devices(t *trace.Trace, l *trace.Links, sc *eventScan) []Device {
	devs := map[int]*Device{}
	for k, s := range sc.streams {
		d := t.Tracks[k].Device
		dv := devs[d]
		if dv == nil {
			dv = &Device{ID: d}
			for _, p := range t.Devices {
				if p.ID == d {
					dv.Name = strPtr(p.Name)
				}
			}
			if dv.Name == nil {
				if ven, from := deviceVendor(t, l, d); ven != "" {
					dv.Vendor, dv.VendorFrom = &ven, from
				}
			}
			if w := sc.work[d]; w != nil {
				a, b := w.lo-t.TraceStart, w.hi-t.TraceStart
				dv.WorkStartNs, dv.WorkEndNs = &a, &b
			}
			devs[d] = dv
		}
		dv.Streams = append(dv.Streams, *s)
	}
	var out []Device
	for _, d := range devs {
		sort.Slice(d.Streams, func(i, j int) bool { return d.Streams[i].ID < d.Streams[j].ID })
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// threadList is the CPU threads, most events first, ties by pid, then tid
// (as text).
func threadList(threads map[int32]*Thread) []Thread {
	var out []Thread
	for _, th := range threads {
		out = append(out, *th)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Events != b.Events {
			return a.Events > b.Events
		}
		if a.PidString() != b.PidString() {
			return a.PidString() < b.PidString()
		}
		return a.TidString() < b.TidString()
	})
	return out
}
