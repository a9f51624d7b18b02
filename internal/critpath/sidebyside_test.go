package critpath

import (
	"bytes"
	"reflect"
	"runtime"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
)

// TestWindowsSideBySide: Analyze splits the windows between two
// goroutines when it may use two cores; on a generated trace of the deep
// export shape with a dozen steps its result, with and without detail, is
// the one of a single goroutine (GOMAXPROCS=1), field for field. Under
// -race it also checks that the two sides share nothing they write.
func TestWindowsSideBySide(t *testing.T) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Steps: 12, Layers: 2, Kineto: gen.ExportStyle()}); err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "gen.json", parse.Options{NoExtras: true, NoMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	windows := StepWindows(tr)
	if len(windows) < 4 {
		t.Fatalf("%d step windows, want several", len(windows))
	}
	for _, detail := range []bool{false, true} {
		o := Options{WhatIf: 3, Speedup: 2, Detail: detail}
		prev := runtime.GOMAXPROCS(1)
		one := Analyze(tr, windows, o)
		runtime.GOMAXPROCS(max(prev, 2))
		two := Analyze(tr, windows, o)
		runtime.GOMAXPROCS(prev)
		paths := 0
		for _, w := range one.Windows {
			if w.HasPath {
				paths++
			}
		}
		if paths < 4 || len(one.WhatIfNames) == 0 {
			t.Fatalf("detail %v: %d windows with a path, what-if names %q: too little to compare", detail, paths, one.WhatIfNames)
		}
		if !reflect.DeepEqual(one, two) {
			t.Errorf("detail %v: the windows analysed side by side give another result than one goroutine", detail)
		}
	}
}
