package gaps

import "encoding/binary"

// A listed gap of a report made with AllGaps and LazyGaps is kept
// encoded, not as a gapRec: a gapRec is 240 bytes, most of them event
// indices of -1, shares of 0 and times close to the gap's start, and
// export lists every gap of a trace (107 thousand on the 200 MB default
// bench shape: 26.6 MB of records, a third of export's live heap at its
// peak). The encoding is lossless: each field is a varint of its
// difference from a reference (wrapping int64 arithmetic undoes itself),
// -1 sentinels of times in flags.

const (
	recPrevLaunchUnset = 1 << iota // prevLaunchT == -1
	recNextLaunchUnset             // nextLaunchT == -1
	recBlocking
)

// maxRecBytes bounds a record's encoding.
const maxRecBytes = 4*binary.MaxVarintLen64 + 4 + 8*binary.MaxVarintLen32 + (2+5+int(numCauses))*binary.MaxVarintLen64

// appendRec appends g's encoding to b; base is a time the list's records
// are near (the first one's start), so starts take a few bytes.
func appendRec(b []byte, g *gapRec, base int64) []byte {
	// dev, s and the length first: sort reads them alone (keyOfRec)
	b = binary.AppendVarint(b, int64(g.dev))
	b = binary.AppendVarint(b, g.s-base)
	b = binary.AppendVarint(b, g.e-g.s)
	b = binary.AppendVarint(b, g.e-g.s-g.clipped)
	var flags byte
	if g.prevLaunchT == -1 {
		flags |= recPrevLaunchUnset
	}
	if g.nextLaunchT == -1 {
		flags |= recNextLaunchUnset
	}
	if g.blocking {
		flags |= recBlocking
	}
	b = append(b, byte(g.edge), byte(g.kind), byte(g.cause), flags)
	for _, i := range [...]int32{g.prev, g.next, g.act, g.drained, g.prof, g.prepTop, g.call, g.host} {
		b = binary.AppendVarint(b, int64(i))
	}
	if g.prevLaunchT != -1 {
		b = binary.AppendVarint(b, g.prevLaunchT-g.s)
	}
	if g.nextLaunchT != -1 {
		b = binary.AppendVarint(b, g.nextLaunchT-g.s)
	}
	for _, v := range [...]int64{g.lag, g.actNs, g.prepNs, g.hostNs, g.otherBusy} {
		b = binary.AppendVarint(b, v)
	}
	for _, v := range g.shares {
		b = binary.AppendVarint(b, v)
	}
	return b
}

// recReader reads one encoded record.
type recReader struct {
	b []byte
	k int
}

func (r *recReader) varint() int64 {
	v, n := binary.Varint(r.b[r.k:])
	r.k += n
	return v
}

func (r *recReader) byte() byte {
	c := r.b[r.k]
	r.k++
	return c
}

// keyOfRec reads what gapOrder compares of an encoded record.
func keyOfRec(b []byte, base int64) (dev int, s, e int64) {
	r := recReader{b: b}
	dev = int(r.varint())
	s = base + r.varint()
	return dev, s, s + r.varint()
}

// readRec decodes the record at the start of b (appendRec's).
func readRec(b []byte, base int64) gapRec {
	r := recReader{b: b}
	var g gapRec
	g.dev = int(r.varint())
	g.s = base + r.varint()
	g.e = g.s + r.varint()
	g.clipped = g.e - g.s - r.varint()
	g.edge, g.kind, g.cause = Edge(r.byte()), IdleKind(r.byte()), Cause(r.byte())
	flags := r.byte()
	g.blocking = flags&recBlocking != 0
	g.prev, g.next, g.act, g.drained = int32(r.varint()), int32(r.varint()), int32(r.varint()), int32(r.varint())
	g.prof, g.prepTop, g.call, g.host = int32(r.varint()), int32(r.varint()), int32(r.varint()), int32(r.varint())
	g.prevLaunchT, g.nextLaunchT = -1, -1
	if flags&recPrevLaunchUnset == 0 {
		g.prevLaunchT = g.s + r.varint()
	}
	if flags&recNextLaunchUnset == 0 {
		g.nextLaunchT = g.s + r.varint()
	}
	g.lag, g.actNs, g.prepNs, g.hostNs, g.otherBusy = r.varint(), r.varint(), r.varint(), r.varint(), r.varint()
	for k := range g.shares {
		g.shares[k] = r.varint()
	}
	return g
}
