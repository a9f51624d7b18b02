package gapsview

import (
	"fmt"
	"strconv"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/units"
)

// queueJSON is streams[].queue: the stream's launch queue (gaps.Queue).
type queueJSON struct {
	Ops         int   `json:"ops"`
	StartNs     int64 `json:"start_ns"`
	EndNs       int64 `json:"end_ns"`
	MaxLenOps   int   `json:"max_length_ops"`
	MedianOps   int   `json:"median_length_ops"`
	MinLenOps   int   `json:"min_length_ops"`
	TimeAtMaxNs int64 `json:"time_at_max_ns"`
	MaxAtNs     int64 `json:"max_at_ns"`
	LimitOps    int   `json:"limit_ops"`
	FullNs      int64 `json:"full_ns"`
	EarlyOps    int   `json:"early_ops"`
}

// queueOf is nil for a stream none of whose ops has its launch call in
// the trace: its queue is not measured.
func queueOf(q gaps.Queue) *queueJSON {
	if q.Ops == 0 {
		return nil
	}
	return &queueJSON{Ops: q.Ops, StartNs: q.StartNs, EndNs: q.EndNs, MaxLenOps: q.MaxLen, MedianOps: q.MedianLen, MinLenOps: q.MinLen,
		TimeAtMaxNs: q.TimeAtMaxNs, MaxAtNs: q.MaxAtNs, LimitOps: q.Limit, FullNs: q.FullNs, EarlyOps: q.EarlyOps}
}

// QueueShown reports whether the text gives q a line: its queue was full
// at some point, or held at least half the limit (512 ops by default).
func QueueShown(q gaps.Queue) bool {
	return q.Ops > 0 && (q.FullNs > 0 || 2*q.MaxLen >= q.Limit)
}

// queueLines writes a line per stream whose queue QueueShown.
func (o *textOut) queueLines(r *gaps.Report) {
	multi := len(r.Devices) > 1
	for _, q := range r.Queues {
		if !QueueShown(q) {
			continue
		}
		lane := "stream " + strconv.FormatInt(q.Stream, 10)
		if multi {
			lane = fmt.Sprintf("device %d %s", q.Device, lane)
		}
		full := fmt.Sprintf("never full (%s ops)", strconv.Itoa(q.Limit))
		if q.FullNs > 0 {
			full = fmt.Sprintf("full (%s ops or more: a launch call blocks) for %s", strconv.Itoa(q.Limit), units.Dur(q.FullNs))
		}
		o.para(fmt.Sprintf("launch queue of %s: up to %s ops queued (for %s, first at %s), median %s; %s",
			lane, strconv.Itoa(q.MaxLen), units.Dur(q.TimeAtMaxNs), units.Dur(q.MaxAtNs), strconv.Itoa(q.MedianLen), full), "  ")
	}
}
