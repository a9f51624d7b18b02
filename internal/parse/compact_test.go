package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestInternCompact: shape args are found by their text as written in a
// small cache; with many distinct values (more than its slots, so slots
// are taken over), the same values written with other white space, and
// strings holding spaces, every event's Input Dims, Input type and
// Concrete Inputs is the compact JSON of its own text (encoding/json's).
func TestInternCompact(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 2))
	sp := func() string { return []string{"", " ", "  ", "\n    "}[r.IntN(4)] }
	var evs, dims, types, values []string
	for i := 0; i < 4000; i++ {
		d := fmt.Sprintf("[%s[%d,%s%d]%s,%s[%d]%s]", sp(), r.IntN(40), sp(), r.IntN(900), sp(), sp(), r.IntN(3), sp())
		ty := fmt.Sprintf("[%s\"float\",%s\"c10:: %d\"%s]", sp(), sp(), r.IntN(50), sp())
		v := fmt.Sprintf("[\"\",%s\"%d\"%s]", sp(), r.IntN(700), sp())
		evs = append(evs, fmt.Sprintf(`{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":%d,"dur":1,`+
			`"args":{"Input Dims":%s,"Input type":%s,"Concrete Inputs":%s}}`, i, d, ty, v))
		dims, types, values = append(dims, d), append(types, ty), append(values, v)
	}
	text := `{"traceEvents":[` + strings.Join(evs, ",\n") + `]}`
	for _, opts := range []Options{{}, {ShapesOnly: true}} {
		tr, err := Read(strings.NewReader(text), "shapes.json", opts)
		if err != nil {
			t.Fatal(err)
		}
		if tr.NumEvents() != len(evs) {
			t.Fatalf("%d events read of %d", tr.NumEvents(), len(evs))
		}
		for i := range evs {
			x := tr.ExtraOf(i)
			if x == nil {
				t.Fatalf("event %d has no shapes", i)
			}
			for _, c := range []struct{ got, raw string }{{tr.Str(x.InputDims), dims[i]}, {tr.Str(x.InputTypes), types[i]}, {tr.Str(x.Concrete), values[i]}} {
				var want bytes.Buffer
				if err := json.Compact(&want, []byte(c.raw)); err != nil {
					t.Fatal(err)
				}
				if c.got != want.String() {
					t.Fatalf("event %d: %q read from %q, want %q", i, c.got, c.raw, want.String())
				}
			}
		}
	}
}
