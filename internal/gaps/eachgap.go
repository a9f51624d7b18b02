package gaps

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// lazyGaps are the listed gaps of a report made with Options.LazyGaps:
// the compact records, sorted, resolved into Gaps one at a time by
// EachGap instead of all at once into Report.Gaps.
type lazyGaps struct {
	t     *trace.Trace
	steps []trace.Step
	recs  []gapRec   // sorted (a Top-bounded list)
	all   *gapChunks // or, with AllGaps, every gap and its order
}

// gapChunks holds every listed gap of a report made with AllGaps and
// LazyGaps, encoded (gapcodec.go: some 60 bytes a gap, not a 240-byte
// gapRec), in chunks of a fixed size, and sorts them by a compact key:
// one slice of them all grew by copying, and each larger array it left
// behind was fresh memory (200 MB trace, 115k gaps: the process mapped
// 60 MiB more than the heap held).
type gapChunks struct {
	chunks [][]byte
	at0    []uint64 // where each record starts: chunk<<gapChunkBits | offset
	base   int64    // the first record's start
	n      int
	order  []gapKey // after sort
}

// gapChunk is the bytes of one chunk; a record never spans two, so an
// offset in at0 is below gapChunk.
const (
	gapChunkBits = 20
	gapChunk     = 1 << gapChunkBits
)

// gapKey is what gapOrder compares of a record, and its index.
type gapKey struct {
	len, s int64
	dev    int32
	k      int32
}

func (c *gapChunks) add(g gapRec) {
	if c.n == 0 {
		c.base = g.s
	}
	var last *[]byte
	if len(c.chunks) > 0 {
		last = &c.chunks[len(c.chunks)-1]
	}
	if last == nil || len(*last)+maxRecBytes > gapChunk {
		// the first chunk starts small and grows by append (a few hundred
		// gaps of a small trace had a MiB zeroed for them: 0.27 s of CPU
		// over an export of 1,024 small ranks)
		size := gapChunk
		if last == nil {
			size = 4 << 10
		}
		c.chunks = append(c.chunks, make([]byte, 0, size))
		last = &c.chunks[len(c.chunks)-1]
	}
	c.at0 = append(c.at0, uint64(len(c.chunks)-1)<<gapChunkBits|uint64(len(*last)))
	*last = appendRec(*last, &g, c.base)
	c.n++
}

// bytes is the encoding of record k.
func (c *gapChunks) bytes(k int32) []byte {
	at := c.at0[k]
	return c.chunks[at>>gapChunkBits][at&(gapChunk-1):]
}

// at decodes record k.
func (c *gapChunks) at(k int32) gapRec { return readRec(c.bytes(k), c.base) }

// sort orders the records as gapOrder does: the longest first, ties by
// start, then by device.
func (c *gapChunks) sort() {
	c.order = make([]gapKey, 0, c.n)
	for k := range int32(c.n) {
		dev, s, e := keyOfRec(c.bytes(k), c.base)
		c.order = append(c.order, gapKey{len: e - s, s: s, dev: int32(dev), k: k})
	}
	slices.SortFunc(c.order, func(x, y gapKey) int {
		if x.len != y.len {
			return cmp.Compare(y.len, x.len)
		}
		if x.s != y.s {
			return cmp.Compare(x.s, y.s)
		}
		return cmp.Compare(x.dev, y.dev)
	})
}

// keep adds a gap to the list: to the chunks with AllGaps and LazyGaps,
// to the bounded list otherwise.
func (gl *gapList) keep(g gapRec) {
	if gl.all != nil {
		gl.all.add(g)
		return
	}
	gl.listed.add(g)
}

// listGaps fills r's list of gaps from gl's (sorted), or keeps them for
// EachGap with Options.LazyGaps.
func listGaps(r *Report, t *trace.Trace, o Options, gl *gapList, steps []trace.Step) {
	if gl.all != nil {
		gl.all.sort()
		r.lazy = &lazyGaps{t: t, steps: steps, all: gl.all}
		return
	}
	recs := gl.listed.result()
	if o.LazyGaps {
		r.lazy = &lazyGaps{t: t, steps: steps, recs: recs}
		return
	}
	r.Gaps = make([]Gap, 0, len(recs))
	for k := range recs {
		r.Gaps = append(r.Gaps, recs[k].gap(t, steps))
	}
}

// NumGaps is how many gaps the report lists (in Gaps or, with
// Options.LazyGaps, through EachGap).
func (r *Report) NumGaps() int {
	switch {
	case r.lazy == nil:
		return len(r.Gaps)
	case r.lazy.all != nil:
		return r.lazy.all.n
	}
	return len(r.lazy.recs)
}

// EachGap calls f with every listed gap in the list's order (the longest
// first), stopping at f's first error. With Options.LazyGaps each Gap is
// made for the call only (f must not keep the pointer), so a report that
// lists every gap of a large trace does not hold them all resolved.
func (r *Report) EachGap(f func(*Gap) error) error { return r.EachGapIn(0, r.NumGaps(), f) }

// EachGapIn is EachGap over the listed gaps lo..hi-1 (in the list's
// order). It only reads the report: goroutines may call it at once, each
// on its own range.
func (r *Report) EachGapIn(lo, hi int, f func(*Gap) error) error {
	if r.lazy == nil {
		for k := lo; k < hi; k++ {
			if err := f(&r.Gaps[k]); err != nil {
				return err
			}
		}
		return nil
	}
	z := r.lazy
	var g Gap
	for k := lo; k < hi; k++ {
		if z.all != nil {
			rec := z.all.at(z.all.order[k].k)
			g = rec.gap(z.t, z.steps)
		} else {
			g = z.recs[k].gap(z.t, z.steps)
		}
		if err := f(&g); err != nil {
			return err
		}
	}
	return nil
}
