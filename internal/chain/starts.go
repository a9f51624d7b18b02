package chain

import (
	"fmt"

	"github.com/tracetab/tracetab/internal/trace"
)

// starts are the events the chains can start from, by mode: the events
// the pattern names; without one the profiler steps; without steps the
// top-level events that launched device work, else every top-level event.
// It sets the mode and the direction.
func (s *Selection) starts(t *trace.Trace, q Query) ([]int32, error) {
	w := s.w
	switch {
	case q.Match != nil:
		s.Mode, s.Pattern, s.Regex = ModePattern, q.Match.Pattern, q.Match.Regex
		cpu, dev := matchedEvents(t, q.Match)
		if len(cpu) == 0 && len(dev) == 0 {
			return nil, &NoMatch{Pattern: q.Match.Pattern, Regex: q.Match.Regex, Closest: Closest(t, q.Match.Pattern, 5)}
		}
		dir, evs, err := patternDirection(q.Match.Pattern, q.Dir, cpu, dev)
		s.Dir = dir
		return evs, err
	case len(w.steps) > 0:
		s.Mode, s.Dir = ModeStep, Down
		var evs []int32
		for _, st := range w.steps {
			evs = append(evs, st.Ev)
		}
		return evs, nil
	}
	s.Dir = Down
	mode, evs := topLevelStarts(w)
	s.Mode = mode
	if len(evs) == 0 {
		return nil, &Empty{"the trace has no CPU event to start a chain from: name a device op as PATTERN to walk up from it"}
	}
	return evs, nil
}

// matchedEvents are the CPU events and the device work the matcher
// names, in file order.
func matchedEvents(t *trace.Trace, m *Matcher) (cpu, dev []int32) {
	match := matchTable(t, m)
	i := int32(0)
	for _, c := range t.Events.Chunks() {
		for k := range c {
			e := &c[k]
			if match[e.Name] {
				switch {
				case e.Kind.IsDeviceWork():
					dev = append(dev, i)
				case e.Kind.IsCPU():
					cpu = append(cpu, i)
				}
			}
			i++
		}
	}
	return cpu, dev
}

// patternDirection resolves the direction of a pattern naming cpu CPU
// events and dev device ops (not both empty): down from the CPU events
// when asked or when there are only those; up from the device ops when
// there are some; --up from CPU events only walks up from them. Auto with
// both is ambiguous; --down with device ops only walks nothing.
func patternDirection(pattern string, dir Direction, cpu, dev []int32) (Direction, []int32, error) {
	switch {
	case dir == Auto && len(cpu) > 0 && len(dev) > 0:
		return dir, nil, &Ambiguous{Pattern: pattern, CPU: len(cpu), Device: len(dev)}
	case dir == Down && len(cpu) == 0:
		return dir, nil, &Empty{fmt.Sprintf("%s names only device ops (%d), which launch nothing: walk up from them (drop --down)", quote(pattern), len(dev))}
	case dir == Down || (dir == Auto && len(dev) == 0):
		return Down, cpu, nil
	case len(dev) > 0:
		return Up, dev, nil
	}
	return Up, cpu, nil // --up from CPU events: their enclosing events
}

// topLevelStarts are, for a trace without steps, the top-level events
// that launched device work (top-gpu), else every top-level event
// (top-level).
func topLevelStarts(w *walker) (string, []int32) {
	w.prepare()
	gpu := w.launchedBelow()
	var evs []int32
	for _, i := range w.top {
		if gpu[i] {
			evs = append(evs, i)
		}
	}
	if len(evs) == 0 {
		return ModeTopLevel, w.top
	}
	return ModeTopGPU, evs
}
