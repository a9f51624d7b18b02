package memory

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/tracetab/tracetab/internal/trace"
)

// locator finds the events around a record on its own thread: the
// innermost cpu_op, user_annotation (other than ProfilerStep#N) and
// python_function whose [start, end) holds the record's time.
//
// A record's thread is its (pid, tid), compared as text: 2021 traces write
// the tid of ops as a string ("25738") and the tid of [memory] records as a
// number (25738), which the reader keeps as two tracks.
type locator struct {
	t     *trace.Trace
	l     *trace.Links
	step  []int8          // per name: 0 unknown, 1 a ProfilerStep#N, 2 not
	alias map[int32]int32 // a record's track -> the track holding its thread's events
	byKey map[string]int32
	// cursor and cursorTs remember, per track, where the last search
	// ended: records come in time order, so the next search is a few
	// steps on from there instead of a binary search.
	cursor   []int32
	cursorTs []int64
	// found is the answer for the last search of each track (-2: none
	// yet): a later search from the same candidate starts its walk up the
	// parents there, so a deep chain of ended events is walked once, not
	// once per record.
	found []int32
	// opInner and opName cache opOf per track: the last innermost event
	// and the cpu_op above it (-1: none), so records deep inside one
	// stack of frames walk it once.
	opInner, opFound []int32
}

func newLocator(t *trace.Trace) *locator {
	return &locator{t: t, l: t.Links(), step: make([]int8, len(t.Strings)), alias: map[int32]int32{},
		cursor: make([]int32, len(t.Tracks)), cursorTs: make([]int64, len(t.Tracks)), found: fill32(len(t.Tracks), -2),
		opInner: fill32(len(t.Tracks), -2), opFound: fill32(len(t.Tracks), -1)}
}

// idText is a pid or tid as text, the same for 25738 and "25738".
func idText(t *trace.Trace, id trace.ID) string {
	if id.IsStr {
		return t.Str(id.Str)
	}
	return strconv.FormatInt(id.Int, 10)
}

// thread maps a record's track to the track with its thread's events:
// itself when it has events, else the track with events whose pid and tid
// read the same as text (-1 when none).
func (x *locator) thread(k int32) int32 {
	if k < 0 || int(k)+1 >= len(x.l.TrackStart) {
		return -1
	}
	if x.l.TrackStart[k+1] > x.l.TrackStart[k] {
		return k
	}
	if a, ok := x.alias[k]; ok {
		return a
	}
	if x.byKey == nil {
		x.byKey = map[string]int32{}
		for i, tr := range x.t.Tracks {
			if tr.Kind != trace.TrackDevice && x.l.TrackStart[i+1] > x.l.TrackStart[i] {
				key := idText(x.t, tr.Pid) + "\x00" + idText(x.t, tr.Tid)
				if _, dup := x.byKey[key]; !dup {
					x.byKey[key] = int32(i)
				}
			}
		}
	}
	tr := x.t.Tracks[k]
	a, ok := x.byKey[idText(x.t, tr.Pid)+"\x00"+idText(x.t, tr.Tid)]
	if !ok {
		a = -1
	}
	x.alias[k] = a
	return a
}

// innermost is the innermost event of track k holding ts, or -1.
//
// The track's events are sorted by start (longer first); the last one
// starting at or before ts is the innermost holder or one of its
// descendants that ended before ts, so the holder is on its parent chain.
func (x *locator) innermost(k int32, ts int64) int32 {
	if k = x.thread(k); k < 0 {
		return -1
	}
	s := x.l.Order[x.l.TrackStart[k]:x.l.TrackStart[k+1]]
	// j: the number of events starting at or before ts
	j := int(x.cursor[k])
	from := int32(-2) // where the walk up starts: the candidate, unless known
	if j > 0 && ts >= x.cursorTs[k] {
		j0 := j
		for n := 0; j < len(s) && x.t.Ev(int(s[j])).Start <= ts; n++ {
			j++
			if n == 16 { // far on: search the rest
				j += searchStarts(x.t, s[j:], ts)
				break
			}
		}
		if j == j0 {
			from = x.found[k] // same candidate, later time: the holder is this one or above it
		}
	} else {
		j = searchStarts(x.t, s, ts)
	}
	x.cursor[k], x.cursorTs[k] = int32(j), ts
	if j == 0 {
		x.found[k] = -1
		return -1
	}
	e := s[j-1]
	if from != -2 {
		e = from
	}
	for ; e >= 0; e = x.l.Parent[e] {
		ev := x.t.Ev(int(e))
		if ev.Start <= ts && ts < ev.End() {
			break
		}
	}
	x.found[k] = e
	return e
}

func fill32(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// opOf is the innermost cpu_op's name id holding ts on track k; ok false
// when none does.
func (x *locator) opOf(k int32, ts int64) (trace.StrID, bool) {
	in := x.innermost(k, ts)
	if k = x.thread(k); k < 0 || in < 0 {
		return 0, false
	}
	op := int32(-1)
	if in == x.opInner[k] {
		op = x.opFound[k]
	} else {
		for e := in; e >= 0; e = x.l.Parent[e] {
			if x.t.Ev(int(e)).Kind == trace.KindCPUOp {
				op = e
				break
			}
		}
		x.opInner[k], x.opFound[k] = in, op
	}
	if op < 0 {
		return 0, false
	}
	return x.t.Ev(int(op)).Name, true
}

type frameNames struct{ op, annotation, python string }

// frames names the innermost op (NoOp when none), annotation and Python
// frame holding ts on track k.
func (x *locator) frames(k int32, ts int64) frameNames {
	f := frameNames{op: NoOp}
	var haveOp, haveAnn, havePy bool
	for e := x.innermost(k, ts); e >= 0; e = x.l.Parent[e] {
		ev := x.t.Ev(int(e))
		switch {
		case ev.Kind == trace.KindCPUOp && !haveOp:
			f.op, haveOp = x.t.Str(ev.Name), true
		case ev.Kind == trace.KindAnnotation && !haveAnn && !x.isStep(ev.Name):
			f.annotation, haveAnn = x.t.Str(ev.Name), true
		case ev.Kind == trace.KindPython && !havePy:
			f.python, havePy = x.t.Str(ev.Name), true
		}
	}
	return f
}

func (x *locator) isStep(s trace.StrID) bool {
	if x.step[s] == 0 {
		x.step[s] = 2
		if _, ok := trace.StepNumber(x.t.Str(s)); ok {
			x.step[s] = 1
		}
	}
	return x.step[s] == 1
}

// opTable interns allocating ops of one device: index 0 is NoOp.
type opTable struct {
	t     *trace.Trace
	index map[trace.StrID]int32
	names []string
}

func newOpTable(t *trace.Trace) *opTable {
	return &opTable{t: t, index: map[trace.StrID]int32{}, names: []string{NoOp}}
}

func (o *opTable) of(s trace.StrID, ok bool) int32 {
	if !ok {
		return 0
	}
	if i, ok := o.index[s]; ok {
		return i
	}
	i := int32(len(o.names))
	o.index[s] = i
	o.names = append(o.names, o.t.Str(s))
	return i
}

// byBytesThenName orders groups by bytes (descending), then name.
func byBytesThenName(ab, bb int64, an, bn string) int {
	if c := cmp.Compare(bb, ab); c != 0 {
		return c
	}
	return cmp.Compare(an, bn)
}

// searchStarts is the number of events of s (sorted by start) that start
// at or before ts.
func searchStarts(t *trace.Trace, s []int32, ts int64) int {
	j, _ := slices.BinarySearchFunc(s, ts, func(i int32, ts int64) int {
		if t.Ev(int(i)).Start <= ts {
			return -1
		}
		return 1
	})
	return j
}
