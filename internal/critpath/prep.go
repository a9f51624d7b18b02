package critpath

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// prep is what every window's graph reads and is computed once per trace:
// the device ops of each launch call, which device ops may take a launch
// edge (the queue rule), and the GPU-GPU and GPU-CPU syncs of the
// cuda_sync events (which op each waits for).
type prep struct {
	t     *trace.Trace
	l     *trace.Links
	names []uint16

	// opsOf: the device ops (work and cuda_sync rows) that launch call i
	// started, by start: ops[opsAt[i]:opsAt[i+1]].
	opsAt []int32
	ops   []int32
	// per slot of ops, read from the events in one pass in file order
	// (the loops below and each window's graph read them where they read
	// the op's event at random, a cache miss each: newPrep took 50 ms of
	// the analysis's 170 ms on the 200 MB default bench trace, most of it
	// those reads): opTrack the op's track when it is device work,
	// opSync for a cuda_sync row, opOther for other device ops; opStart
	// its start; callStart at a call's first slot, the call's start.
	opTrack   []int32
	opStart   []int64
	callStart []int64

	// flags per event (device work ops): opFirst, opIdle
	flags []uint8

	// waits: per destination device op, the Stream Wait Events that
	// name it, by the end of the wait (HTA registers a wait when its
	// row's end passes).
	waits map[int32][]waitReg
	// syncSrc: per Event Sync or Stream Wait Event row, the device op
	// launched last on the recorded stream before its cudaEventRecord;
	// -1 when none was found.
	syncSrc map[int32]int32

	cpuTracks []int32
	hasSync   bool // the trace has cuda_sync events
	whatIf    bool // the analysis tries what-ifs: topo notes each slot's name

	// local maps an event to its number in the window being built, -1
	// outside it
	local   []int32
	comm    []int8 // per name: 0 unknown, 1 not a communication kernel, 2 one
	ids     map[string]trace.StrID
	dl      []int8  // per event: 0 unknown, 1 not in a DataLoader frame, 2 in one
	nameIdx []int32 // per name id: analyze's index of the name + 1, 0 outside analyze

	s scratch // buffers the windows' graphs reuse, one graph at a time
}

// fork is a prep for analysing other windows beside p on another
// goroutine: it shares what newPrep made, read only, and has its own
// graph buffers and lazily filled caches (local, names' ids,
// communication kernels, DataLoader frames).
func (p *prep) fork() *prep {
	q := *p
	q.local, q.s, q.ids, q.comm, q.dl, q.nameIdx = nil, scratch{}, nil, nil, nil, nil
	return &q
}

// scratch holds buffers that one window's graph uses and the next reuses.
type scratch struct {
	ev, cpu, gpu, syncs, nodes, open, outAt, out, indeg, next, pred, pos, last, touched []int32
	hints                                                                               []int32 // per CPU track: where the window before began in its order
	order, tpos, at                                                                     []int32
	edges                                                                               []edge
	stack                                                                               []frame
	rows, rowBuf                                                                        []row
	lock                                                                                []lockNode
	dist                                                                                []int64
	slots                                                                               []slot
	dist3                                                                               [][3]int64
	tsv                                                                                 []int64
	cls                                                                                 []uint16
	path                                                                                []int32
	names                                                                               []NameTime
	lockBuf                                                                             []lockNode
	mergeBuf                                                                            []int32
	onPath                                                                              []bool
	own                                                                                 []int64
	owners                                                                              []int32
	other                                                                               []eventNs
}

// grow returns s with length n, reusing its array; zeroed when zero is set.
func grow[T any](s []T, n int, zero bool) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	s = s[:n]
	if zero {
		clear(s)
	}
	return s
}

// nameID is the interned id of a name (strings are interned once each).
func (p *prep) nameID(name string) (trace.StrID, bool) {
	if p.ids == nil {
		p.ids = make(map[string]trace.StrID, len(p.t.Strings))
		for i, s := range p.t.Strings {
			p.ids[s] = trace.StrID(i)
		}
	}
	id, ok := p.ids[name]
	return id, ok
}

// isComm reports (once per name) whether a device op's name is a
// communication kernel (trace.IsCommKernel).
func (p *prep) isComm(name trace.StrID) bool {
	if p.comm == nil {
		p.comm = make([]int8, len(p.t.Strings))
	}
	if p.comm[name] == 0 {
		p.comm[name] = 1
		if trace.IsCommKernel(p.t.Str(name)) {
			p.comm[name] = 2
		}
	}
	return p.comm[name] == 2
}

const (
	opFirst uint8 = 1 << iota // the first (by start) of its launch call's ops on its stream
	opIdle                    // the queue rule allows a launch edge (see doc.go)
)

type waitReg struct {
	key int64 // the wait row's end
	src int32 // the op the waiting stream waits for (-1: none found)
	row int32
}

type callKey struct {
	start int64
	r     int32
}

// launchUnit is one launch call's work on one device stream.
type launchUnit struct {
	call, first, last  int32 // the call, its first and last op on the stream (by start)
	callStart, opStart int64
}

func isDeviceOp(k trace.Kind) bool { return k.IsDevice() && k != trace.KindGPUAnnotation }

// opTrack's values for device ops that are not work
const (
	opSync  = -1 // a cuda_sync row
	opOther = -2 // another device op (cuda_profiler_range)
)

// opTrackOf is e's opTrack value.
func opTrackOf(e *trace.Event) int32 {
	switch {
	case e.Kind.IsDeviceWork():
		return e.Track
	case e.Kind == trace.KindSync:
		return opSync
	}
	return opOther
}

func newPrep(t *trace.Trace) *prep {
	p := &prep{t: t, l: t.Links(), names: nameClasses(t), waits: map[int32][]waitReg{}, syncSrc: map[int32]int32{}}
	n := t.NumEvents()
	l := p.l
	for k := range t.Tracks {
		if t.Tracks[k].Kind == trace.TrackCPU {
			p.cpuTracks = append(p.cpuTracks, int32(k))
		}
	}
	// CSR of launch call -> device ops.
	p.opsAt = make([]int32, n+1)
	var syncRows []int32
	for i := 0; i < n; i++ {
		e := t.Ev(i)
		if !isDeviceOp(e.Kind) {
			continue
		}
		if e.Kind == trace.KindSync {
			p.hasSync = true
			syncRows = append(syncRows, int32(i))
		}
		if r := l.Launch[i]; r >= 0 {
			p.opsAt[r+1]++
		}
	}
	for i := 1; i <= n; i++ {
		p.opsAt[i] += p.opsAt[i-1]
	}
	p.ops = make([]int32, p.opsAt[n])
	p.opTrack, p.opStart, p.callStart = make([]int32, p.opsAt[n]), make([]int64, p.opsAt[n]), make([]int64, p.opsAt[n])
	next := slices.Clone(p.opsAt[:n])
	for i := 0; i < n; i++ {
		e := t.Ev(i)
		if p.opsAt[i+1] > p.opsAt[i] {
			p.callStart[p.opsAt[i]] = e.Start
		}
		if !isDeviceOp(e.Kind) {
			continue
		}
		if r := l.Launch[i]; r >= 0 {
			x := next[r]
			p.ops[x], p.opTrack[x], p.opStart[x] = int32(i), opTrackOf(e), e.Start
			next[r]++
		}
	}
	next = nil
	// the launch calls by start (then by index), each track's from its
	// order, the tracks merged: each track's units then come in the order
	// queueRule sorts them in, and it need not sort (it did, from the
	// calls in file order: about 8 M instructions on the 20 MB default
	// bench trace)
	calls := make([]callKey, 0, l.LaunchCalls)
	for k := range t.Tracks {
		for _, r := range l.Order[l.TrackStart[k]:l.TrackStart[k+1]] {
			if x := p.opsAt[r]; p.opsAt[r+1] > x {
				calls = append(calls, callKey{p.callStart[x], r})
			}
		}
	}
	sortRuns(calls, nil, func(a, b callKey) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		return cmp.Compare(a.r, b.r)
	})
	byStart := func(a, b int32) int { return t.CompareInTrack(a, b) }
	for _, c := range calls {
		lo, hi := p.opsAt[c.r], p.opsAt[c.r+1]
		if s := p.ops[lo:hi]; len(s) > 1 && !slices.IsSortedFunc(s, byStart) {
			slices.SortFunc(s, byStart)
			for x := lo; x < hi; x++ {
				e := t.Ev(int(p.ops[x]))
				p.opTrack[x], p.opStart[x] = opTrackOf(e), e.Start
			}
		}
	}

	// Launch units per device stream (counted first: a 1 GB trace has a
	// million), and the queue rule.
	p.flags = make([]uint8, n)
	seen := make([]int32, len(t.Tracks)) // call+1 that last touched the track
	count := make([]int, len(t.Tracks))
	for _, c := range calls {
		r := c.r
		for _, tr := range p.opTrack[p.opsAt[r]:p.opsAt[r+1]] {
			if tr >= 0 && seen[tr] != r+1 {
				seen[tr] = r + 1
				count[tr]++
			}
		}
	}
	units := make([][]launchUnit, len(t.Tracks))
	for tr, c := range count {
		if c > 0 {
			units[tr] = make([]launchUnit, 0, c)
		}
	}
	clear(seen)
	for _, c := range calls {
		r := int(c.r)
		cs := c.start
		for x := p.opsAt[r]; x < p.opsAt[r+1]; x++ {
			tr, o := p.opTrack[x], p.ops[x]
			if tr < 0 {
				continue
			}
			if seen[tr] != int32(r)+1 {
				seen[tr] = int32(r) + 1
				units[tr] = append(units[tr], launchUnit{call: int32(r), first: o, last: o, callStart: cs, opStart: p.opStart[x]})
				p.flags[o] |= opFirst
			} else {
				units[tr][len(units[tr])-1].last = o
			}
		}
	}
	for tr := range units {
		queueRule(p.flags, units[tr])
	}

	// Syncs: which op an Event Sync or Stream Wait Event row waits for,
	// and which op a Stream Wait Event holds back.
	if len(syncRows) > 0 {
		p.syncs(syncRows, units)
	}
	return p
}

// queueRule marks the ops that may take a launch edge: HTA's queue length
// per stream (+1 when a launch call starts, -1 when its op starts; over
// the whole trace) is 1 just after the op's launch call started and 0
// just after the op started. At one instant an op's start counts before a
// call's start; then by event order. It sorts us by call start (stable)
// and merges the calls' starts with the ops' starts: linear when they come
// in order, as they do.
func queueRule(flags []uint8, us []launchUnit) {
	n := len(us)
	if n == 0 {
		return
	}
	byCall := func(a, b launchUnit) int {
		if c := cmp.Compare(a.callStart, b.callStart); c != 0 {
			return c
		}
		return cmp.Compare(a.call, b.call)
	}
	if !slices.IsSortedFunc(us, byCall) {
		slices.SortFunc(us, byCall)
	}
	byOp := make([]int32, n)
	for k := range byOp {
		byOp[k] = int32(k)
	}
	opOrder := func(a, b int32) int {
		if c := cmp.Compare(us[a].opStart, us[b].opStart); c != 0 {
			return c
		}
		return cmp.Compare(us[a].first, us[b].first)
	}
	sortRuns(byOp, nil, opOrder)
	atLaunch, atStart := make([]int32, n), make([]int32, n)
	q := int32(0)
	for i, j := 0, 0; i < n || j < n; {
		if j < n && (i == n || us[byOp[j]].opStart <= us[i].callStart) {
			q--
			atStart[byOp[j]] = q
			j++
		} else {
			q++
			atLaunch[i] = q
			i++
		}
	}
	for k, u := range us {
		if atLaunch[k] == 1 && atStart[k] == 0 {
			flags[u.first] |= opIdle
		}
	}
}

// syncs resolves the cuda_sync rows that wait on a recorded event.
func (p *prep) syncs(rows []int32, units [][]launchUnit) {
	t, l := p.t, p.l
	// the device stream each recorded event was recorded on, from the
	// wait_on_stream of the syncs that name its cudaEventRecord
	type lane struct {
		dev    int
		stream int64
	}
	laneTrack := map[lane]int32{}
	for k, tr := range t.Tracks {
		if tr.Kind == trace.TrackDevice {
			laneTrack[lane{tr.Device, tr.Stream}] = int32(k)
		}
	}
	recorded := map[int64]int32{} // record correlation -> device track
	for _, r := range rows {
		a := t.AuxOf(int(r))
		if a == nil || a.WaitStream < 0 || a.WaitRecord < 0 {
			continue
		}
		if tr, ok := laneTrack[lane{t.Tracks[t.Ev(int(r)).Track].Device, a.WaitStream}]; ok {
			if _, dup := recorded[a.WaitRecord]; !dup {
				recorded[a.WaitRecord] = tr
			}
		}
	}
	// src: the op launched last on the recorded stream before the record call
	srcOf := func(corr int64) int32 {
		tr, ok := recorded[corr]
		if !ok {
			return -1
		}
		rec := l.LaunchByCorr(corr)
		if rec < 0 || p.names[t.Ev(int(rec)).Name]&nmRecord == 0 {
			return -1
		}
		us := units[tr] // by call start (queueRule sorted them)
		rs := t.Ev(int(rec)).Start
		k, _ := slices.BinarySearchFunc(us, rs, func(u launchUnit, x int64) int { return cmp.Compare(u.callStart, x) })
		if k == 0 {
			return -1
		}
		return us[k-1].last
	}
	// dest: the next launch call after the cudaStreamWaitEvent on its
	// thread that launched work on the waiting stream
	type pair struct{ cpu, dev int32 }
	next := map[pair][]launchUnit{}
	var waitRows []int32
	for _, r := range rows {
		e := t.Ev(int(r))
		f := p.names[e.Name]
		if f&(nmEventSync|nmWaitEvent) == 0 {
			continue
		}
		a := t.AuxOf(int(r))
		if a == nil || a.WaitRecord < 0 {
			continue
		}
		p.syncSrc[r] = srcOf(a.WaitRecord)
		if f&nmWaitEvent == 0 {
			continue
		}
		w := l.Launch[r]
		if w < 0 || p.names[t.Ev(int(w)).Name]&nmWaitCall == 0 {
			continue
		}
		waitRows = append(waitRows, r)
		next[pair{t.Ev(int(w)).Track, e.Track}] = nil
	}
	if len(waitRows) == 0 {
		return
	}
	for tr, us := range units {
		for _, u := range us {
			k := pair{t.Ev(int(u.call)).Track, int32(tr)}
			if s, ok := next[k]; ok {
				next[k] = append(s, u)
			}
		}
	}
	for _, r := range waitRows {
		e := t.Ev(int(r))
		w := t.Ev(int(l.Launch[r]))
		us := next[pair{w.Track, e.Track}]
		k, _ := slices.BinarySearchFunc(us, w.Start+1, func(u launchUnit, x int64) int { return cmp.Compare(u.callStart, x) })
		if k == len(us) || p.syncSrc[r] < 0 {
			continue
		}
		dest := us[k].first
		p.waits[dest] = append(p.waits[dest], waitReg{key: e.End(), src: p.syncSrc[r], row: r})
	}
	for d, ws := range p.waits {
		slices.SortStableFunc(ws, func(a, b waitReg) int { return cmp.Compare(a.key, b.key) })
		p.waits[d] = ws
	}
}

// waitFor is the Stream Wait Event that holds op back (the last one whose
// row ended by the op's start), or nil.
func (p *prep) waitFor(op int32) *waitReg {
	ws := p.waits[op]
	if len(ws) == 0 {
		return nil
	}
	start := p.t.Ev(int(op)).Start
	k, _ := slices.BinarySearchFunc(ws, start+1, func(w waitReg, x int64) int { return cmp.Compare(w.key, x) })
	if k == 0 {
		return nil
	}
	return &ws[k-1]
}

// sortRuns sorts s by cmp (a total order) when it is a few ascending runs
// (one thread's calls after another's, ops after syncs) by merging them,
// and by slices.SortFunc otherwise; buf is scratch, returned to be
// reused. Merging two runs reads each element a few times where the sort
// made n log n comparisons (on the 20 MB default bench trace the sorts of
// the lock calls' nodes and of the launch units took about 15 M
// instructions).
func sortRuns[T any](s, buf []T, cmp func(a, b T) int) []T {
	runs := 1
	for i := 1; i < len(s); i++ {
		if cmp(s[i-1], s[i]) > 0 {
			runs++
		}
	}
	switch {
	case runs == 1:
		return buf
	case runs > 8:
		if !insertionSort(s, cmp, 2*len(s)) {
			slices.SortFunc(s, cmp)
		}
		return buf
	}
	buf = grow(buf, len(s), false)
	end := func(i int) int { // the end of the run from i
		for i++; i < len(s) && cmp(s[i-1], s[i]) <= 0; i++ {
		}
		return i
	}
	for runs > 1 {
		out := buf[:0]
		runs = 0
		for i := 0; i < len(s); runs++ {
			j := end(i)
			k := j
			if j < len(s) {
				k = end(j)
			}
			a, b := s[i:j], s[j:k]
			for len(a) > 0 && len(b) > 0 {
				if cmp(b[0], a[0]) < 0 {
					out, b = append(out, b[0]), b[1:]
				} else {
					out, a = append(out, a[0]), a[1:]
				}
			}
			out = append(append(out, a...), b...)
			i = k
		}
		copy(s, out)
	}
	return buf[:0]
}

// insertionSort sorts s by cmp (a total order: any sort gives the same
// result) by insertion when that moves at most budget elements, and
// reports whether it did; else s is left a permutation of itself, to be
// sorted otherwise. Many runs each out of place by a step or two (the
// launch units' ops by start on a stream two threads launch to: on the
// 20 MB default bench trace 4,689 runs in 10,548 units, each inversion
// between neighbours) are sorted in about n comparisons, where
// slices.SortFunc took 11 ms of the analysis on the 200 MB trace.
func insertionSort[T any](s []T, cmp func(a, b T) int, budget int) bool {
	for i := 1; i < len(s); i++ {
		if cmp(s[i-1], s[i]) <= 0 {
			continue
		}
		x := s[i]
		j := i
		for j > 0 && cmp(s[j-1], x) > 0 {
			s[j] = s[j-1]
			j--
			if budget--; budget < 0 {
				s[j] = x
				return false
			}
		}
		s[j] = x
	}
	return true
}
