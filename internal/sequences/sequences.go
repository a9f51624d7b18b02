package sequences

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Options say which roots are used and how the sequences are kept.
type Options struct {
	// MinLen is the fewest device ops a sequence has to have (HTA's
	// min_pattern_len); values below 1 count as 1.
	MinLen int
	// Op, when set, makes the roots the CPU ops, annotations and Python
	// frames whose name contains Op, at the shallowest depth any of them
	// has (HTA's operator_name); "" makes them the top-level cpu_ops.
	Op string
	// Sort orders the sequences.
	Sort Key
}

// Sequence is one distinct sequence: one root name, one stream, one list of
// device op names, with every occurrence of it summed.
type Sequence struct {
	Op       string   // the root's name
	Device   int      // the GPU of the stream
	Stream   int64    // the stream the device ops ran on
	Kernels  []string // the device ops' full names, in time order
	Count    int64    // occurrences: root occurrences that launched it on this stream
	DeviceNs int64    // the durations of all its device ops, over every occurrence
	HostNs   int64    // the durations of the root occurrences (HTA's CPU op duration)
}

// MeanNs is the device time of one occurrence, on average (integer ns,
// rounded down).
func (s *Sequence) MeanNs() int64 {
	if s.Count == 0 {
		return 0
	}
	return s.DeviceNs / s.Count
}

// Result is every sequence found, sorted, with what the search saw.
type Result struct {
	Sequences []Sequence
	Options   Options
	// DeviceOps counts the kernels, memcpys and memsets of the trace, and
	// DeviceNs their durations.
	DeviceOps int
	DeviceNs  int64
	// Unlinked counts the device ops whose launch call is not in the trace;
	// NoRoot those whose launch call has no root above it.
	Unlinked, NoRoot int
	// Roots counts the root occurrences that launched device work;
	// Short the (root occurrence, stream) runs shorter than MinLen.
	Roots, Short int
	// InSequencesNs is the device time of the device ops in Sequences.
	InSequencesNs int64
	// Candidates counts, with Op set, the events whose name contains it,
	// and RootDepth their shallowest depth (0: a thread's outermost).
	Candidates, RootDepth int
}

// Build finds the sequences of t.
func Build(t *trace.Trace, o Options) *Result {
	o.MinLen = max(o.MinLen, 1)
	r := &Result{Options: o}
	l := t.Links()
	isRoot := rootSet(t, l, o, r)
	type run struct {
		root  int32
		track int32
	}
	runs := map[run][]int32{}
	var order []run // first-seen order, so the result does not depend on map order
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		r.DeviceOps++
		r.DeviceNs += e.Dur
		call := l.Launch[i]
		if call < 0 {
			r.Unlinked++
			continue
		}
		root := rootOf(t, l, call, isRoot)
		if root < 0 {
			r.NoRoot++
			continue
		}
		k := run{root, e.Track}
		if _, ok := runs[k]; !ok {
			order = append(order, k)
		}
		runs[k] = append(runs[k], int32(i))
	}
	roots := map[int32]bool{}
	byKey := map[string]int{}
	for _, k := range order {
		ops := runs[k]
		roots[k.root] = true
		if len(ops) < o.MinLen {
			r.Short++
			continue
		}
		slices.SortFunc(ops, t.CompareInTrack)
		names := make([]string, len(ops))
		var dev int64
		for j, d := range ops {
			names[j] = t.NameOf(int(d))
			dev += t.Ev(int(d)).Dur
		}
		tr := &t.Tracks[k.track]
		op := t.NameOf(int(k.root))
		key := op + "\x00" + strconv.Itoa(int(k.track)) + "\x00" + strings.Join(names, "\x00")
		s, ok := byKey[key]
		if !ok {
			s = len(r.Sequences)
			byKey[key] = s
			r.Sequences = append(r.Sequences, Sequence{Op: op, Device: tr.Device, Stream: tr.Stream, Kernels: names})
		}
		q := &r.Sequences[s]
		q.Count++
		q.DeviceNs += dev
		q.HostNs += t.Ev(int(k.root)).Dur
		r.InSequencesNs += dev
	}
	r.Roots = len(roots)
	sortSequences(r.Sequences, o.Sort)
	return r
}

// rootOf returns the root above launch call c: the outermost cpu_op when
// isRoot is nil, else the first ancestor isRoot holds; -1 when none.
func rootOf(t *trace.Trace, l *trace.Links, c int32, isRoot []bool) int32 {
	up := l.Parent[c]
	if op := l.Launch[c]; op >= 0 && t.Ev(int(op)).Track != t.Ev(int(c)).Track {
		up = op // the op the call names by External id, on another thread
	}
	root := int32(-1)
	for a := up; a >= 0; a = l.Parent[a] {
		if isRoot == nil {
			if t.Ev(int(a)).Kind == trace.KindCPUOp {
				root = a
			}
			continue
		}
		if isRoot[a] {
			return a
		}
	}
	return root
}

// rootSet marks, with o.Op set, the events whose name contains it at the
// shallowest depth any of them has; nil without o.Op.
func rootSet(t *trace.Trace, l *trace.Links, o Options, r *Result) []bool {
	if o.Op == "" {
		return nil
	}
	n := t.NumEvents()
	depth := make([]int32, n)
	var cands []int32
	for _, k := range byTrackOrder(t, l) {
		p := l.Parent[k]
		if p >= 0 {
			depth[k] = depth[p] + 1
		}
		e := t.Ev(int(k))
		if (e.Kind == trace.KindCPUOp || e.Kind == trace.KindAnnotation || e.Kind == trace.KindPython) && strings.Contains(t.Str(e.Name), o.Op) {
			cands = append(cands, k)
		}
	}
	r.Candidates = len(cands)
	if len(cands) == 0 {
		return make([]bool, n)
	}
	minDepth := slices.MinFunc(cands, func(a, b int32) int { return cmp.Compare(depth[a], depth[b]) })
	r.RootDepth = int(depth[minDepth])
	is := make([]bool, n)
	for _, c := range cands {
		if depth[c] == depth[minDepth] {
			is[c] = true
		}
	}
	return is
}

// byTrackOrder lists the events of the CPU tracks, each track in time
// order, so a parent comes before its children.
func byTrackOrder(t *trace.Trace, l *trace.Links) []int32 {
	var out []int32
	for k := range t.Tracks {
		if t.Tracks[k].Kind == trace.TrackDevice {
			continue
		}
		out = append(out, l.Order[l.TrackStart[k]:l.TrackStart[k+1]]...)
	}
	return out
}
