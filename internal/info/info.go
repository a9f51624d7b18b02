// Package info summarises a trace: what a user checks first.
package info

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/tracetab/tracetab/internal/bitset"
	"github.com/tracetab/tracetab/internal/compile"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// Schema is the version of the JSON form of Info.
// 2: times are integer ns (*_ns) measured from the origin; pid/tid are
// numbers; launch calls count only calls that enqueue device work; era
// meaning, origin, device and step windows added; rank, world_size and
// backend are null when absent.
const Schema = "tracetab.info/2"

// Info is the summary of one trace. Every time is integer nanoseconds;
// every offset (*_start_ns, *_end_ns) is from the origin (see Origin).
type Info struct {
	Schema       string            `json:"schema"`
	File         string            `json:"file"`
	SizeBytes    int64             `json:"size_bytes"`
	Container    string            `json:"container"`
	Era          string            `json:"era"`
	EraMeaning   string            `json:"era_meaning"`
	Torch        string            `json:"torch_hint"`
	EraNotes     string            `json:"era_notes"`
	TorchAssumed string            `json:"torch_assumed"`
	TorchWhy     string            `json:"torch_assumed_why"`
	Meta         map[string]string `json:"metadata"`
	Rank         *int64            `json:"rank"`
	WorldSize    *int64            `json:"world_size"`
	Backend      *string           `json:"backend"`

	// Origin is what offsets are measured from: "trace_span" (the start of
	// the profiler's own "PyTorch Profiler" Trace event, torch's
	// trace_start) or "first_event" (the earliest event start, when the
	// trace has no Trace event).
	Origin   string `json:"origin"`
	OriginNs int64  `json:"origin_ts_ns"` // the origin on the trace's clock (ts as written, in ns)
	// The span covers every complete event, the Trace event and the GPU
	// lanes included. SpanStartNs is negative when an event starts before
	// the origin.
	SpanStartNs int64 `json:"span_start_ns"`
	SpanEndNs   int64 `json:"span_end_ns"`
	SpanNs      int64 `json:"span_ns"`

	Events     int        `json:"events"`
	Categories []CatCount `json:"categories"`
	Flows      int        `json:"flows"`
	Memory     int        `json:"memory_events"`
	Instants   int        `json:"instant_events"`
	Counters   int        `json:"counter_events"`
	Devices    []Device   `json:"devices"`
	Threads    []Thread   `json:"threads"`
	Steps      []Step     `json:"steps"`

	DeviceOps       int `json:"device_ops"`
	Linked          int `json:"device_ops_linked"`
	Unlinked        int `json:"device_ops_unlinked"`
	RuntimeCalls    int `json:"runtime_calls"`         // every runtime and driver call
	LaunchCalls     int `json:"launch_calls"`          // those that enqueue device work
	LaunchCallsWork int `json:"launch_calls_with_ops"` // launch calls with a device op in the trace
	LaunchesInOp    int `json:"launch_calls_in_an_op"`
	GraphLaunch     int `json:"graph_launches"`
	// MangledNames counts the distinct event names that are Itanium C++
	// mangled (_Z...); text output shows them demangled.
	MangledNames int           `json:"mangled_names"`
	Compile      compile.Brief `json:"compile"`
	Truncated    bool          `json:"truncated"`
	Warnings     []string      `json:"warnings"`
}

// CatCount is the number of complete events of one category.
type CatCount struct {
	Cat    string `json:"cat"`
	Events int    `json:"events"`
}

// Device is one GPU with its streams. WorkStartNs and WorkEndNs bound its
// kernels, memcpys and memsets (null when it has none).
type Device struct {
	ID   int     `json:"device"`
	Name *string `json:"name"`
	// Vendor is read from what ran on the device when the trace does not
	// name it: its kernels' and launch calls' names (VendorFrom says which).
	Vendor      *string  `json:"vendor"`
	VendorFrom  []string `json:"vendor_from"`
	WorkStartNs *int64   `json:"work_start_ns"`
	WorkEndNs   *int64   `json:"work_end_ns"`
	Streams     []Stream `json:"streams"`
}

// Stream is one GPU stream. WorkNs sums the durations of its kernels,
// memcpys and memsets (a sum, not a union).
type Stream struct {
	ID      int64 `json:"stream"`
	Kernels int   `json:"kernels"`
	Memcpys int   `json:"memcpys"`
	Memsets int   `json:"memsets"`
	Other   int   `json:"other"`
	WorkNs  int64 `json:"work_ns"`
}

// Thread is one CPU lane. Pid and Tid are null when the trace wrote them
// as text that is not a number; PidText and TidText then hold that text.
type Thread struct {
	Pid     *int64  `json:"pid"`
	Tid     *int64  `json:"tid"`
	PidText *string `json:"pid_text"`
	TidText *string `json:"tid_text"`
	Name    *string `json:"name"`
	Events  int     `json:"events"`
}

// PidString and TidString are the ids as text, whichever form they had.
func (th Thread) PidString() string { return idText(th.Pid, th.PidText) }

// TidString: see PidString.
func (th Thread) TidString() string { return idText(th.Tid, th.TidText) }

func idText(n *int64, s *string) string {
	if n != nil {
		return strconv.FormatInt(*n, 10)
	}
	if s != nil {
		return *s
	}
	return ""
}

// Step is one ProfilerStep#N annotation.
type Step struct {
	N       int64 `json:"step"`
	StartNs int64 `json:"start_ns"`
	DurNs   int64 `json:"dur_ns"`
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func ids(t *trace.Trace, id trace.ID) (*int64, *string) {
	if id.IsStr {
		s := t.Str(id.Str)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return &n, nil
		}
		return nil, &s
	}
	n := id.Int
	return &n, nil
}

// Summarize builds the Info of t.
func Summarize(t *trace.Trace) *Info {
	in := header(t)
	in.Categories = nonNil(categories(t))
	l := t.Links()
	sc := scanEvents(t, l)
	if sc.any {
		in.SpanStartNs, in.SpanEndNs = min(sc.lo, t.TraceStart)-t.TraceStart, sc.hi-t.TraceStart
		in.SpanNs = in.SpanEndNs - in.SpanStartNs
	}
	in.Steps = nonNil(sc.steps)
	sort.Slice(in.Steps, func(i, j int) bool { return in.Steps[i].N < in.Steps[j].N })
	in.Devices = nonNil(devices(t, l, sc))
	in.Threads = nonNil(threadList(sc.threads))
	in.DeviceOps = l.DeviceOps
	in.Linked = l.LinkedDeviceOps
	in.Unlinked = l.DeviceOps - l.LinkedDeviceOps
	countLaunchCalls(in, t, l, sc.launchedWork)
	in.Compile = compile.BriefOf(t)
	in.MangledNames = countMangled(t)
	in.Warnings = nonNil(warnings(t, l, in.Threads))
	return in
}

// nonNil is s, or an empty list for nil (JSON writes [], not null).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// header is the Info of what the trace says of itself.
func header(t *trace.Trace) *Info {
	era := t.Era()
	in := &Info{
		Schema: Schema, File: t.File, SizeBytes: t.BytesRead, Container: t.Container,
		Era: era.Tag, EraMeaning: EraMeaning(era.Tag), Torch: era.Torch, EraNotes: era.Notes, Meta: t.Meta,
		TorchAssumed: fmt.Sprintf("%d.%d", era.Newest[0], era.Newest[1]),
		TorchWhy:     "the trace was written by " + era.Torch + " (its " + era.Tag + " form); table rebuilds the events by the rules of the newest of those and prints with them unless --torch says otherwise",
		Events:       t.NumEvents(), Memory: t.MemRecords, Instants: t.Instants, Counters: t.Counters,
		Flows: len(t.Flows) + t.LaunchFlows, Truncated: t.Truncated,
		Origin: "first_event", OriginNs: t.TraceStart,
	}
	if in.Meta == nil {
		in.Meta = map[string]string{}
	}
	if t.HasTraceSpan {
		in.Origin = "trace_span"
	}
	if t.Dist.Present {
		in.Backend = strPtr(t.Dist.Backend)
		if t.Dist.Rank >= 0 {
			r := t.Dist.Rank
			in.Rank = &r
		}
		if t.Dist.WorldSize >= 0 {
			w := t.Dist.WorldSize
			in.WorldSize = &w
		}
	}
	return in
}

// categories is the events per category, most first, ties by name.
func categories(t *trace.Trace) []CatCount {
	var out []CatCount
	for c, n := range t.CatCounts {
		out = append(out, CatCount{c, n})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Events != b.Events {
			return a.Events > b.Events
		}
		return a.Cat < b.Cat
	})
	return out
}

// countLaunchCalls counts the runtime and driver calls, and of those the
// launch calls: the calls that launched device work in the trace or are a
// launch API (a launch whose work is missing still counts); of the launch
// calls, those with work, those inside an op, and the graph launches that
// launched more than one device op.
func countLaunchCalls(in *Info, t *trace.Trace, l *trace.Links, launchedWork bitset.Set) {
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsLaunch() {
			continue
		}
		in.RuntimeCalls++
		work := launchedWork.Has(i)
		if !work && !trace.IsLaunchAPI(t.NameOf(i)) {
			continue
		}
		in.LaunchCalls++
		if work {
			in.LaunchCallsWork++
		}
		if l.Launch[i] >= 0 {
			in.LaunchesInOp++
		}
		if l.Launched[i] > 1 && trace.IsGraphLaunch(t.NameOf(i)) {
			in.GraphLaunch++
		}
	}
}

// warnings is what the reader should know: launch calls that reuse a
// correlation id, then the parser's warnings (a thread rename only when it
// renames a listed thread), with their counts.
func warnings(t *trace.Trace, l *trace.Links, threads []Thread) []string {
	var out []string
	if l.DuplicateCorrIDs > 0 {
		out = append(out, units.Plural(l.DuplicateCorrIDs, "launch call reuses", "launch calls reuse")+" a correlation id seen before; their device ops are linked to the first")
	}
	for _, w := range t.Warnings {
		if IsThreadRename(w) && !renamesListedThread(w, threads) {
			continue
		}
		msg := w.Msg
		if w.Count > 1 {
			msg += " (" + strconv.Itoa(w.Count) + " times)"
		}
		out = append(out, msg)
	}
	return out
}

// countMangled counts the distinct names of events that demangle.
func countMangled(t *trace.Trace) int {
	used := make([]bool, len(t.Strings))
	for _, c := range t.Events.Chunks() {
		for k := range c {
			used[c[k].Name] = true
		}
	}
	n := 0
	for id, s := range t.Strings {
		if used[id] && names.IsMangled(s) {
			n++
		}
	}
	return n
}
