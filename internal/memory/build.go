package memory

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/tracetab/tracetab/internal/trace"
)

// Build computes the memory model of t (see the package doc for every
// definition). A trace without [memory] records gives a Model with no
// devices and a note naming profile_memory=True.
func Build(t *trace.Trace, o Options) *Model {
	share := o.LeakShare
	switch {
	case share == 0:
		share = DefaultLeakShare
	case share < 0:
		share = 0
	}
	m := &Model{LeakShare: share, Steps: []StepWindow{}, Devices: []*Device{}, Notes: []string{}}
	steps := t.StepWindows()
	for _, s := range steps {
		m.Steps = append(m.Steps, StepWindow{N: s.N, StartNs: s.Start - t.TraceStart, EndNs: s.End - t.TraceStart})
	}
	m.WindowStartNs, m.WindowEndNs = window(t)

	// the records of each device, in file order: counted, then filled
	// (a trace has a handful of devices and millions of records)
	var keys [][2]int8
	var counts []int
	dev := make([]uint8, len(t.Mem)) // index into keys
	last := -1
	for i := range t.Mem {
		r := &t.Mem[i]
		k := [2]int8{r.DevType, r.DevID}
		if last < 0 || keys[last] != k {
			last = slices.Index(keys, k)
			if last < 0 {
				if len(keys) == 255 {
					dev[i] = 255 // more devices than any machine has: the rest are left out
					continue
				}
				keys, counts, last = append(keys, k), append(counts, 0), len(keys)
			}
		}
		dev[i] = uint8(last)
		counts[last]++
		if r.OOM {
			m.OutOfMemory++
		} else {
			m.Records++
		}
	}
	byDev := map[[2]int8][]int32{}
	for k, key := range keys {
		byDev[key] = make([]int32, 0, counts[k])
	}
	for i := range t.Mem {
		if dev[i] == 255 {
			continue
		}
		k := keys[dev[i]]
		byDev[k] = append(byDev[k], int32(i))
	}
	dev = nil
	if len(t.Mem) == 0 {
		m.Notes = append(m.Notes, "the trace has no [memory] events: profile with profile_memory=True to record every allocation and free")
		return m
	}
	slices.SortFunc(keys, func(a, b [2]int8) int {
		if c := cmp.Compare(typeRank(a[0]), typeRank(b[0])); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	loc := newLocator(t)
	b := &builder{t: t, steps: steps, loc: loc, share: share}
	for _, k := range keys {
		d := b.device(k[0], k[1], byDev[k])
		if d == nil {
			continue
		}
		m.Devices = append(m.Devices, d)
	}
	m.Notes = append(m.Notes, notes(m)...)
	return m
}

// typeRank puts the CPU first, then the device types in c10's order.
func typeRank(dt int8) int {
	if dt == 0 {
		return -1
	}
	return int(dt)
}

// window is the trace's span from the origin: every event and record.
func window(t *trace.Trace) (lo, hi int64) {
	lo, hi = t.TraceStart, t.TraceStart
	for _, c := range t.Events.Chunks() {
		for k := range c {
			e := &c[k]
			lo = min(lo, e.Start)
			hi = max(hi, e.End())
		}
	}
	for i := range t.Mem {
		lo = min(lo, t.Mem[i].Ts)
		hi = max(hi, t.Mem[i].Ts)
	}
	return lo - t.TraceStart, hi - t.TraceStart
}

type builder struct {
	t     *trace.Trace
	steps []trace.Step
	loc   *locator
	share float64
}

// device builds one device from its records (indices into t.Mem, in file
// order; the list is reused); nil when it has only [OutOfMemory] records.
func (b *builder) device(dt, id int8, recs []int32) *Device {
	t := b.t
	d := &Device{Type: dt, ID: int(id), TypeName: TypeName(dt), Steps: []StepMemory{}, Lifetimes: []Lifetime{}}
	d.Name = d.TypeName
	if id >= 0 {
		d.Name += ":" + itoa(int(id))
	}
	// the [memory] records in time order (file order among equal times),
	// filtered in place: recs is the device's own list
	ord := recs[:0]
	for _, i := range recs {
		if t.Mem[i].OOM {
			d.OutOfMemory++
			continue
		}
		ord = append(ord, i)
	}
	if len(ord) == 0 {
		return nil
	}
	byTime := func(a, c int32) int { return cmp.Compare(t.Mem[a].Ts, t.Mem[c].Ts) }
	if !slices.IsSortedFunc(ord, byTime) {
		slices.SortStableFunc(ord, byTime)
	}
	d.Records = len(ord)
	d.Totals, d.Reserved, d.Addrs = true, true, true
	for _, i := range ord {
		h := t.Mem[i].Has
		d.Totals = d.Totals && h&trace.MemHasTotal != 0
		d.Reserved = d.Reserved && h&trace.MemHasReserved != 0
		d.Addrs = d.Addrs && h&trace.MemHasAddr != 0
	}
	b.curve(d, ord)
	b.stepLevels(d, ord)
	if d.Addrs {
		b.match(d, ord)
	} else {
		d.Alive.Groups = []AliveGroup{}
	}
	b.leak(d)
	return d
}

// curve fills the series, the counts, the start and end levels and the
// peaks.
func (b *builder) curve(d *Device, ord []int32) {
	t := b.t
	first := &t.Mem[ord[0]]
	if d.Totals {
		d.Start.Allocated = first.TotalAlloc - first.Bytes
	}
	if d.Reserved {
		d.Start.Reserved = first.TotalReserved
	}
	d.Series = make([]Point, len(ord))
	lvl := d.Start.Allocated
	d.Peak.Record, d.PeakReserved.Record = -1, -1
	for j, i := range ord {
		r := &t.Mem[i]
		switch {
		case r.Bytes > 0:
			d.Allocations++
			d.AllocBytes += r.Bytes
		case r.Bytes < 0:
			d.Frees++
			d.FreedBytes -= r.Bytes
		}
		if d.Totals {
			if j > 0 && r.TotalAlloc != lvl+r.Bytes {
				d.Inconsistent++
			}
			lvl = r.TotalAlloc
		} else {
			lvl += r.Bytes
		}
		var resv int64
		if d.Reserved {
			resv = r.TotalReserved
		}
		ns := r.Ts - t.TraceStart
		d.Series[j] = Point{Ns: ns, Allocated: lvl, Reserved: resv}
		if d.Peak.Record < 0 || lvl > d.Peak.Bytes {
			d.Peak.Bytes, d.Peak.Ns, d.Peak.Record = lvl, ns, int(i)
		}
		if d.Reserved && (d.PeakReserved.Record < 0 || resv > d.PeakReserved.Bytes) {
			d.PeakReserved.Bytes, d.PeakReserved.Ns, d.PeakReserved.Record = resv, ns, int(i)
		}
	}
	last := d.Series[len(d.Series)-1]
	d.End = Level{Allocated: last.Allocated, Reserved: last.Reserved}
	d.Peak.AboveStartBytes = d.Peak.Bytes - d.Start.Allocated
	d.PeakReserved.AboveStartBytes = d.PeakReserved.Bytes - d.Start.Reserved
	b.place(&d.Peak, true)
	if d.PeakReserved.Record >= 0 {
		b.place(&d.PeakReserved, false)
	}
}

// place sets a peak's step and, with frames, its op, annotation and
// Python frame.
func (b *builder) place(p *Peak, frames bool) {
	r := &b.t.Mem[p.Record]
	if k := trace.StepAt(b.steps, r.Ts); k >= 0 {
		p.Step, p.InStep = b.steps[k].N, true
	}
	if frames {
		f := b.loc.frames(r.Track, r.Ts)
		p.Op, p.Annotation, p.Python = f.op, f.annotation, f.python
	}
}

// levelBefore is the level after the last point before ns (ns from the
// origin), the device's start level when there is none, and the index of
// the first point at or after ns.
func levelBefore(d *Device, ns int64) (Level, int) {
	j, _ := slices.BinarySearchFunc(d.Series, ns, func(p Point, x int64) int { return cmp.Compare(p.Ns, x) })
	if j == 0 {
		return d.Start, 0
	}
	p := d.Series[j-1]
	return Level{Allocated: p.Allocated, Reserved: p.Reserved}, j
}

func (b *builder) stepLevels(d *Device, ord []int32) {
	t := b.t
	for _, s := range b.steps {
		sm := StepMemory{N: s.N, StartNs: s.Start - t.TraceStart, EndNs: s.End - t.TraceStart}
		var j0, j1 int
		sm.Start, j0 = levelBefore(d, sm.StartNs)
		sm.End, j1 = levelBefore(d, sm.EndNs)
		sm.GrowthBytes = sm.End.Allocated - sm.Start.Allocated
		sm.PeakBytes = sm.Start.Allocated
		for j := j0; j < j1; j++ {
			sm.PeakBytes = max(sm.PeakBytes, d.Series[j].Allocated)
			switch r := &t.Mem[ord[j]]; {
			case r.Bytes > 0:
				sm.Allocations++
			case r.Bytes < 0:
				sm.Frees++
			}
		}
		d.Steps = append(d.Steps, sm)
	}
}

// leak applies the leak rule to the step levels.
func (b *builder) leak(d *Device) {
	l := &d.Leak
	l.Share = b.share
	switch {
	case len(d.Steps) < 2:
		l.Reason = "growth across steps needs two ProfilerStep#N or more, the trace has " + itoa(len(d.Steps))
		return
	case !d.Totals:
		l.Reason = "the records carry no Total Allocated (torch before 1.10): the allocated at a step's start is not known"
		return
	}
	l.Judged = true
	l.MinGrowthBytes = d.Steps[0].GrowthBytes
	for _, s := range d.Steps {
		l.TotalGrowthBytes += s.GrowthBytes
		l.MinGrowthBytes = min(l.MinGrowthBytes, s.GrowthBytes)
		if float64(s.GrowthBytes) > b.share*float64(s.Start.Allocated) && s.GrowthBytes > 0 {
			l.GrowingSteps++
		}
	}
	l.Flagged = l.GrowingSteps == len(d.Steps)
}

// TypeName is torch's name of a c10::DeviceType.
func TypeName(dt int8) string {
	names := [...]string{"cpu", "cuda", "mkldnn", "opengl", "opencl", "ideep", "hip", "fpga", "maia", "xla",
		"vulkan", "metal", "xpu", "mps", "meta", "hpu", "ve", "lazy", "ipu", "mtia", "privateuseone"}
	switch {
	case dt >= 0 && int(dt) < len(names):
		return names[dt]
	case dt < 0:
		return "unknown" // the record had no Device Type
	}
	return "type" + itoa(int(dt))
}

func itoa(n int) string { return strconv.Itoa(n) }
