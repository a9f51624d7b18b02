package modules

import "github.com/tracetab/tracetab/internal/trace"

// Values are a node's numbers over some of its frames, in nanoseconds
// (Occurrences counts the frames).
type Values struct {
	Occurrences int64
	HostTotal   int64
	HostSelf    int64
	DeviceTotal int64
	DeviceSelf  int64
}

// Split is a tree whose node numbers are also split by bucket (a profiler
// step, or a group of steps): a frame goes to the bucket of its start,
// with everything it holds (its host self time is its duration less its
// child frames'; its device time is the device ops launched inside it,
// its device self time those launched outside its child frames). Summed
// over the buckets and Outside, a node's Values are its Node numbers.
type Split struct {
	*Tree
	// Buckets[n][b] is node n's numbers over its frames in bucket b.
	Buckets [][]Values
	// Outside[n] is node n's numbers over its frames in no bucket.
	Outside []Values
}

// BuildSplit is Build with the numbers split into nb buckets: bucket
// maps a frame's start to its bucket, 0 to nb-1, or -1 for none.
func BuildSplit(tr *trace.Trace, nb int, bucket func(start int64) int) *Split {
	rec := &recorder{bucket: bucket}
	t := build(tr, rec)
	s := &Split{Tree: t, Buckets: make([][]Values, len(t.Nodes)), Outside: make([]Values, len(t.Nodes))}
	for n := range s.Buckets {
		s.Buckets[n] = make([]Values, nb)
	}
	for _, f := range rec.frames {
		v := &s.Outside[f.node]
		if f.bucket >= 0 {
			v = &s.Buckets[f.node][f.bucket]
		}
		v.Occurrences++
		v.HostTotal += f.host
		v.HostSelf += f.hostSelf
		v.DeviceTotal += f.device
		v.DeviceSelf += f.deviceSelf
	}
	return s
}

// frameRec is one module frame's own numbers.
type frameRec struct {
	node, bucket                       int
	parent                             int32 // the enclosing module frame, -1 at the top
	host, hostSelf, device, deviceSelf int64
}

// recorder keeps the frames of build's walk when bucket is set.
type recorder struct {
	bucket func(start int64) int
	frames []frameRec
}

func (r *recorder) on() bool { return r.bucket != nil }

// frame records a frame of node n inside frame parent (-1: none).
func (r *recorder) frame(n int, parent int32, start, dur int64) int32 {
	r.frames = append(r.frames, frameRec{node: n, bucket: r.bucket(start), parent: parent, host: dur, hostSelf: dur})
	if parent >= 0 {
		r.frames[parent].hostSelf -= dur
	}
	return int32(len(r.frames) - 1)
}

// device adds a device op launched with f the innermost open frame: its
// own device time, and every enclosing frame's.
func (r *recorder) device(f int32, dur int64) {
	r.frames[f].deviceSelf += dur
	for ; f >= 0; f = r.frames[f].parent {
		r.frames[f].device += dur
	}
}

// renumber moves the frames' nodes to the tree order (newIdx[old] = new).
func (r *recorder) renumber(newIdx []int) {
	for k := range r.frames {
		r.frames[k].node = newIdx[r.frames[k].node]
	}
}
