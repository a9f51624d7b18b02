package export

import (
	"context"

	"github.com/tracetab/tracetab/internal/atomicfile"
	"github.com/tracetab/tracetab/internal/pqcol"
	"github.com/tracetab/tracetab/internal/trace"
)

// eventBlockRows is the rows of one block of the events file: one data
// page per column (256 KiB of an int64 column, parquet-go's page size).
const eventBlockRows = 32 << 10

// The events dataset is written column by column (internal/pqcol), not
// through parquet-go's row writer: 34 columns of every event were 0.53 s
// of the 2.9 s that export took on the 200 MB export-shape trace (info:
// 0.6 s), most of it the rows' deconstruction and the hashing of every
// string for the dictionaries; here strings go as the trace's interned
// ids. TestEventsColumnsEqualRows holds the files to the row writer's,
// value for value. EventRow stays the dataset's schema.

// opt is a block of an optional column: the values present, and a
// definition level per row.
type opt[T any] struct {
	v []T
	d []byte
}

// put appends x. (Two appends, not one assignment of both: each slice is
// then stored back only when it grows; the pair assigned at once stored
// both slice headers, paying the write barrier for each value while the
// collector marks.)
func (o *opt[T]) put(x T) {
	o.v = append(o.v, x)
	o.d = append(o.d, 1)
}
func (o *opt[T]) null()  { o.d = append(o.d, 0) }
func (o *opt[T]) reset() { o.v, o.d = o.v[:0], o.d[:0] }

// putPtr puts *p, or a null for nil.
func (o *opt[T]) putPtr(p *T) {
	if p == nil {
		o.null()
		return
	}
	o.put(*p)
}

// eventBlock holds a block of rows, column by column, in EventRow's order.
type eventBlock struct {
	traceID                 []uint32
	rank                    opt[int64]
	event                   []int64
	category, name          []uint32
	pid                     opt[int64]
	pidText                 opt[uint32]
	tid                     opt[int64]
	tidText                 opt[uint32]
	device                  opt[int32]
	stream                  opt[int64]
	start, dur              []int64
	corr, ext, step, parent opt[int64]
	launchCall, launchOp    opt[int64]
	unfinished              []bool
	dims, types, stack      opt[uint32]
	grid, block             [3]opt[int32]
	regs                    opt[int32]
	shared, bytes           opt[int64]
	pg                      opt[uint32]
	seq                     opt[int64]
}

func (b *eventBlock) reset() {
	b.traceID, b.event, b.category, b.name = b.traceID[:0], b.event[:0], b.category[:0], b.name[:0]
	b.start, b.dur, b.unfinished = b.start[:0], b.dur[:0], b.unfinished[:0]
	for _, o := range []*opt[int64]{&b.rank, &b.pid, &b.tid, &b.stream, &b.corr, &b.ext, &b.step, &b.parent,
		&b.launchCall, &b.launchOp, &b.shared, &b.bytes, &b.seq} {
		o.reset()
	}
	for _, o := range []*opt[uint32]{&b.pidText, &b.tidText, &b.dims, &b.types, &b.stack, &b.pg} {
		o.reset()
	}
	for _, o := range []*opt[int32]{&b.device, &b.grid[0], &b.grid[1], &b.grid[2], &b.block[0], &b.block[1], &b.block[2], &b.regs} {
		o.reset()
	}
}

// fill takes rows lo..hi-1 of t's events (the event column being the
// index); of is eventSteps(t).
func (b *eventBlock) fill(c *common, t *trace.Trace, of []int32, lanes []lane, lo, hi int) {
	b.reset()
	l := t.Links()
	steps := t.StepWindows()
	for i := lo; i < hi; i++ {
		e := t.Ev(i)
		ln := &lanes[e.Track]
		b.traceID = append(b.traceID, 0)
		b.rank.putPtr(c.rank)
		b.event = append(b.event, int64(i))
		b.category = append(b.category, uint32(e.Kind))
		b.name = append(b.name, uint32(e.Name))
		b.pid.putPtr(ln.pid)
		putText(&b.pidText, ln.pidText, e.Track)
		b.tid.putPtr(ln.tid)
		putText(&b.tidText, ln.tidText, e.Track)
		b.device.putPtr(ln.device)
		b.stream.putPtr(ln.stream)
		b.start = append(b.start, e.Start-t.TraceStart)
		b.dur = append(b.dur, e.Dur)
		putIf(&b.corr, e.Has(trace.FlagCorr), t.CorrOf(e))
		putIf(&b.ext, e.Has(trace.FlagExtID), t.ExtIDOf(e))
		if k := of[i]; k >= 0 {
			b.step.put(steps[k].N)
		} else {
			b.step.null()
		}
		putIf(&b.parent, l.Parent[i] >= 0, int64(l.Parent[i]))
		call, op := int32(-1), int32(-1)
		if x := l.Launch[i]; x >= 0 {
			switch {
			case e.Kind.IsLaunch():
				op = x
			case e.Kind.IsDevice():
				call, op = x, l.Launch[x]
			}
		}
		putIf(&b.launchCall, call >= 0, int64(call))
		putIf(&b.launchOp, op >= 0, int64(op))
		b.unfinished = append(b.unfinished, e.Has(trace.FlagUnfinished))
		b.extra(t, i)
	}
}

// extra fills the columns of the args (shapes, stack, launch parameters,
// bytes, collective fields): nulls for an event without them.
func (b *eventBlock) extra(t *trace.Trace, i int) {
	var x *trace.Extra
	var a *trace.Aux
	if x = t.ExtraOf(i); x != nil {
		a = t.AuxOf(i)
	}
	if x == nil {
		b.dims.null()
		b.types.null()
		b.stack.null()
	} else {
		putIf(&b.dims, x.InputDims != 0, uint32(x.InputDims))
		putIf(&b.types, x.InputTypes != 0, uint32(x.InputTypes))
		putIf(&b.stack, x.Stack != 0, uint32(x.Stack))
	}
	if a == nil {
		for k := range 3 {
			b.grid[k].null()
			b.block[k].null()
		}
		b.regs.null()
		b.shared.null()
		b.bytes.null()
		b.pg.null()
		b.seq.null()
		return
	}
	for k := range 3 {
		putIf(&b.grid[k], a.HasLaunch, a.Grid[k])
		putIf(&b.block[k], a.HasLaunch, a.Block[k])
	}
	putIf(&b.regs, a.Regs >= 0, a.Regs)
	putIf(&b.shared, a.SharedMem >= 0, a.SharedMem)
	putIf(&b.bytes, a.Bytes >= 0, a.Bytes)
	putIf(&b.pg, a.PG != 0, uint32(a.PG))
	putIf(&b.seq, a.Seq >= 0, a.Seq)
}

func putIf[T any](o *opt[T], ok bool, v T) {
	if ok {
		o.put(v)
	} else {
		o.null()
	}
}

// putText keys a lane's pid or tid text by its track.
func putText(o *opt[uint32], s *string, track int32) {
	if s == nil {
		o.null()
		return
	}
	o.put(uint32(track))
}

// write gives the block's columns to w, in EventRow's order.
func (b *eventBlock) write(w *pqcol.Writer, c *common, t *trace.Trace, lanes []lane) {
	w.BeginBlock(len(b.event))
	str := func(k uint32) string { return t.Str(trace.StrID(k)) }
	w.Strings(b.traceID, nil, func(uint32) string { return c.id })
	w.Int64(b.rank.v, b.rank.d)
	w.Int64Delta(b.event, nil)
	w.Strings(b.category, nil, func(k uint32) string { return trace.Kind(k).String() })
	w.Strings(b.name, nil, str)
	w.Int64(b.pid.v, b.pid.d)
	w.Strings(b.pidText.v, b.pidText.d, func(k uint32) string { return *lanes[k].pidText })
	w.Int64(b.tid.v, b.tid.d)
	w.Strings(b.tidText.v, b.tidText.d, func(k uint32) string { return *lanes[k].tidText })
	w.Int32(b.device.v, b.device.d)
	w.Int64(b.stream.v, b.stream.d)
	w.Int64Delta(b.start, nil)
	w.Int64(b.dur, nil)
	// ids and indices that grow with the file's order: as deltas
	w.Int64Delta(b.corr.v, b.corr.d)
	w.Int64Delta(b.ext.v, b.ext.d)
	w.Int64(b.step.v, b.step.d)
	for _, o := range []*opt[int64]{&b.parent, &b.launchCall, &b.launchOp} {
		w.Int64Delta(o.v, o.d)
	}
	w.Bool(b.unfinished, nil)
	for _, o := range []*opt[uint32]{&b.dims, &b.types, &b.stack} {
		w.Strings(o.v, o.d, str)
	}
	for _, o := range []*opt[int32]{&b.grid[0], &b.grid[1], &b.grid[2], &b.block[0], &b.block[1], &b.block[2], &b.regs} {
		w.Int32(o.v, o.d)
	}
	w.Int64(b.shared.v, b.shared.d)
	w.Int64(b.bytes.v, b.bytes.d)
	w.Strings(b.pg.v, b.pg.d, str)
	w.Int64(b.seq.v, b.seq.d)
}

// writeEventsFile writes the events lo..hi-1 of t as one file of the
// events dataset, in row groups of spec.rowGroups rows.
func writeEventsFile(ctx context.Context, s *fileSpec, c *common, t *trace.Trace, of []int32, lo, hi int) (*atomicfile.File, int64, int64, error) {
	meta, err := templateOf[EventRow](s, DatasetEvents)
	if err != nil {
		return nil, 0, 0, err
	}
	out, err := createOut(s.path(DatasetEvents))
	if err != nil {
		return nil, 0, 0, err
	}
	if err := encodeEvents(ctx, pqcol.New(out, meta, s.codec), s.rowGroups, c, t, of, lo, hi); err != nil {
		out.abort()
		return nil, 0, 0, err
	}
	f, size, err := out.done()
	if err != nil {
		return nil, 0, 0, err
	}
	return f, int64(hi - lo), size, nil
}

// encodeEvents writes the events lo..hi-1 to w in row groups of rowGroups
// rows, a block at a time, and closes it.
func encodeEvents(ctx context.Context, w *pqcol.Writer, rowGroups int64, c *common, t *trace.Trace, of []int32, lo, hi int) error {
	lanes := laneCols(t)
	var b eventBlock
	inGroup := int64(0)
	for i := lo; i < hi; {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(hi-i, eventBlockRows, int(rowGroups-inGroup))
		b.fill(c, t, of, lanes, i, i+n)
		b.write(w, c, t, lanes)
		if err := w.EndBlock(); err != nil {
			return err
		}
		i += n
		if inGroup += int64(n); inGroup == rowGroups {
			if err := w.EndRowGroup(); err != nil {
				return err
			}
			inGroup = 0
		}
	}
	return w.Close()
}
