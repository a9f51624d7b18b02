package table

import (
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/trace"
)

// memPass is the averaging's memory columns made on a goroutine of their
// own once the tree is built (buildBeside), while the averaging makes the
// time columns: the same sums as memTotals within average (int64 bytes,
// so their order does not matter), per row key (name and, from torch 2.5,
// user annotation) instead of per row, and given to the rows at the end.
// Only for rows keyed by name (not by shapes or stacks); device rows hold
// no memory (a device op's usage is 0, and it is no one's parent).
// (The Kineto bench shape at 200 MB: memTotals was 7.5 of the averaging's
// 19 ms.)
type memPass struct {
	f      *fevents
	v      Version
	annKey bool
	keys   keyer    // the pass's own (the averaging numbers its keys as it goes)
	acc    []memAcc // by slot: key * 2 + annotation
	wait   func()   // for the pass (a panic there is raised again)
}

type memAcc struct{ cpu, dev, selfCPU, selfDev int64 }

// startMemPass starts the pass; it waits for the tree.
func startMemPass(f *fevents, v Version) *memPass {
	m := &memPass{f: f, v: v, annKey: v.keyHasUserAnnotation(), keys: newKeyer(f.t)}
	m.wait = safe.Go(func() {
		if <-f.treeDone; f.treeBuilt {
			m.run()
		}
	})
	return m
}

func (m *memPass) run() {
	f := m.f
	mt := newMemTotals(f, m.v) // its parentRow holds the parent's slot + 1 here
	keys := &m.keys
	for i := 0; i < f.n(); i++ {
		// every position's usage, kept or not, leaves its parent's self
		cpu, dev := mt.at(i)
		if ps := mt.parentRow[i]; ps > 0 {
			m.acc[ps-1].selfCPU -= cpu
			m.acc[ps-1].selfDev -= dev
		}
		if f.deleted(i) {
			continue
		}
		kind := f.kindAt(i)
		if kind.IsDevice() || (kind == trace.KindPython && m.v.skipsPythonFunctions()) {
			continue
		}
		slot := int(keys.at(f, i))*2 + b2i(m.annKey && isAnnKind(kind))
		for len(m.acc) <= slot {
			m.acc = append(m.acc, memAcc{})
		}
		a := &m.acc[slot]
		a.cpu += cpu
		a.dev += dev
		a.selfCPU += cpu
		a.selfDev += dev
		for ch := f.firstChild[i]; ch >= 0; ch = f.nextSib[ch] {
			mt.parentRow[ch] = int32(slot + 1)
		}
	}
}

// fill waits for the pass and gives each row its memory.
func (m *memPass) fill(rows []Row) {
	m.wait()
	keys := &m.keys
	for i := range rows {
		r := &rows[i]
		if r.Device {
			continue
		}
		id, ok := keys.keyIndex[r.Name]
		if !ok {
			continue
		}
		if slot := int(id)*2 + b2i(m.annKey && r.UserAnn); slot < len(m.acc) {
			a := m.acc[slot]
			r.CPUMem, r.DevMem, r.SelfCPUMem, r.SelfDevMem = a.cpu, a.dev, a.selfCPU, a.selfDev
		}
	}
}
