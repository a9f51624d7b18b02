package gaps

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// op is one device op on a lane: its interval, its event, and when its
// launch call started (noLaunch when the trace has none).
type op struct {
	s, e   int64
	i      int32
	call   int32 // the launch call, -1
	launch int64 // the launch call's start, noLaunch when call < 0
	// prevLaunch is the launch of the op before it on its stream
	// (noLaunch when none).
	prevLaunch int64
	track      int32      // its GPU track (the stream)
	kind       trace.Kind // kernel, memcpy or memset
}

const noLaunch = int64(-1 << 63)

// stream is the device ops of one GPU stream, sorted by start.
type stream struct {
	dev int
	id  int64
	ops []op
}

func byStart(a, b op) int {
	if c := cmp.Compare(a.s, b.s); c != 0 {
		return c
	}
	return cmp.Compare(a.i, b.i)
}

// collect gathers the selected device ops per stream and per device in one
// pass over the device tracks: each track is already in time order, so the
// only sorts are of streams spread over several tracks and of each
// device's merged list (n log n in the number of ops, whatever the number
// of streams).
func collect(t *trace.Trace, l *trace.Links, keep func(i int, e *trace.Event) bool) (streams []stream, devices []stream) {
	at := map[[2]int64]int{}
	unsorted := map[int]bool{}
	for k := range t.Tracks {
		tr := &t.Tracks[k]
		if tr.Kind != trace.TrackDevice {
			continue
		}
		key := [2]int64{int64(tr.Device), tr.Stream}
		si, seen := at[key]
		for _, i32 := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			i := int(i32)
			e := t.Ev(i)
			if !e.Kind.IsDeviceWork() || !keep(i, e) {
				continue
			}
			if !seen {
				si, seen = len(streams), true
				at[key] = si
				streams = append(streams, stream{dev: tr.Device, id: tr.Stream, ops: make([]op, 0, l.TrackStart[k+1]-l.TrackStart[k])})
			} else if n := len(streams[si].ops); n > 0 && streams[si].ops[n-1].s > e.Start {
				unsorted[si] = true
			}
			o := op{s: e.Start, e: e.End(), i: i32, call: l.Launch[i], launch: noLaunch, track: e.Track, kind: e.Kind}
			if o.call >= 0 {
				o.launch = t.Ev(int(o.call)).Start
			}
			streams[si].ops = append(streams[si].ops, o)
		}
	}
	for si := range unsorted {
		slices.SortFunc(streams[si].ops, byStart)
	}
	for si := range streams {
		ops := streams[si].ops
		ops[0].prevLaunch = noLaunch
		for k := 1; k < len(ops); k++ {
			ops[k].prevLaunch = ops[k-1].launch
		}
	}
	slices.SortFunc(streams, func(a, b stream) int {
		if a.dev != b.dev {
			return cmp.Compare(a.dev, b.dev)
		}
		return cmp.Compare(a.id, b.id)
	})
	for k := 0; k < len(streams); {
		j := k
		var lists [][]op
		for ; j < len(streams) && streams[j].dev == streams[k].dev; j++ {
			lists = append(lists, streams[j].ops)
		}
		devices = append(devices, stream{dev: streams[k].dev, id: -1, ops: mergeAll(lists)})
		k = j
	}
	return streams, devices
}

// mergeAll merges lists sorted by start, pairwise in rounds: n log k for
// k lists of n ops in all.
func mergeAll(lists [][]op) []op {
	if len(lists) == 1 {
		return lists[0] // shared with the stream: nobody changes either
	}
	for len(lists) > 1 {
		next := make([][]op, 0, (len(lists)+1)/2)
		for k := 0; k+1 < len(lists); k += 2 {
			next = append(next, merge2(lists[k], lists[k+1]))
		}
		if len(lists)%2 == 1 {
			next = append(next, lists[len(lists)-1])
		}
		lists = next
	}
	if len(lists) == 0 {
		return nil
	}
	return lists[0]
}

func merge2(a, b []op) []op {
	out := make([]op, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if byStart(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

func sortOps(ops []op) {
	if !slices.IsSortedFunc(ops, byStart) {
		slices.SortFunc(ops, byStart)
	}
}
