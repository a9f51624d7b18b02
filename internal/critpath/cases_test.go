package critpath

import (
	"bytes"
	"slices"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
)

// Each generated case has a path known by construction (gen.CritFacts):
// the path, its wall time, the breakdown, the events on it in order, its
// edges by type and the sync edges of the graph.
func TestGeneratedCases(t *testing.T) {
	t.Parallel()
	for _, name := range gen.CritCases {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			f, err := gen.WriteCritCase(&buf, name)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := parse.Read(bytes.NewReader(buf.Bytes()), name, parse.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := Analyze(tr, StepWindows(tr), Options{WhatIf: 3, Speedup: 2, Detail: true})
			if len(r.Windows) != 1 || !r.Windows[0].HasPath {
				t.Fatalf("want one window with a path, got %+v", r.Windows)
			}
			w := r.Windows[0]
			if w.PathNs != f.PathNs || w.WallNs != f.WallNs {
				t.Errorf("path %d wall %d, want %d and %d", w.PathNs, w.WallNs, f.PathNs, f.WallNs)
			}
			for c := range NumCategories {
				if w.Breakdown[c] != f.Breakdown[c.String()] {
					t.Errorf("breakdown %s = %d, want %d", c, w.Breakdown[c], f.Breakdown[c.String()])
				}
			}
			var names []string
			for _, e := range w.Events {
				if e.OnPath {
					names = append(names, e.Name)
				}
			}
			if !slices.Equal(names, f.PathEvents) {
				t.Errorf("events on the path %q, want %q", names, f.PathEvents)
			}
			types := map[string]int{}
			for _, e := range w.Edges {
				types[e.Type.String()]++
			}
			for k, n := range f.EdgeTypes {
				if types[k] != n {
					t.Errorf("%d %s edges on the path, want %d (all: %v)", types[k], k, n, types)
				}
			}
			if len(types) != len(f.EdgeTypes) {
				t.Errorf("edge types on the path %v, want %v", types, f.EdgeTypes)
			}
			var onPath []string
			for _, s := range w.Syncs {
				if s.OnPath {
					onPath = append(onPath, s.Kind.String())
				}
			}
			if len(w.Syncs) != f.SyncEdges || !slices.Equal(onPath, f.SyncOnPath) {
				t.Errorf("%d sync edges, on the path %v; want %d, %v", len(w.Syncs), onPath, f.SyncEdges, f.SyncOnPath)
			}
			for _, x := range w.WhatIf {
				if x.SavedNs < 0 || 2*x.SavedNs > x.OnPathNs {
					t.Errorf("what-if %s: saved %d of %d on the path", x.Name, x.SavedNs, x.OnPathNs)
				}
			}
		})
	}
}
