package gaps

import (
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// QueueLimit is the queue length counted as a full launch queue: HTA's
// get_time_spent_blocked_on_full_queue(max_queue_length=1024). Past it a
// launch call blocks until the GPU takes an op off the stream's queue.
const QueueLimit = 1024

// Queue is the launch queue of one stream, as HTA's queue-length counter
// defines it: +1 when the launch call of a device op starts, -1 when the
// op starts on the GPU. Only the stream's device ops whose launch call is
// in the trace count, each op of a graph launch too (+1 each at the
// cudaGraphLaunch; HTA's list of launch calls leaves graph launches out). The window runs from the first counted launch call
// to the last counted op start; all changes at one instant apply at once.
type Queue struct {
	Device int
	Stream int64
	// Ops counts the device ops counted (0: nothing measured: every op
	// of the stream was launched before the trace window opened).
	Ops            int
	StartNs, EndNs int64 // the window, offsets from the trace start
	MaxLen, MinLen int   // the most and fewest ops queued
	MedianLen      int   // time-weighted median over the window
	TimeAtMaxNs    int64 // time the queue held MaxLen ops
	Limit          int   // the length counted as full
	FullNs         int64 // time with at least Limit ops queued
	EarlyOps       int   // ops that started before their launch call did (the clocks disagree): the queue dips below 0
	MaxAtNs        int64 // when the queue first held MaxLen ops (offset)
}

// Full reports whether the queue ever held Limit ops or more.
func (q *Queue) Full() bool { return q.FullNs > 0 }

// QueuePoint is one step of a queue's series: from Ns on (trace clock),
// Len ops are queued.
type QueuePoint struct {
	Ns  int64
	Len int
}

// queueOf sweeps one stream's launch and start times. launch and start
// are one per op; start is sorted, launch need not be (it is sorted here,
// in place). origin is subtracted from the reported times; points, when
// not nil, receives the series (one point per distinct instant).
func queueOf(launch, start []int64, early int, limit int, origin int64, points *[]QueuePoint) Queue {
	q := Queue{Ops: len(start), Limit: limit, EarlyOps: early}
	if len(start) == 0 {
		return q
	}
	if !slices.IsSorted(launch) {
		slices.Sort(launch)
	}
	if !slices.IsSorted(start) {
		slices.Sort(start)
	}
	lo := min(launch[0], start[0])
	hi := max(launch[len(launch)-1], start[len(start)-1])
	q.StartNs, q.EndNs = lo-origin, hi-origin
	// time held per level: pos[l] for l >= 0, neg[-l-1] below 0
	var pos, neg []int64
	hold := func(level int, d int64) {
		if level >= 0 {
			for len(pos) <= level {
				pos = append(pos, 0)
			}
			pos[level] += d
		} else {
			for len(neg) < -level {
				neg = append(neg, 0)
			}
			neg[-level-1] += d
		}
	}
	level, prev := 0, lo
	i, j := 0, 0
	first, seen := true, false
	for i < len(launch) || j < len(start) {
		at := int64(0)
		switch {
		case i == len(launch):
			at = start[j]
		case j == len(start):
			at = launch[i]
		default:
			at = min(launch[i], start[j])
		}
		if !first {
			hold(level, at-prev)
			if level >= limit {
				q.FullNs += at - prev
			}
		}
		for i < len(launch) && launch[i] == at {
			level++
			i++
		}
		for j < len(start) && start[j] == at {
			level--
			j++
		}
		if level >= 0 && (!seen || level > q.MaxLen) {
			q.MaxLen, q.MaxAtNs, seen = level, at-origin, true
		}
		if first || level < q.MinLen {
			q.MinLen = min(level, 0)
		}
		first = false
		prev = at
		if points != nil {
			*points = append(*points, QueuePoint{at, level})
		}
	}
	if q.MaxLen >= 0 && q.MaxLen < len(pos) {
		q.TimeAtMaxNs = pos[q.MaxLen]
	}
	// the median: the fewest ops queued for at least half the window
	total := hi - lo
	var cum int64
	q.MedianLen = 0
	done := false
	for k := len(neg) - 1; k >= 0 && !done; k-- {
		cum += neg[k]
		if total > 0 && 2*cum >= total {
			q.MedianLen, done = -k-1, true
		}
	}
	for l := 0; l < len(pos) && !done; l++ {
		cum += pos[l]
		if total > 0 && 2*cum >= total {
			q.MedianLen, done = l, true
		}
	}
	return q
}

// streamQueue is the queue of one collected stream: its ops with a launch
// call in the trace. buf is scratch, grown as needed and handed back, for
// the next stream (one array for every stream: 1.7 MB a run on the 200 MB
// default trace was an array per stream).
func streamQueue(s *stream, limit int, origin int64, buf *[]int64) Queue {
	if cap(*buf) < 2*len(s.ops) {
		*buf = make([]int64, 2*len(s.ops))
	}
	launch := (*buf)[:0:len(s.ops)]
	start := (*buf)[len(s.ops):len(s.ops)]
	early := 0
	for k := range s.ops {
		x := &s.ops[k]
		if x.call < 0 {
			continue
		}
		launch = append(launch, x.launch)
		start = append(start, x.s)
		if x.s < x.launch {
			early++
		}
	}
	q := queueOf(launch, start, early, limit, origin, nil)
	q.Device, q.Stream = s.dev, s.id
	return q
}

// QueueTrack is the series of one stream's queue for a timeline: the
// track of the stream's first device op, and the points (trace clock).
type QueueTrack struct {
	Device   int
	Stream   int64
	Pid, Tid trace.ID
	Points   []QueuePoint
}

// QueueTracks is the launch queue of every stream of t with a counted op,
// as series (by device, then stream), for a counter track on a timeline.
func QueueTracks(t *trace.Trace) []QueueTrack {
	l := t.Links()
	streams, _ := collect(t, l, func(i int, e *trace.Event) bool { return l.Launch[i] >= 0 })
	out := make([]QueueTrack, 0, len(streams))
	for k := range streams {
		s := &streams[k]
		launch := make([]int64, len(s.ops))
		start := make([]int64, len(s.ops))
		for n, x := range s.ops {
			launch[n], start[n] = x.launch, x.s
		}
		tr := &t.Tracks[t.Ev(int(s.ops[0].i)).Track]
		qt := QueueTrack{Device: s.dev, Stream: s.id, Pid: tr.Pid, Tid: tr.Tid}
		queueOf(launch, start, 0, QueueLimit, 0, &qt.Points)
		out = append(out, qt)
	}
	return out
}
