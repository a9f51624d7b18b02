package gaps

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// op is one device op on a lane: its interval, its event, and when its
// launch call started (noLaunch when the trace has none); 32 bytes, its
// track and kind are its event's.
type op struct {
	s, e   int64
	i      int32
	call   int32 // the launch call, -1
	launch int64 // the launch call's start, noLaunch when call < 0
}

const noLaunch = int64(-1 << 63)

// stream is the device ops of one GPU stream, sorted by start, or of a
// whole device (id -1): then ops holds its streams' ops one stream after
// another and ref their order by start.
type stream struct {
	dev int
	id  int64
	seq
}

// seq is a list of ops in start order: ops itself, or ops[ref[0]],
// ops[ref[1]], ... (4 bytes an op instead of a copy of each).
type seq struct {
	ops []op
	ref []int32
}

func (q *seq) n() int {
	if q.ref != nil {
		return len(q.ref)
	}
	return len(q.ops)
}

func (q *seq) at(k int) *op {
	if q.ref != nil {
		return &q.ops[q.ref[k]]
	}
	return &q.ops[k]
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
				streams = append(streams, stream{dev: tr.Device, id: tr.Stream, seq: seq{ops: make([]op, 0, l.TrackStart[k+1]-l.TrackStart[k])}})
			} else if n := len(streams[si].ops); n > 0 && streams[si].ops[n-1].s > e.Start {
				unsorted[si] = true
			}
			o := op{s: e.Start, e: e.End(), i: i32, call: l.Launch[i], launch: noLaunch}
			if o.call >= 0 {
				o.launch = t.Ev(int(o.call)).Start
			}
			streams[si].ops = append(streams[si].ops, o)
		}
	}
	for si := range unsorted {
		slices.SortFunc(streams[si].ops, byStart)
	}
	slices.SortFunc(streams, func(a, b stream) int {
		if a.dev != b.dev {
			return cmp.Compare(a.dev, b.dev)
		}
		return cmp.Compare(a.id, b.id)
	})
	for k := 0; k < len(streams); {
		j := k
		for j < len(streams) && streams[j].dev == streams[k].dev {
			j++
		}
		devices = append(devices, deviceSeq(streams[k:j]))
		k = j
	}
	return streams, devices
}

// deviceSeq is the device lane of its streams: one stream's list as it is;
// several streams are moved into one array (each stream's list a part of
// it) and ordered by start through 4-byte positions.
func deviceSeq(streams []stream) stream {
	d := stream{dev: streams[0].dev, id: -1}
	if len(streams) == 1 {
		d.ops = streams[0].ops
		return d
	}
	n := 0
	for _, s := range streams {
		n += len(s.ops)
	}
	flat := make([]op, 0, n)
	lists := make([][]int32, 0, len(streams))
	for k := range streams {
		off := len(flat)
		flat = append(flat, streams[k].ops...)
		streams[k].ops = flat[off:len(flat):len(flat)]
		pos := make([]int32, len(flat)-off)
		for i := range pos {
			pos[i] = int32(off + i)
		}
		lists = append(lists, pos)
	}
	d.ops = flat
	d.ref = mergeLists(lists, func(a, b int32) int { return byStart(flat[a], flat[b]) })
	if d.ref == nil {
		d.ref = []int32{}
	}
	return d
}

func sortOps(ops []op) {
	if !slices.IsSortedFunc(ops, byStart) {
		slices.SortFunc(ops, byStart)
	}
}
