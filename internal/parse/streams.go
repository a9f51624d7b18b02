package parse

import "github.com/tracetab/tracetab/internal/trace"

// A device lane is named by the stream its events give in args.stream
// (MTIA traces write a thread id as tid and the stream there; HTA labels
// lanes by it), else by its tid ("stream 7" or 7). A track whose events
// give several streams keeps its tid.

// noteStream records one device event's args.stream on its track.
func (p *parser) noteStream(track int32, stream int64) {
	if p.argStream == nil {
		p.argStream, p.argStreamMixed = map[int32]int64{}, map[int32]bool{}
	}
	if old, ok := p.argStream[track]; !ok {
		p.argStream[track] = stream
	} else if old != stream {
		p.argStreamMixed[track] = true
	}
}

// laneStream is the stream a device track is named by.
func (p *parser) laneStream(track int32, tid trace.ID) int64 {
	if s, ok := p.argStream[track]; ok && !p.argStreamMixed[track] {
		return s
	}
	return streamOf(tid, p.t)
}
