package parse

import (
	"bytes"
	"github.com/tracetab/tracetab/internal/gctune"
	"io"
	"runtime"
	"sort"
	"sync/atomic"

	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/trace"
)

// Parallel reading of traceEvents.
//
// A large uncompressed file is cut into segments at candidate event starts
// (a '{' after a ',' and before a '"'), found by looking at a small window
// at each nominal cut. Each segment is parsed by its own parser from its
// candidate to the next one. A candidate is only trusted when the parser of
// the segment before it stops exactly there, at an event boundary; a wrong
// guess (a cut inside a string or a nested object) is noticed because the
// previous parser runs past it, and that parser simply goes on, so the
// result is always the one sequential reading gives. Segments are merged in
// file order, which keeps ties in time ordered as the file has them.

// Sizes of the parallel reading; variables so tests can cut small files.
var (
	parallelMin int64 = 48 << 20 // below this, one goroutine is as fast
	segmentSize int64 = 48 << 20
)

// segment tells a worker where the later candidates are.
type segment struct {
	cands []int64
	next  int // index of the next candidate to meet
	stop  int // index of the candidate the worker stopped at, or -1
	// gzip input (spool.go): the candidates found so far, a longer list
	// as the text is decompressed; every one before the text a worker has
	// read is in it
	live *atomic.Pointer[[]int64]
}

// atBoundary reports whether an event starting at off is the start of a
// later segment, i.e. where this worker stops.
func (g *segment) atBoundary(off int64) bool {
	for {
		for g.next < len(g.cands) && off > g.cands[g.next] {
			g.next++
		}
		if g.next < len(g.cands) {
			if off == g.cands[g.next] {
				g.stop = g.next
				return true
			}
			return false
		}
		if g.live == nil {
			return false
		}
		c := *g.live.Load()
		if len(c) == len(g.cands) {
			return false
		}
		g.cands = c
	}
}

type segResult struct {
	p   *parser
	err error
}

// parallelEvents reads the event array (after its '[') with one worker per
// core, then resumes the main parser after the array's ']'.
func (p *parser) parallelEvents() error {
	s := &p.sc
	var first byte
	if err := s.unit(func() { first = s.peek() }); err != nil {
		return p.wrap(err)
	}
	start := s.offset()
	if p.spool != nil && first == '{' {
		return p.parallelStream(start)
	}
	if first != '{' || p.spool != nil || p.size-start < parallelMin {
		return p.eventLoop(true)
	}
	cands := []int64{start}
	seg := segmentSize // read once: workers may outlive this call (tests change it)
	p.segSize = seg
	for off := start + seg; off < p.size-seg/4; off += seg {
		if c, ok := findCandidate(p.ra, off, p.size); ok && c > cands[len(cands)-1] {
			cands = append(cands, c)
		}
	}
	if len(cands) < 2 {
		return p.eventLoop(true)
	}

	results := make([]chan segResult, len(cands))
	for i := range results {
		results[i] = make(chan segResult, 1)
	}
	work := make(chan int, len(cands))
	for i := range cands {
		work <- i
	}
	close(work)
	quit := make(chan struct{})
	defer close(quit)
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		go func() {
			for i := range work {
				select {
				case <-quit:
					return
				default:
				}
				results[i] <- p.safeSegment(cands, i)
			}
		}()
	}

	k := 0
	var last *parser
	prevEnd := p.lastEnd
	for {
		r := <-results[k]
		if r.err != nil {
			return r.err
		}
		p.merge(r.p)
		last = r.p
		if r.p.lastEnd >= 0 {
			prevEnd = r.p.lastEnd
		}
		// the merged model against the bound (no projection: the workers project)
		p.startOff, p.nextCheck = r.p.sc.offset(), 0
		if err := p.memCheckAt(r.p.sc.offset()); err != nil {
			return err
		}
		if r.p.t.Truncated || r.p.endedArray || r.p.seg.stop < 0 {
			break
		}
		k = r.p.seg.stop
		// later results not needed by the chain are dropped as they come
		if seg >= 8<<20 {
			gctune.Collect()
		}
	}
	if last.t.Truncated {
		p.t.Truncated = true
		p.truncAt = last.truncAt
		// the main scanner stands where the last worker stopped
		p.sc.off, p.sc.pos, p.sc.end = last.sc.offset(), 0, 0
		p.lastEnd = prevEnd
		return nil
	}
	if !last.endedArray {
		return p.errAt(last.sc.offset(), "unexpected end of input: the trace is truncated")
	}
	// Resume the main parser after the ']'.
	end := last.sc.offset()
	p.sc = scanner{src: io.NewSectionReader(p.ra, end, p.size-end), buf: p.sc.buf[:cap(p.sc.buf)], maxBuf: p.sc.maxBuf, off: end, progress: p.sc.progress,
		ctrlChars: p.sc.ctrlChars, firstCtrl: p.sc.firstCtrl, bareWords: p.sc.bareWords, firstBare: p.sc.firstBare,
		mendedText: p.sc.mendedText, firstMendedText: p.sc.firstMendedText}
	p.sc.pos, p.sc.end = 0, 0
	return p.sc.fill()
}

// safeSegment is runSegment on a worker goroutine: a panic there becomes
// the segment's error (an internal error), reported as the sequential
// reader's would be.
func (p *parser) safeSegment(cands []int64, i int) (r segResult) {
	defer func() {
		if x := recover(); x != nil {
			r = segResult{err: safe.New(x)}
		}
	}()
	return p.runSegment(cands, i)
}

// runSegment parses the segment that starts at cands[i].
func (p *parser) runSegment(cands []int64, i int) segResult {
	off := cands[i]
	w := newParser(io.NewSectionReader(p.ra, off, p.size-off), p.name, p.opts)
	// a small first buffer when segments are small (tests): it doubles
	// for a longer unit
	w.sc.buf = make([]byte, min(1<<20, max(4<<10, 2*p.segSize)))
	w.sc.off = off
	w.lastEnd = -1
	w.startOff, w.projFrom, w.inSize, w.nextCheck = off, cands[0], p.size, off
	w.seg = &segment{cands: cands, next: i + 1, stop: -1}
	if err := w.sc.fill(); err != nil {
		return segResult{err: w.wrap(err)}
	}
	err := w.eventLoop(true)
	return segResult{p: w, err: err}
}

// findCandidate looks near off for the start of an event: '{' preceded by
// ',' and followed by '"' (white space aside).
func findCandidate(ra io.ReaderAt, off, size int64) (int64, bool) {
	buf := make([]byte, 64<<10)
	n, _ := ra.ReadAt(buf, off)
	i, ok := candidateIn(buf[:n])
	return off + int64(i), ok
}

// candidateIn is the offset in buf of its first candidate event start.
func candidateIn(buf []byte) (int, bool) {
	for i := 0; i < len(buf); {
		j := bytes.IndexByte(buf[i:], '{')
		if j < 0 {
			return 0, false
		}
		i += j
		b := i - 1
		for b >= 0 && isWS(buf[b]) {
			b--
		}
		a := i + 1
		for a < len(buf) && isWS(buf[a]) {
			a++
		}
		if b >= 0 && buf[b] == ',' && a < len(buf) && buf[a] == '"' {
			return i, true
		}
		i++
	}
	return 0, false
}

// merge appends a worker's events and tables to the main trace, mapping its
// string and track ids to the main ones.
func (p *parser) merge(w *parser) {
	t, wt := p.t, w.t
	strMap := make([]trace.StrID, len(wt.Strings))
	for i, str := range wt.Strings {
		id, ok := p.strIDs[str]
		if !ok {
			id = p.add(str)
			// new to the file so far: the sequential reading counted it
			// where the worker first met it
			if off, bad := w.badAt[trace.StrID(i)]; bad {
				p.countMended(off)
			}
			if off, ctrl := w.ctrlAt[trace.StrID(i)]; ctrl {
				p.countCtrl(off)
			}
		}
		strMap[i] = id
	}
	mapID := func(id trace.ID) trace.ID {
		if id.IsStr {
			id.Str = strMap[id.Str]
		}
		return id
	}
	trackMap := make([]int32, len(wt.Tracks))
	for i, tr := range wt.Tracks {
		trackMap[i] = p.track(mapID(tr.Pid), mapID(tr.Tid))
	}
	// Every event's Extra and Aux pass through the main cache in file
	// order, as in the sequential reading (dedup.go).
	chunks := wt.Events.Chunks()
	for ci, c := range chunks {
		for i := range c {
			e := c[i]
			e.Name = strMap[e.Name]
			e.Track = trackMap[e.Track]
			t.MoveIDs(&e, wt)
			if e.Extra >= 0 {
				x := *wt.Extras.At(int(e.Extra))
				x.InputDims, x.InputTypes, x.Stack = strMap[x.InputDims], strMap[x.InputTypes], strMap[x.Stack]
				x.Concrete = strMap[x.Concrete]
				if x.Aux >= 0 {
					a := *wt.Aux.At(int(x.Aux))
					a.PG, a.Coll, a.Dtype = strMap[a.PG], strMap[a.Coll], strMap[a.Dtype]
					x.Aux = p.addAux(a)
				}
				e.Extra = p.addExtra(x)
			}
			t.Events.Append(e)
		}
		chunks[ci] = nil
	}
	t.Flows = growFor(t.Flows, len(wt.Flows), p, w)
	for _, f := range wt.Flows {
		f.Track = trackMap[f.Track]
		t.Flows = append(t.Flows, f)
	}
	t.Mem = growFor(t.Mem, w.mem.Len(), p, w)
	for _, c := range w.mem.Chunks() {
		for _, m := range c {
			m.Track = trackMap[m.Track]
			t.Mem = append(t.Mem, m)
		}
	}
	t.MemRecords += wt.MemRecords
	t.LaunchFlows += wt.LaunchFlows
	t.Instants += wt.Instants
	t.Counters += wt.Counters
	t.MetaEvents += wt.MetaEvents
	t.OtherPhases += wt.OtherPhases
	t.FractionalTs = t.FractionalTs || wt.FractionalTs
	t.LegacyExport = t.LegacyExport || wt.LegacyExport
	t.LowerExtID = t.LowerExtID || wt.LowerExtID
	t.EvIdx = t.EvIdx || wt.EvIdx
	if wt.HasTraceSpan && !t.HasTraceSpan {
		t.TraceStart, t.HasTraceSpan = wt.TraceStart, true
	}
	if wt.HasWindowEnd {
		t.WindowEnd, t.HasWindowEnd = wt.WindowEnd, true
	}
	for id, n := range w.catCounts {
		p.catCounts[strMap[id]] += n
	}
	for k, v := range w.argStream {
		p.noteStream(trackMap[k], v)
		if w.argStreamMixed[k] {
			p.noteStream(trackMap[k], v+1) // mixed there: mixed here
		}
	}
	// The worker's warnings and its names (which may repeat names given
	// in earlier segments), in file order, as the sequential reading
	// meets them: a key seen before adds its count, a new one is appended.
	type pending struct {
		off  int64
		warn *trace.Warning
		meta *metaName
	}
	var todo []pending
	for i := range wt.Warnings {
		todo = append(todo, pending{off: wt.Warnings[i].Offset, warn: &wt.Warnings[i]})
	}
	for i := range w.metaLog {
		m := &w.metaLog[i]
		m.key = trackKey{mapID(m.key.pid), mapID(m.key.tid)}
		todo = append(todo, pending{off: m.off, meta: m})
	}
	sort.SliceStable(todo, func(a, b int) bool { return todo[a].off < todo[b].off })
	for _, d := range todo {
		if d.meta != nil {
			p.nameMeta(*d.meta)
			continue
		}
		wa := *d.warn
		found := false
		for i := range t.Warnings {
			if t.Warnings[i].Key == wa.Key {
				t.Warnings[i].Count += wa.Count
				found = true
			}
		}
		if !found {
			t.Warnings = append(t.Warnings, wa)
		}
	}
	if w.anyEvent {
		if !p.anyEvent || w.minStart < p.minStart {
			p.minStart = w.minStart
		}
		if !p.anyEvent || w.maxEnd > p.maxEnd {
			p.maxEnd = w.maxEnd
		}
		p.anyEvent = true
	}
	p.elements += w.elements
	p.sawPh = p.sawPh || w.sawPh
	p.noTs += w.noTs
	if w.sc.bareWords > 0 && p.sc.bareWords == 0 {
		p.sc.firstBare = w.sc.firstBare
	}
	p.sc.bareWords += w.sc.bareWords
}

// growFor makes room in s for add more elements merged from worker w: room
// for the whole file, projected from the share of it read so far, so the
// list is copied a few times instead of growing by a quarter at a time
// (the part not reached is never written, so it takes no memory).
func growFor[T any](s []T, add int, p, w *parser) []T {
	if add == 0 || cap(s)-len(s) >= add {
		return s
	}
	read, all := float64(w.sc.offset()-w.projFrom), float64(p.size-w.projFrom)
	want := len(s) + add
	if read > 0 && all > read {
		want = max(want, int(float64(want)*all/read*1.05))
	} else if p.size <= 0 {
		want = max(want, 2*len(s)) // gzip: the size is not known
	}
	grown := make([]T, len(s), want)
	copy(grown, s)
	return grown
}
