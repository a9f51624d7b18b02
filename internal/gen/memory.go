package gen

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
)

// Memory makes the trace one recorded with profile_memory=True: "[memory]"
// instant events with Addr, Bytes, Total Allocated, Total Reserved, Device
// Type and Device Id, written after each step's events (so not in time
// order, as the model must not assume).
//
//   - AllocsPerOp: every cpu_op makes this many allocations on cuda:0, the
//     k-th 1+k ns after its start, each freed 1+k ns before its end (so a
//     parent's are alive while its children run). Their sizes depend on
//     the op's name. Each step also allocates 8 KiB on cuda:0 between
//     matmul_add and the next op, outside every op, and frees the previous
//     step's there: it survives its step (the last one is never freed).
//   - LeakBytes: each step, an aten::empty between matmul_add and the
//     layers allocates this many bytes on cuda:0 and never frees them.
//   - PreTrace: frees, before the first step and outside every event, of
//     1 MiB blocks of cuda:0 memory allocated before the trace began.
//   - CPU: each cpu_op on the main thread also allocates on the CPU
//     (Device Type 0, Device Id -1), freed before it ends; each step a
//     thread with no events at all (tid 4260) allocates and frees 4 KiB.
//   - Reuse: a freed address is handed out again to the next allocation
//     of the same size (a LIFO free list per size, as the caching
//     allocator does); without it every allocation has a new address.
//
// cuda:0 starts at 2 GiB allocated (plus the pre-trace blocks); its
// reserved is the largest allocated so far rounded up to 20 MiB. The CPU
// starts at 0 with nothing reserved.
type Memory struct {
	AllocsPerOp int
	LeakBytes   int64
	PreTrace    int
	CPU         bool
	Reuse       bool
}

// On reports whether the trace gets [memory] events.
func (m Memory) On() bool { return m.AllocsPerOp > 0 || m.LeakBytes > 0 || m.PreTrace > 0 || m.CPU }

// Validate checks the knobs.
func (m Memory) Validate() error {
	if m.AllocsPerOp < 0 || m.AllocsPerOp > 100 || m.LeakBytes < 0 || m.PreTrace < 0 || m.PreTrace > 100_000 {
		return fmt.Errorf("-mem-allocs (0 to 100), -mem-leak and -mem-pretrace (0 to 100000) must not be negative")
	}
	return nil
}

// MemoryFacts is the generator's truth about the memory it wrote, per
// device (cpu first, then cuda:0), computed from the allocations it made
// (their op, times and sizes), not from addresses.
type MemoryFacts struct {
	Devices []MemDeviceFacts
}

// MemDeviceFacts is one device's truth. Times are ns from the origin.
type MemDeviceFacts struct {
	Type, ID int
	Records  int
	// Ties counts records at the same ns as the device's previous one
	// (0 by design: the truth gives each record one place in time).
	Ties               int
	Allocations, Frees int
	StartAllocated     int64
	PreTraceFrees      int
	PreTraceFreedBytes int64
	// The peak: the first record with the largest allocated; its op is
	// the op that made that allocation (NoOp-less: "" outside every op).
	PeakBytes, PeakReservedBytes int64
	PeakNs                       int64
	PeakOp                       string
	// StepStart and StepGrowth: the allocated at each step's start and
	// its end minus its start.
	StepStart, StepGrowth []int64
	// Alive: the allocations alive right after the peak record, by op
	// ("" for outside every op); AliveBytes their sum.
	Alive      map[string]MemGroupFacts
	AliveBytes int64
	// Lifetimes: every allocation by op; Survivors: allocations not freed
	// before the end of the step they were made in.
	Lifetimes map[string]MemLifeFacts
	Survivors map[string]MemSurvivorFacts
}

// MemGroupFacts is one op's allocations alive at the peak.
type MemGroupFacts struct {
	Bytes    int64
	Count    int
	OldestNs int64
}

// MemLifeFacts is one op's allocations over the trace.
type MemLifeFacts struct {
	Count, Freed, NeverFreed int
	Bytes, MaxBytes          int64
	Lifetimes                []int64 // of the freed ones, sorted
}

// MemSurvivorFacts is one op's allocations that outlived their step.
type MemSurvivorFacts struct {
	Bytes, NeverFreedBytes int64
	Count, NeverFreedCount int
	Steps                  int
}

const (
	memTid      = 4260
	gpuBase     = int64(2 << 30)
	gpuAddr0    = int64(0x7f0000000000)
	preAddr0    = int64(0x7e0000000000)
	cpuAddr0    = int64(0x560000000000)
	reserveUnit = int64(20 << 20)
)

// memAlloc is one allocation the generator made.
type memAlloc struct {
	dev          int // 0 cpu, 1 cuda:0
	tid          int
	op           string // "" outside every op
	at, freeAt   int64  // freeAt -1: never freed
	bytes        int64
	step         int // index of the step it was made in, -1 outside
	addr         int64
	allocWritten bool
}

// memRec is one record to write.
type memRec struct {
	ts    int64
	a     *memAlloc
	bytes int64 // > 0 allocation, < 0 free
	pre   bool  // a free of a pre-trace block (a.addr is set)
}

type memState struct {
	cfg     Memory
	step    int // the step being written, -1 before the first
	pending []memRec
	all     []*memAlloc
	carry   *memAlloc // the last step's 8 KiB, freed in the next step
	written []memRec  // every record, in time order
	resv    []int64   // the Total Reserved written with each
	level   [2]int64
	maxLvl  [2]int64
	next    [2]int64
	freeL   [2]map[int64][]int64
	steps   [][2]int64
}

func (g *writer) memOn() bool { return g.mem != nil }

// memInit starts the memory state and writes the pre-trace frees.
func (g *writer) memInit(m Memory) {
	if !m.On() {
		return
	}
	g.mem = &memState{cfg: m, step: -1, next: [2]int64{cpuAddr0, gpuAddr0}, freeL: [2]map[int64][]int64{{}, {}}}
	s := g.mem
	s.level[1] = gpuBase + int64(m.PreTrace)<<20
	s.maxLvl[1] = s.level[1]
	for k := 0; k < m.PreTrace; k++ {
		a := &memAlloc{dev: 1, tid: mainTid, at: -1, freeAt: 500_000 + int64(k)*100, bytes: 1 << 20, step: -1, addr: preAddr0 + int64(k)<<20}
		s.pending = append(s.pending, memRec{ts: a.freeAt, a: a, bytes: -a.bytes, pre: true})
	}
	g.memFlush()
}

// memOp makes the allocations of one cpu_op.
func (g *writer) memOp(name string, tid int, ts, dur int64) {
	if !g.memOn() {
		return
	}
	s := g.mem
	h := fnv.New32a()
	h.Write([]byte(name))
	mult := int64(1 + h.Sum32()%16)
	for k := 0; k < s.cfg.AllocsPerOp; k++ {
		g.memAdd(1, tid, name, ts+1+int64(k), ts+dur-1-int64(k), 4096*int64(k+1)*mult)
	}
	if s.cfg.CPU && tid == mainTid {
		k := int64(s.cfg.AllocsPerOp)
		g.memAdd(0, tid, name, ts+1+k, ts+dur-1-k, 64*(1+int64(h.Sum32()%5)))
	}
}

// memAdd records an allocation (freeAt -1: never freed).
func (g *writer) memAdd(dev, tid int, op string, at, freeAt, bytes int64) {
	s := g.mem
	a := &memAlloc{dev: dev, tid: tid, op: op, at: at, freeAt: freeAt, bytes: bytes, step: s.step}
	s.all = append(s.all, a)
	s.pending = append(s.pending, memRec{ts: at, a: a, bytes: bytes})
	if freeAt >= 0 {
		s.pending = append(s.pending, memRec{ts: freeAt, a: a, bytes: -bytes})
	}
}

// memStepBody adds a step's own allocations: the one outside every op,
// the leak, the CPU thread without events. maEnd is matmul_add's end;
// the main thread is idle for 10us after it.
func (g *writer) memStepBody(maEnd, stepStart int64) {
	if !g.memOn() {
		return
	}
	s := g.mem
	if s.cfg.AllocsPerOp > 0 {
		if c := s.carry; c != nil {
			c.freeAt = maEnd + 700
			s.pending = append(s.pending, memRec{ts: c.freeAt, a: c, bytes: -c.bytes})
		}
		g.memAdd(1, mainTid, "", maEnd+500, -1, 8192)
		s.carry = s.all[len(s.all)-1]
	}
	if s.cfg.LeakBytes > 0 {
		at := maEnd + 2_000
		ext := g.ext
		g.ext++
		g.x("cpu_op", "aten::empty", [2]int{pid, mainTid}, at, 3_000, g.opArgs(ext, "[[], [], [], [], [], []]", "[\"ScalarList\", \"Scalar\", \"\", \"Device\", \"Scalar\", \"\"]"))
		g.f.CPUOps++
		g.memAdd(1, mainTid, "aten::empty", at+1, -1, s.cfg.LeakBytes)
	}
	if s.cfg.CPU {
		g.memAdd(0, memTid, "", stepStart+500, stepStart+900, 4096)
	}
}

// memStepStart and memStepEnd bracket the step being written.
func (g *writer) memStepStart() {
	if g.memOn() {
		g.mem.step = len(g.mem.steps)
	}
}

func (g *writer) memStepEnd(start, end int64) {
	if !g.memOn() {
		return
	}
	g.mem.steps = append(g.mem.steps, [2]int64{start, end})
	g.mem.step = -1
	g.memFlush()
}

// memFlush writes the pending records in time order with their
// addresses and totals. Every allocation made in a step is freed in it or
// never, so a step's records can be written at its end.
func (g *writer) memFlush() {
	s := g.mem
	slices.SortStableFunc(s.pending, func(a, b memRec) int { return cmp.Compare(a.ts, b.ts) })
	for _, r := range s.pending {
		d := r.a.dev
		switch {
		case r.pre:
		case r.bytes > 0:
			r.a.addr = s.addr(d, r.bytes)
		default:
			if s.cfg.Reuse {
				s.freeL[d][r.a.bytes] = append(s.freeL[d][r.a.bytes], r.a.addr)
			}
		}
		s.level[d] += r.bytes
		s.maxLvl[d] = max(s.maxLvl[d], s.level[d])
		resv := int64(0)
		if d == 1 {
			resv = (s.maxLvl[d] + reserveUnit - 1) / reserveUnit * reserveUnit
		}
		tid := r.a.tid
		devType, devID := 0, -1
		if d == 1 {
			devType, devID = 1, 0
		}
		g.sep()
		b := g.buf[:0]
		b = append(b, `  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": `...)
		b = strconv.AppendInt(b, pid, 10)
		b = append(b, `, "tid": `...)
		b = strconv.AppendInt(b, int64(tid), 10)
		b = append(b, `, "ts": `...)
		b = appendTs(b, r.ts)
		b = append(b, `, "args": {"Total Reserved": `...)
		b = strconv.AppendInt(b, resv, 10)
		b = append(b, `, "Total Allocated": `...)
		b = strconv.AppendInt(b, s.level[d], 10)
		b = append(b, `, "Bytes": `...)
		b = strconv.AppendInt(b, r.bytes, 10)
		b = append(b, `, "Addr": `...)
		b = strconv.AppendInt(b, r.a.addr, 10)
		b = append(b, `, "Device Id": `...)
		b = strconv.AppendInt(b, int64(devID), 10)
		b = append(b, `, "Device Type": `...)
		b = strconv.AppendInt(b, int64(devType), 10)
		b = append(b, `}}`...)
		g.w.Write(b)
		g.buf = b
		s.written = append(s.written, r)
		s.resv = append(s.resv, resv)
	}
	s.pending = s.pending[:0]
}

// addr hands out an address for a new allocation.
func (s *memState) addr(d int, bytes int64) int64 {
	if fl := s.freeL[d][bytes]; len(fl) > 0 {
		a := fl[len(fl)-1]
		s.freeL[d][bytes] = fl[:len(fl)-1]
		return a
	}
	a := s.next[d]
	s.next[d] += (bytes + 511) / 512 * 512
	return a
}

// memFacts computes the truth from the allocations made: levels by
// walking the records in time order, alive and survivors from each
// allocation's own times, lifetimes from its free time.
func (g *writer) memFacts() *MemoryFacts {
	if !g.memOn() {
		return nil
	}
	s := g.mem
	out := &MemoryFacts{}
	for d := 0; d < 2; d++ {
		f := MemDeviceFacts{Type: d, ID: -1 + d, Alive: map[string]MemGroupFacts{}, Lifetimes: map[string]MemLifeFacts{}, Survivors: map[string]MemSurvivorFacts{}}
		if d == 1 {
			f.StartAllocated = gpuBase + int64(s.cfg.PreTrace)<<20
		}
		lvl := f.StartAllocated
		var levels []int64 // after each record of the device
		var times []int64
		peak := -1
		for k, r := range s.written {
			if r.a.dev != d {
				continue
			}
			if f.Records > 0 && r.ts == times[len(times)-1] {
				f.Ties++
			}
			f.Records++
			if r.bytes > 0 {
				f.Allocations++
			} else {
				f.Frees++
			}
			if r.pre {
				f.PreTraceFrees++
				f.PreTraceFreedBytes -= r.bytes
			}
			lvl += r.bytes
			if peak < 0 || lvl > f.PeakBytes {
				peak, f.PeakBytes, f.PeakNs, f.PeakOp = k, lvl, r.ts, r.a.op
			}
			f.PeakReservedBytes = max(f.PeakReservedBytes, s.resv[k])
			levels = append(levels, lvl)
			times = append(times, r.ts)
		}
		if f.Records == 0 {
			continue
		}
		for _, st := range s.steps {
			before := func(ns int64) int64 {
				v := f.StartAllocated
				for k, ts := range times {
					if ts < ns {
						v = levels[k]
					}
				}
				return v
			}
			a, b := before(st[0]), before(st[1])
			f.StepStart = append(f.StepStart, a)
			f.StepGrowth = append(f.StepGrowth, b-a)
		}
		survSteps := map[string]map[int]bool{}
		for _, a := range s.all {
			if a.dev != d {
				continue
			}
			if a.at <= f.PeakNs && (a.freeAt < 0 || a.freeAt > f.PeakNs) {
				grp := f.Alive[a.op]
				if grp.Count == 0 || a.at < grp.OldestNs {
					grp.OldestNs = a.at
				}
				grp.Bytes += a.bytes
				grp.Count++
				f.Alive[a.op] = grp
				f.AliveBytes += a.bytes
			}
			lt := f.Lifetimes[a.op]
			lt.Count++
			lt.Bytes += a.bytes
			lt.MaxBytes = max(lt.MaxBytes, a.bytes)
			if a.freeAt >= 0 {
				lt.Freed++
				lt.Lifetimes = append(lt.Lifetimes, a.freeAt-a.at)
			} else {
				lt.NeverFreed++
			}
			f.Lifetimes[a.op] = lt
			if a.step >= 0 && (a.freeAt < 0 || a.freeAt >= s.steps[a.step][1]) {
				sv := f.Survivors[a.op]
				sv.Bytes += a.bytes
				sv.Count++
				if a.freeAt < 0 {
					sv.NeverFreedBytes += a.bytes
					sv.NeverFreedCount++
				}
				if survSteps[a.op] == nil {
					survSteps[a.op] = map[int]bool{}
				}
				survSteps[a.op][a.step] = true
				sv.Steps = len(survSteps[a.op])
				f.Survivors[a.op] = sv
			}
		}
		for op, lt := range f.Lifetimes {
			slices.Sort(lt.Lifetimes)
			f.Lifetimes[op] = lt
		}
		out.Devices = append(out.Devices, f)
	}
	return out
}
