package chain

import (
	"errors"
	"slices"
	"testing"
)

// TestPatternDirection: which events a pattern starts from, by the
// direction asked and what it names.
func TestPatternDirection(t *testing.T) {
	cpu, dev := []int32{1, 2}, []int32{7}
	for _, c := range []struct {
		dir      Direction
		cpu, dev []int32
		want     Direction
		evs      []int32
		err      any
	}{
		{Auto, cpu, nil, Down, cpu, nil}, // CPU events only: down from them
		{Auto, nil, dev, Up, dev, nil},   // device ops only: up from them
		{Auto, cpu, dev, Auto, nil, new(*Ambiguous)},
		{Down, cpu, dev, Down, cpu, nil},         // --down: the CPU events
		{Down, nil, dev, Down, nil, new(*Empty)}, // --down from device ops only: nothing launches
		{Up, cpu, dev, Up, dev, nil},             // --up: the device ops when there are some
		{Up, cpu, nil, Up, cpu, nil},             // --up from CPU events: their enclosing events
	} {
		d, evs, err := patternDirection("p", c.dir, c.cpu, c.dev)
		if c.err != nil {
			if err == nil || !errors.As(err, c.err) {
				t.Errorf("dir %d cpu %v dev %v: error %v, want %T", c.dir, c.cpu, c.dev, err, c.err)
			}
			continue
		}
		if err != nil || d != c.want || !slices.Equal(evs, c.evs) {
			t.Errorf("dir %d cpu %v dev %v: %d %v %v, want %d %v", c.dir, c.cpu, c.dev, d, evs, err, c.want, c.evs)
		}
	}
}

// TestChooseInstance: --instance 0 means the first; past the last is an
// error that counts them; --all up takes every instance.
func TestChooseInstance(t *testing.T) {
	three := []Instance{{Event: 4}, {Event: 5}, {Event: 6}}
	s := &Selection{Instances: three, Dir: Up}
	if err := s.choose(Query{}); err != nil || !slices.Equal(s.Chosen, []int{0}) {
		t.Errorf("instance 0: %v %v, want [0]", s.Chosen, err)
	}
	s = &Selection{Instances: three, Dir: Up}
	if err := s.choose(Query{Instance: 3}); err != nil || !slices.Equal(s.Chosen, []int{2}) {
		t.Errorf("instance 3: %v %v, want [2]", s.Chosen, err)
	}
	s = &Selection{Instances: three, Dir: Up}
	err := s.choose(Query{Instance: 4})
	if want := "--instance 4: there are 3 instances in the trace"; err == nil || err.Error() != want {
		t.Errorf("instance 4 of 3: %v, want %q", err, want)
	}
	s = &Selection{Instances: three[:1], Dir: Up}
	err = s.choose(Query{Instance: 2, HasStep: true, Step: 9})
	if want := "--instance 2: there is 1 instance in ProfilerStep#9"; err == nil || err.Error() != want {
		t.Errorf("instance 2 of 1 in a step: %v, want %q", err, want)
	}
	s = &Selection{Instances: three, Dir: Up}
	if err := s.choose(Query{All: true}); err != nil || !slices.Equal(s.Chosen, []int{0, 1, 2}) || s.Nested != 0 {
		t.Errorf("--all up: %v nested %d %v, want [0 1 2], none nested", s.Chosen, s.Nested, err)
	}
}
