package parse

import (
	"fmt"
	"io"
	"sync/atomic"
	"unsafe"

	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// The memory bound (Options.MaxMemory).
//
// What a trace needs is estimated from the model the parser has built so
// far (events, extras, strings, flows: their exact sizes) times needFactor,
// the headroom the analyses take on top of the model (measured: info's
// peak RSS is 1.2 times the model on a 6 M event trace, table's 2.2 times,
// and 3.7 times on a gzip bomb of one event repeated 49 M times).
// The estimate is checked every checkEvery bytes of JSON:
//   - when it passes the bound, reading stops: the trace does not fit;
//   - once a sample of the input is read, it is projected to the whole
//     input (the file's size; for gzip, the compressed size times the ratio
//     seen so far): a trace projected past 1.5 times the bound stops early,
//     so a gzip bomb is refused after a few megabytes, with its ratio.
const (
	needFactor = 4
	checkEvery = 4 << 20
	sampleMin  = 32 << 20
)

// countingReader counts the bytes read through it (the compressed bytes
// of a gzip input, read on the readahead goroutine).
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// modelBytes is the memory held by what the parser has built so far.
func (p *parser) modelBytes() int64 {
	t := p.t
	n := int64(t.Events.Len())*int64(unsafe.Sizeof(trace.Event{})) +
		int64(t.Extras.Len())*int64(unsafe.Sizeof(trace.Extra{})) +
		int64(t.Aux.Len())*int64(unsafe.Sizeof(trace.Aux{})) +
		int64(len(t.Flows))*int64(unsafe.Sizeof(trace.Flow{})) +
		int64(len(t.Mem)+p.mem.Len())*int64(unsafe.Sizeof(trace.MemEvent{})) +
		int64(len(t.Tracks))*int64(unsafe.Sizeof(trace.Track{})) +
		int64(len(t.BigIDs))*8 + // ids beyond an Event's 32 bits
		// each string: its bytes, its header in Strings, its map entry
		p.strBytes*2 + int64(len(t.Strings))*48
	return n
}

// memCheck stops reading when the trace will not fit in opts.MaxMemory.
func (p *parser) memCheck() error {
	return p.memCheckAt(p.sc.offset())
}

// memCheckAt is memCheck with the parser's events read up to pos.
// minSample is the least text a projection of the memory need is made from.
const minSample = 64 << 10

func (p *parser) memCheckAt(pos int64) error {
	if p.opts.MaxMemory <= 0 || pos < p.nextCheck {
		return nil
	}
	p.nextCheck = pos + checkEvery
	need := p.modelBytes() * needFactor
	read := pos - p.startOff // JSON read by this parser (a segment worker reads its part)
	total := int64(-1)       // JSON bytes of the whole input, when known or projected
	ratio := 0.0
	switch {
	case p.gzIn != nil:
		if c := p.gzIn.n.Load(); c > 0 {
			ratio = float64(pos) / float64(c)
			if p.inSize > 0 {
				total = int64(ratio * float64(p.inSize))
			}
		}
	case p.inSize > 0:
		total = p.inSize
	}
	limit := p.opts.MaxMemory
	if need <= limit {
		// no projection from a sample too small to tell a density (a
		// segment worker's last few events, a tiny file)
		if total <= 0 || read < sampleMin && read < (total-p.startOff)/2 || read < minSample {
			return nil
		}
		proj := int64(float64(need) * float64(total-p.projFrom) / float64(read))
		if proj <= limit+limit/2 {
			return nil
		}
		need = proj
	}
	what := "the trace"
	if total > 0 {
		what = "about " + units.Bytes(total) + " of JSON"
	}
	if ratio > 0 {
		what += fmt.Sprintf(" (the gzip data expands %.0f:1)", ratio)
	}
	e := p.errAt(pos, fmt.Sprintf("too large for the memory bound: %s would need about %s to analyse (from %d events in %s read), more than --max-memory %s; "+
		"raise --max-memory if the machine has it, or profile fewer steps (torch.profiler schedule active=N) or fewer ranks per file",
		what, units.Bytes(need), p.t.NumEvents(), units.Bytes(read), units.Bytes(limit)))
	e.TooLarge = true
	return e
}
