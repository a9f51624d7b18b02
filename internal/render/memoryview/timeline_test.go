package memoryview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/memory"
	"github.com/tracetab/tracetab/internal/parse"
)

func genModel(t *testing.T, cfg gen.Config) *memory.Model {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, cfg); err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Read(bytes.NewReader(b.Bytes()), "gen.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return memory.Build(tr, memory.Options{})
}

// TestTimelineGolden: the same curves in Unicode blocks (a terminal) and
// ASCII (a pipe): one glyph per column, the same levels in both ramps.
func TestTimelineGolden(t *testing.T) {
	m := genModel(t, gen.Config{Steps: 6, Layers: 1, Memory: gen.Memory{AllocsPerOp: 2, LeakBytes: 8 << 20, CPU: true, Reuse: true}})
	var uni, asc bytes.Buffer
	if err := Timeline(&uni, m, 70, true); err != nil {
		t.Fatal(err)
	}
	if err := Timeline(&asc, m, 70, false); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, ".", "memory_timeline_unicode.golden", uni.String())
	golden.Check(t, ".", "memory_timeline_ascii.golden", asc.String())
	ul, al := strings.Split(uni.String(), "\n"), strings.Split(asc.String(), "\n")
	if len(ul) != len(al) {
		t.Fatalf("%d lines in Unicode, %d in ASCII", len(ul), len(al))
	}
	for i := range ul {
		u, a := []rune(ul[i]), []rune(al[i])
		if !strings.HasPrefix(al[i], "allocated ") && !strings.HasPrefix(al[i], "reserved ") {
			continue
		}
		if len(u) != len(a) || len(u) != 70 {
			t.Fatalf("line %d: %d and %d runes, want 70", i, len(u), len(a))
		}
		for c := labelWidth; c < len(u); c++ {
			lu, la := strings.IndexRune(string(unicodeRamp), u[c]), strings.IndexRune(string(asciiRamp), a[c])
			if lu < 0 || la < 0 {
				t.Fatalf("line %d column %d: %q / %q not in the ramps", i, c, u[c], a[c])
			}
			// the same level on both ramps' scales, to within a step
			if fu, fa := float64(runeIndex(unicodeRamp, u[c]))/7, float64(runeIndex(asciiRamp, a[c]))/9; fu-fa > 0.15 || fa-fu > 0.15 {
				t.Errorf("line %d column %d: %q and %q are different levels", i, c, u[c], a[c])
			}
		}
	}
	// the leak: each step ends higher than it started, so the last
	// step's columns reach the top of cuda:0's allocated row
	if !strings.Contains(uni.String(), "█") {
		t.Error("no full block in the Unicode curve")
	}
}

func runeIndex(ramp []rune, r rune) int {
	for i, x := range ramp {
		if x == r {
			return i
		}
	}
	return -1
}

// TestCurveColumns: each column's levels are those the series holds in
// it, the carried-in level included.
func TestCurveColumns(t *testing.T) {
	d := &memory.Device{Start: memory.Level{Allocated: 10}, Series: []memory.Point{{Ns: 5, Allocated: 30}, {Ns: 6, Allocated: 20}, {Ns: 25, Allocated: 40}}}
	cols := d.Curve(0, 30, 3) // [0,10) [10,20) [20,30)
	want := [][2]int64{{10, 30}, {20, 20}, {20, 40}}
	for i, c := range cols {
		if [2]int64{c.MinAllocated, c.MaxAllocated} != want[i] {
			t.Errorf("column %d [%d,%d): min %d max %d, want %v", i, c.StartNs, c.EndNs, c.MinAllocated, c.MaxAllocated, want[i])
		}
	}
	if l := d.LevelAt(5); l.Allocated != 30 {
		t.Errorf("level at 5: %d", l.Allocated)
	}
	if l := d.LevelAt(4); l.Allocated != 10 {
		t.Errorf("level at 4: %d", l.Allocated)
	}
}
