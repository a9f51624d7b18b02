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
	// kindNs sums the durations of its kernels, memcpys and memsets.
	kindNs [3]int64
	// names is each op's name (for the latency by name), let go after.
	names []trace.StrID
}

// kindSlot is the place of a device op kind in stream.kindNs, -1.
func kindSlot(k trace.Kind) int {
	switch k {
	case trace.KindKernel:
		return 0
	case trace.KindMemcpy:
		return 1
	case trace.KindMemset:
		return 2
	}
	return -1
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

// collect gathers the device ops keep selects (nil: all) per stream and per
// device in two passes over the device tracks (count, then fill): each device's ops are
// one array, each of its streams a part of it, so nothing is copied. Each
// track is already in time order: the only sorts are of streams spread
// over several tracks and the merge of a device's streams (n log n in the
// number of ops, whatever the number of streams).
func collect(t *trace.Trace, l *trace.Links, keep func(i int, e *trace.Event) bool) (streams []stream, devices []stream) {
	at := map[[2]int64]int{}
	var count []int
	for k := range t.Tracks {
		tr := &t.Tracks[k]
		if tr.Kind != trace.TrackDevice {
			continue
		}
		n := 0
		for _, i32 := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			if e := t.Ev(int(i32)); e.Kind.IsDeviceWork() && (keep == nil || keep(int(i32), e)) {
				n++
			}
		}
		if n == 0 {
			continue
		}
		key := [2]int64{int64(tr.Device), tr.Stream}
		si, seen := at[key]
		if !seen {
			si = len(streams)
			at[key] = si
			streams = append(streams, stream{dev: tr.Device, id: tr.Stream})
			count = append(count, 0)
		}
		count[si] += n
	}
	// Streams by (device, stream); then one array per device.
	perm := make([]int, len(streams))
	for k := range perm {
		perm[k] = k
	}
	slices.SortFunc(perm, func(a, b int) int {
		if streams[a].dev != streams[b].dev {
			return cmp.Compare(streams[a].dev, streams[b].dev)
		}
		return cmp.Compare(streams[a].id, streams[b].id)
	})
	sorted := make([]stream, len(streams))
	sortedCount := make([]int, len(streams))
	for to, from := range perm {
		sorted[to], sortedCount[to] = streams[from], count[from]
	}
	streams = sorted
	for k := range streams {
		at[[2]int64{int64(streams[k].dev), streams[k].id}] = k
	}
	type group struct {
		from, to, n int
		flat        []op
	}
	var groups []group
	for k := 0; k < len(streams); {
		g := group{from: k}
		for k < len(streams) && streams[k].dev == streams[g.from].dev {
			g.n += sortedCount[k]
			k++
		}
		g.to = k
		flat := make([]op, g.n)
		names := make([]trace.StrID, g.n)
		g.flat = flat
		o := 0
		for x := g.from; x < g.to; x++ {
			streams[x].ops = flat[o : o : o+sortedCount[x]]
			streams[x].names = names[o : o+sortedCount[x] : o+sortedCount[x]]
			o += sortedCount[x]
		}
		groups = append(groups, g)
	}
	unsorted := map[int]bool{}
	for k := range t.Tracks {
		tr := &t.Tracks[k]
		if tr.Kind != trace.TrackDevice {
			continue
		}
		si, ok := at[[2]int64{int64(tr.Device), tr.Stream}]
		if !ok {
			continue
		}
		for _, i32 := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			i := int(i32)
			e := t.Ev(i)
			if !e.Kind.IsDeviceWork() || (keep != nil && !keep(i, e)) {
				continue
			}
			if n := len(streams[si].ops); n > 0 && streams[si].ops[n-1].s > e.Start {
				unsorted[si] = true
			}
			o := op{s: e.Start, e: e.End(), i: i32, call: l.Launch[i], launch: noLaunch}
			if o.call >= 0 {
				o.launch = t.Ev(int(o.call)).Start
			}
			st := &streams[si]
			st.ops = append(st.ops, o)
			st.names[len(st.ops)-1] = e.Name
			if k := kindSlot(e.Kind); k >= 0 {
				st.kindNs[k] += e.Dur
			}
		}
	}
	for si := range unsorted { // rare: a stream spread over several tracks
		s := &streams[si]
		slices.SortFunc(s.ops, byStart)
		for k := range s.ops {
			s.names[k] = t.Ev(int(s.ops[k].i)).Name
		}
	}
	for _, g := range groups {
		devices = append(devices, deviceSeq(g.flat, streams[g.from:g.to]))
	}
	return streams, devices
}

// deviceSeq is the device lane of its streams, which lie one after another
// in flat: one stream's list as it is; several streams ordered by start
// through 4-byte positions in flat.
func deviceSeq(flat []op, streams []stream) stream {
	d := stream{dev: streams[0].dev, id: -1}
	for _, s := range streams {
		for k := range d.kindNs {
			d.kindNs[k] += s.kindNs[k]
		}
	}
	if len(streams) == 1 {
		d.ops = streams[0].ops
		return d
	}
	lists := make([][]int32, 0, len(streams))
	off := 0
	for _, s := range streams {
		pos := make([]int32, len(s.ops))
		for i := range pos {
			pos[i] = int32(off + i)
		}
		off += len(s.ops)
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

// otherStreamsBusy is, per device, the busy union of its device work on
// streams other than stream (for --stream: was another stream busy during
// a gap of the selected one?).
func otherStreamsBusy(t *trace.Trace, l *trace.Links, stream int64) map[int]ivs {
	w := map[int][][2]int64{}
	for k := range t.Tracks {
		tr := &t.Tracks[k]
		if tr.Kind != trace.TrackDevice || tr.Stream == stream {
			continue
		}
		for _, i := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			if e := t.Ev(int(i)); e.Kind.IsDeviceWork() {
				w[tr.Device] = append(w[tr.Device], [2]int64{e.Start, e.End()})
			}
		}
	}
	out := make(map[int]ivs, len(w))
	for dev, x := range w {
		out[dev] = mergeIvs(x)
	}
	return out
}
