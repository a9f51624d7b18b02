package parse

import (
	"errors"
	"github.com/tracetab/tracetab/internal/gctune"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tracetab/tracetab/internal/safe"
)

// Parallel reading of gzip input.
//
// One goroutine decompresses the text into a spool of blocks while the
// others parse what it has produced: the parallel reader's segments
// (parallel.go), cut at candidate event starts in the decompressed text
// and verified the same way, so the result, the warnings and the error
// offsets are the sequential reading's. The decoder looks for a candidate
// near every spoolSegment bytes of text as it goes; text is shown to the
// parsers only up to the next nominal cut whose candidate is not yet known,
// so a parser always knows every candidate before the offset it stands at.
// Text no parser can need (before the segment the merge waits for) is
// dropped and its blocks reused; the decoder waits while it is spoolAhead
// ahead of that, unless the parser the merge waits for (or the main one)
// waits for text.

// Sizes of the gzip parallel reading; variables so tests can cut small.
var (
	gzParallelMin int64 = 32 << 20 // a gzip input whose text may be this large is read in parallel
	spoolSegment  int64 = 8 << 20  // nominal distance between cuts
	spoolBlock          = 1 << 20  // the unit of decompression
	spoolAhead    int64 = 24 << 20 // how far the decoder may run ahead of the text still needed
	spoolWindow   int64 = 64 << 10 // where, after a nominal cut, its candidate is looked for
)

// spoolMerged counts the segments parallelStream merged in its last
// reading (for tests: the cuts were used).
var spoolMerged atomic.Int64

// errGone is what a reader gets for text no parser needs any more: its
// parse is one the merge has passed over.
var errGone = errors.New("text dropped: the segment is not needed")

type spool struct {
	mu     sync.Mutex
	cond   *sync.Cond
	src    io.Reader
	blocks [][]byte // block b holds text from b*spoolBlock; nil once dropped
	free   [][]byte // dropped blocks, for the decoder to fill again
	bsize  int

	decoded int64 // bytes of text decompressed
	visible int64 // bytes the parsers may read (every candidate below is known)
	done    bool  // the decoder has finished: visible == decoded
	err     error // why (nil: the end of the text)
	closed  bool

	keep   int64 // text before this offset is dropped
	chain  int   // the segment the merge waits for; readers of earlier ones get errGone
	forced int   // readers the decoder must not keep waiting (the chain's, the main one)

	nextCut int64   // the next nominal cut whose candidate is not yet known
	found   []int64 // candidates found, in order (before start: any; after: > cands[0])
	started bool
	cands   []int64 // cands[0] is the first event; then the candidates after it
	live    atomic.Pointer[[]int64]
	sent    int // segments handed to workers

	results map[int]segResult
	exited  chan struct{}
}

func newSpool(src io.Reader) *spool {
	s := &spool{src: src, bsize: spoolBlock, nextCut: spoolSegment, results: map[int]segResult{}, exited: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	go s.decode()
	return s
}

// decode fills blocks from the source until it ends or fails.
func (s *spool) decode() {
	defer close(s.exited)
	defer func() {
		if x := recover(); x != nil {
			s.finish(safe.New(x)) // the reader's error: an internal one
		}
	}()
	for {
		s.mu.Lock()
		for !s.closed && s.decoded-s.keep >= spoolAhead && s.forced == 0 {
			s.cond.Wait()
		}
		if s.closed {
			s.mu.Unlock()
			return
		}
		var b []byte
		if k := len(s.free); k > 0 {
			b, s.free = s.free[k-1][:s.bsize], s.free[:k-1]
		}
		s.mu.Unlock()
		if b == nil {
			b = make([]byte, s.bsize)
		}
		n := 0
		var err error
		for n < len(b) && err == nil {
			var k int
			k, err = s.src.Read(b[n:])
			n += k
		}
		s.mu.Lock()
		if n > 0 {
			s.blocks = append(s.blocks, b[:n])
			s.decoded += int64(n)
		}
		if err != nil {
			s.done = true
			if err != io.EOF {
				s.err = err
			}
		}
		s.findCandidates()
		s.cond.Broadcast()
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (s *spool) finish(err error) {
	s.mu.Lock()
	s.done, s.err = true, err
	s.findCandidates()
	s.cond.Broadcast()
	s.mu.Unlock()
}

// findCandidates looks for the candidates of the nominal cuts the text now
// covers (with the lock held) and moves the visible end up to the next cut.
func (s *spool) findCandidates() {
	for s.nextCut < s.decoded && (s.done || s.nextCut+spoolWindow <= s.decoded) {
		end := min(s.nextCut+spoolWindow, s.decoded)
		buf := make([]byte, end-s.nextCut)
		s.copyAt(buf, s.nextCut)
		if i, ok := candidateIn(buf); ok {
			c := s.nextCut + int64(i)
			if len(s.found) == 0 || c > s.found[len(s.found)-1] {
				s.found = append(s.found, c)
				if s.started && c > s.cands[len(s.cands)-1] {
					s.addCand(c)
				}
			}
		}
		s.nextCut += spoolSegment
	}
	s.visible = s.decoded
	if !s.done {
		s.visible = min(s.decoded, s.nextCut)
	}
}

func (s *spool) addCand(c int64) {
	s.cands = append(s.cands, c)
	cs := s.cands
	s.live.Store(&cs)
}

// copyAt copies text from off into p (held, visible or not), with the lock held.
func (s *spool) copyAt(p []byte, off int64) int {
	n := 0
	for n < len(p) {
		b := int((off + int64(n)) / int64(s.bsize))
		if b >= len(s.blocks) || s.blocks[b] == nil {
			break
		}
		in := int((off + int64(n)) % int64(s.bsize))
		if in >= len(s.blocks[b]) {
			break
		}
		n += copy(p[n:], s.blocks[b][in:])
	}
	return n
}

// start sets the first event's offset: segment 0 begins there.
func (s *spool) start(first int64) {
	s.mu.Lock()
	s.started = true
	s.cands = []int64{first}
	for _, c := range s.found {
		if c > first {
			s.cands = append(s.cands, c)
		}
	}
	cs := s.cands
	s.live.Store(&cs)
	s.keep = first
	s.cond.Broadcast()
	s.mu.Unlock()
}

// work hands out the next segment, in order; false when the reading is over.
func (s *spool) work() (int, int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.closed && s.sent >= len(s.cands) && !(s.done && s.visible == s.decoded && s.nextCut >= s.decoded) {
		s.cond.Wait()
	}
	if s.closed || s.sent >= len(s.cands) {
		return 0, 0, false
	}
	i := s.sent
	s.sent++
	return i, s.cands[i], true
}

// put stores segment i's result.
func (s *spool) put(i int, r segResult) {
	s.mu.Lock()
	s.results[i] = r
	s.cond.Broadcast()
	s.mu.Unlock()
}

// result waits for segment i's result.
func (s *spool) result(i int) segResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if r, ok := s.results[i]; ok {
			delete(s.results, i)
			return r
		}
		s.cond.Wait()
	}
}

// advance makes segment k the one the merge waits for: the text before
// it is dropped, the segments before it cancelled.
func (s *spool) advance(k int, keep int64) {
	s.mu.Lock()
	s.chain = k
	s.dropBelow(keep)
	for i := range s.results {
		if i < k {
			delete(s.results, i)
		}
	}
	s.cond.Broadcast()
	s.mu.Unlock()
}

// dropBelow drops the blocks wholly before off (lock held).
func (s *spool) dropBelow(off int64) {
	if off <= s.keep {
		return
	}
	s.keep = off
	for b := 0; b < len(s.blocks) && int64(b+1)*int64(s.bsize) <= off; b++ {
		if s.blocks[b] != nil {
			s.free = append(s.free, s.blocks[b])
			s.blocks[b] = nil
		}
	}
}

// close stops the decoder and the workers and waits for the decoder, so
// the source can be closed next.
func (s *spool) close() {
	s.mu.Lock()
	s.closed = true
	s.chain = int(^uint(0) >> 1)
	s.cond.Broadcast()
	s.mu.Unlock()
	select {
	case <-s.exited:
	case <-time.After(2 * time.Second): // a source that blocks (a pipe) is not waited for forever
	}
}

// spoolReader reads the text from off for segment idx (-1: the main parser).
type spoolReader struct {
	s   *spool
	idx int
	off int64
}

func (s *spool) reader(idx int, off int64) *spoolReader { return &spoolReader{s, idx, off} }

func (r *spoolReader) Read(p []byte) (int, error) {
	s := r.s
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if r.idx >= 0 && r.idx < s.chain || r.off < s.keep && r.idx != -1 || s.closed {
			return 0, errGone
		}
		if r.off < s.visible {
			n := s.copyAt(p[:min(int64(len(p)), s.visible-r.off)], r.off)
			if n == 0 {
				return 0, errGone // dropped under a reader the merge passed over
			}
			r.off += int64(n)
			return n, nil
		}
		if s.done {
			if s.err != nil {
				return 0, s.err
			}
			return 0, io.EOF
		}
		forcing := r.idx == -1 || r.idx == s.chain
		if forcing {
			s.forced++
			s.cond.Broadcast()
		}
		s.cond.Wait()
		if forcing {
			s.forced--
		}
	}
}

// parallelStream is parallelEvents for gzip input: segments of the text the
// spool decompresses, parsed by one worker per core as they appear, merged
// in file order as the plain reading merges them.
func (p *parser) parallelStream(start int64) error {
	sp := p.spool
	sp.start(start)
	spoolMerged.Store(0)
	p.startOff, p.projFrom = start, start // the density of events is projected over the text after their start
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		go func() {
			var buf []byte
			for {
				i, off, ok := sp.work()
				if !ok {
					return
				}
				r := p.safeStreamSegment(i, off, buf)
				if r.p != nil {
					buf = r.p.sc.buf[:cap(r.p.sc.buf)] // the next segment's buffer: memory already in use
					r.p.sc.buf = nil
				}
				sp.put(i, r)
			}
		}()
	}
	k := 0
	var last *parser
	prevEnd := p.lastEnd
	sinceGC := int64(0)
	for {
		r := sp.result(k)
		if r.err != nil {
			return r.err
		}
		p.merge(r.p)
		spoolMerged.Add(1)
		last = r.p
		if r.p.lastEnd >= 0 {
			prevEnd = r.p.lastEnd
		}
		// the merged model against the bound, projected from the text merged so far
		p.nextCheck = 0
		if err := p.memCheckAt(r.p.sc.offset()); err != nil {
			return err
		}
		if r.p.t.Truncated || r.p.endedArray || r.p.seg.stop < 0 {
			break
		}
		sinceGC += r.p.sc.offset() - r.p.startOff
		k = r.p.seg.stop
		sp.advance(k, r.p.seg.cands[k])
		if sinceGC >= 48<<20 {
			// the merged workers' stores are garbage: collect them before
			// the next ones take new memory
			gctune.Collect()
			sinceGC = 0
		}
	}
	end := last.sc.offset()
	sp.advance(int(^uint(0)>>1), end) // every worker's segment is passed over
	if last.t.Truncated {
		p.t.Truncated = true
		p.truncAt = last.truncAt
		p.sc.off, p.sc.pos, p.sc.end = end, 0, 0
		p.lastEnd = prevEnd
		return nil
	}
	if !last.endedArray {
		return p.errAt(end, "unexpected end of input: the trace is truncated")
	}
	// Resume the main parser after the ']'.
	p.sc = scanner{src: sp.reader(-1, end), buf: p.sc.buf[:cap(p.sc.buf)], maxBuf: p.sc.maxBuf, off: end, progress: p.sc.progress,
		ctrlChars: p.sc.ctrlChars, firstCtrl: p.sc.firstCtrl, bareWords: p.sc.bareWords, firstBare: p.sc.firstBare,
		mendedText: p.sc.mendedText, firstMendedText: p.sc.firstMendedText}
	return p.sc.fill()
}

// safeStreamSegment parses the spool's segment i, which starts at off; a
// panic becomes its error.
func (p *parser) safeStreamSegment(i int, off int64, buf []byte) (r segResult) {
	defer func() {
		if x := recover(); x != nil {
			r = segResult{err: safe.New(x)}
		}
	}()
	sp := p.spool
	w := newParserBuf(sp.reader(i, off), p.name, p.opts, buf)
	w.gz = true
	w.sc.off = off
	w.lastEnd = -1
	// the bound as in a plain segment, the whole text projected from the
	// compressed bytes read (gzIn) and the file's size
	w.gzIn, w.inSize = p.gzIn, p.inSize
	cs := *sp.live.Load()
	w.startOff, w.projFrom, w.nextCheck = off, cs[0], off
	w.seg = &segment{cands: cs, next: i + 1, stop: -1, live: &sp.live}
	if err := w.sc.fill(); err != nil {
		return segResult{err: w.wrap(err)}
	}
	err := w.eventLoop(true)
	return segResult{p: w, err: err}
}
