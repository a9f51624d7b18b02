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

// mergeAll merges the streams' op lists, each sorted by start (the
// device's list; one stream's list is shared with it, nobody changes either).
func mergeAll(lists [][]op) []op { return mergeLists(lists, byStart) }

func sortOps(ops []op) {
	if !slices.IsSortedFunc(ops, byStart) {
		slices.SortFunc(ops, byStart)
	}
}
