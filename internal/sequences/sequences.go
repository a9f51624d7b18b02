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
	// Each (root occurrence, stream) run is a group; the device ops are
	// collected once with their group and laid out group by group in one
	// array (a counting sort, each group in trace order), so a run costs
	// no allocation of its own: the trace's thousands of runs repeat a few
	// distinct sequences, and only a new one allocates its names and key.
	type run struct {
		root  int32
		track int32
	}
	group := map[run]int32{}
	var keys []run // first-seen order, so the result does not depend on map order
	var ops, groupOf []int32
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
		g, ok := group[k]
		if !ok {
			g = int32(len(keys))
			group[k] = g
			keys = append(keys, k)
		}
		ops = append(ops, int32(i))
		groupOf = append(groupOf, g)
	}
	start := make([]int32, len(keys)+1)
	for _, g := range groupOf {
		start[g+1]++
	}
	for g := range keys {
		start[g+1] += start[g]
	}
	next := slices.Clone(start[:len(keys)])
	flat := make([]int32, len(ops))
	for j, g := range groupOf {
		flat[next[g]] = ops[j]
		next[g]++
	}
	byKey := map[string]int{}
	var key []byte
	inTrack := t.CompareInTrack
	for g, k := range keys {
		ops := flat[start[g]:start[g+1]]
		if len(ops) < o.MinLen {
			r.Short++
			continue
		}
		slices.SortFunc(ops, inTrack)
		var dev int64
		op := t.NameOf(int(k.root))
		key = append(append(key[:0], op...), 0)
		key = append(strconv.AppendInt(key, int64(k.track), 10), 0)
		for j, d := range ops {
			if j > 0 {
				key = append(key, 0)
			}
			key = append(key, t.NameOf(int(d))...)
			dev += t.Ev(int(d)).Dur
		}
		s, ok := byKey[string(key)]
		if !ok {
			names := make([]string, len(ops))
			for j, d := range ops {
				names[j] = t.NameOf(int(d))
			}
			tr := &t.Tracks[k.track]
			s = len(r.Sequences)
			byKey[string(key)] = s
			r.Sequences = append(r.Sequences, Sequence{Op: op, Device: tr.Device, Stream: tr.Stream, Kernels: names})
		}
		q := &r.Sequences[s]
		q.Count++
		q.DeviceNs += dev
		q.HostNs += t.Ev(int(k.root)).Dur
		r.InSequencesNs += dev
	}
	roots := make([]int32, len(keys))
	for g, k := range keys {
		roots[g] = k.root
	}
	slices.Sort(roots)
	r.Roots = len(slices.Compact(roots))
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
