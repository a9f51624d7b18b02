package export

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tracetab/tracetab/internal/info"
	"github.com/tracetab/tracetab/internal/trace"
)

// common holds the columns every row of one trace has.
type common struct {
	id   string
	rank *int64
}

// fileDigest is the input file's size and SHA-256 (of its bytes as
// stored, compressed or not).
type fileDigest struct {
	size int64
	sum  string
	gzip bool
}

// digest reads the file at path once.
func digest(path string) (fileDigest, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileDigest{}, err
	}
	defer f.Close()
	h := sha256.New()
	var magic [2]byte
	n, _ := io.ReadFull(f, magic[:])
	h.Write(magic[:n])
	m, err := io.Copy(h, f)
	if err != nil {
		return fileDigest{}, err
	}
	return fileDigest{size: int64(n) + m, sum: hex.EncodeToString(h.Sum(nil)), gzip: n == 2 && magic[0] == 0x1f && magic[1] == 0x8b}, nil
}

// TraceID is the id of a trace file: the first 16 hex digits of its
// SHA-256, so that the same file exported twice gets the same id (and its
// files are replaced, not doubled).
func TraceID(sha256hex string) string { return sha256hex[:16] }

// traceRow is the trace's own row.
func traceRow(c *common, t *trace.Trace, path string, d fileDigest, version string) TraceRow {
	in := info.Summarize(t)
	r := TraceRow{TraceID: c.id, Path: path, FileBytes: d.size, JSONBytes: t.BytesRead, Gzip: d.gzip, SHA256: d.sum,
		Rank: in.Rank, WorldSize: in.WorldSize, Backend: in.Backend, Devices: []string{},
		Era: in.Era, TorchHint: in.Torch, TorchAssumed: in.TorchAssumed, Origin: in.Origin, SpanNs: in.SpanNs,
		Events: int64(in.Events), Steps: int64(len(in.Steps)), DeviceOps: int64(in.DeviceOps), MemoryRecords: int64(in.Memory),
		Warnings: in.Warnings, SchemaVersion: SchemaVersion, Tracetab: version}
	for _, dv := range in.Devices {
		name := fmt.Sprintf("device %d", dv.ID)
		if dv.Name != nil {
			name = *dv.Name
		}
		r.Devices = append(r.Devices, name)
	}
	if ns, ok := t.WallClock(); ok {
		r.OriginUnixNs = ptr(ns)
		r.Date = ptr(dateOf(ns))
	}
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	return r
}

// dateOf is the UTC date of a Unix time in ns.
func dateOf(ns int64) string { return time.Unix(0, ns).UTC().Format("2006-01-02") }
