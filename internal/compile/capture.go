package compile

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Capture is what a trace records of CUDA/HIP graph capture: while a
// stream captures, the launches on it are recorded into a graph instead of
// running, so they have no device op in the trace.
type Capture struct {
	Windows []CaptureWindow
	// NoDeviceOp counts the kernel launch calls anywhere in the trace with
	// no device op in it (captured, or whose kernels fell outside the
	// profiled window); InfoCalls the cudaStreamGetCaptureInfo /
	// hipStreamGetCaptureInfo calls (NCCL and PyTorch ask whether a stream
	// is capturing, in eager code too).
	NoDeviceOp int
	InfoCalls  int
}

// CaptureWindow is one capture: from cudaStreamBeginCapture to
// cudaStreamEndCapture (hip* alike) on one thread, or, in a trace without
// those calls, an annotation whose name says it captures (capture_*).
type CaptureWindow struct {
	From      string // "cudaStreamBeginCapture" (the call's name) or the annotation's name
	StartNs   int64  // from the trace's origin (docs/output.md)
	EndNs     int64
	Step      int64 // the ProfilerStep#N holding its start; -1 outside the steps
	Launches  int   // kernel launch calls on its thread inside it
	Captured  int   // of those, the ones with no device op in the trace: recorded into the graph
	InfoCalls int   // cudaStreamGetCaptureInfo calls inside it
	Ops       []OpCount
}

// OpCount is an op and how many of the captured launches it made.
type OpCount struct {
	Name  string
	Count int
}

var captureNote = regexp.MustCompile(`(?i)^capture|[_ ]capture`)

func isBeginCapture(name string) bool {
	return strings.HasPrefix(name, "cudaStreamBeginCapture") || strings.HasPrefix(name, "hipStreamBeginCapture")
}

func isEndCapture(name string) bool {
	return strings.HasPrefix(name, "cudaStreamEndCapture") || strings.HasPrefix(name, "hipStreamEndCapture")
}

func isCaptureInfo(name string) bool {
	return strings.HasPrefix(name, "cudaStreamGetCaptureInfo") || strings.HasPrefix(name, "hipStreamGetCaptureInfo")
}

// isKernelLaunch is a launch call that enqueues a kernel (not a memcpy,
// memset or graph launch).
func isKernelLaunch(name string) bool {
	return (strings.Contains(name, "LaunchKernel") || strings.Contains(name, "LaunchCooperativeKernel")) && !trace.IsGraphLaunch(name)
}

// captures finds the capture windows of a trace and what was launched in
// them.
func captures(w *walk) Capture {
	t, l := w.t, w.l
	var c Capture
	type open struct {
		name  string
		start int64
	}
	begun := map[int32]open{} // per track
	type win struct {
		CaptureWindow
		track int32
	}
	var calls, notes []win
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		name := t.Str(e.Name)
		switch {
		case e.Kind.IsLaunch():
			switch {
			case isBeginCapture(name):
				begun[e.Track] = open{name, e.Start}
			case isEndCapture(name):
				if b, ok := begun[e.Track]; ok {
					calls = append(calls, win{CaptureWindow{From: b.name, StartNs: b.start, EndNs: e.End()}, e.Track})
					delete(begun, e.Track)
				}
			case isCaptureInfo(name):
				c.InfoCalls++
			case isKernelLaunch(name) && l.Launched[i] == 0:
				c.NoDeviceOp++
			}
		case e.Kind == trace.KindAnnotation && captureNote.MatchString(name):
			notes = append(notes, win{CaptureWindow{From: name, StartNs: e.Start, EndNs: e.End()}, e.Track})
		}
	}
	ws := calls
	if len(ws) == 0 {
		ws = notes
	}
	slices.SortFunc(ws, func(a, b win) int { return cmp.Compare(a.StartNs, b.StartNs) })
	for _, x := range ws {
		cw := x.CaptureWindow
		cw.Step = -1
		if st, ok := w.stepOf(cw.StartNs); ok {
			cw.Step = st
		}
		ops := map[string]int{}
		k := x.track
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			e := t.Ev(int(i))
			if e.Start < cw.StartNs || e.Start >= cw.EndNs || !e.Kind.IsLaunch() {
				continue
			}
			name := t.Str(e.Name)
			if isCaptureInfo(name) {
				cw.InfoCalls++
			}
			if !isKernelLaunch(name) {
				continue
			}
			cw.Launches++
			if l.Launched[i] > 0 {
				continue
			}
			cw.Captured++
			op := "(no op)"
			if o := l.Launch[i]; o >= 0 {
				op = t.NameOf(int(o))
			}
			ops[op]++
		}
		for n, k := range ops {
			cw.Ops = append(cw.Ops, OpCount{n, k})
		}
		slices.SortFunc(cw.Ops, func(a, b OpCount) int {
			if a.Count != b.Count {
				return cmp.Compare(b.Count, a.Count)
			}
			return cmp.Compare(a.Name, b.Name)
		})
		cw.StartNs, cw.EndNs = cw.StartNs-t.TraceStart, cw.EndNs-t.TraceStart
		c.Windows = append(c.Windows, cw)
	}
	return c
}
