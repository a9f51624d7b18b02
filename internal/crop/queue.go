package crop

import (
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/trace"
)

// queueCounters is the launch queue of every kept stream (gaps.QueueTracks,
// computed over the whole trace, so that the length in force when the
// window opens is right) inside the window, as counter events joined by
// ",\n", and how many.
func queueCounters(t *trace.Trace, p *Plan) ([]byte, int) {
	var b []byte
	n := 0
	for _, q := range gaps.QueueTracks(t) {
		if !p.deviceKept(q.Device) {
			continue
		}
		points := q.Points
		if p.HasWindow {
			points = q.Clip(p.Lo, p.Hi)
		}
		for _, pt := range points {
			if n > 0 {
				b = append(b, ",\n"...)
			}
			b = q.AppendCounter(b, t, pt)
			n++
		}
	}
	return b, n
}

// isQueueCounter reports whether e is a launch-queue counter event a
// tracetab wrote: the crop writes its own in its place.
func (e *rawEvent) isQueueCounter() bool {
	return e.ph == 'C' && e.hasCat && e.cat == gaps.QueueCounterCat
}
