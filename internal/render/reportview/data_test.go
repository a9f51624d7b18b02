package reportview

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/report"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// TestJSONWriterStrings: the writer's strings are encoding/json's, byte
// for byte: HTML's characters, controls, quotes, invalid UTF-8, U+2028
// and U+2029, multi-byte runes.
func TestJSONWriterStrings(t *testing.T) {
	for _, s := range []string{"", "aten::mm", `a"b\c`, "<script>&</script>", "\x00\x01\b\f\n\r\t\x1f\x7f", "bad \xff\xfe utf8 \xe2\x80",
		"sep \u2028 and \u2029", "é中𝄞", "[[8, 128], [128, 64]]", strings.Repeat("x", 300) + "\xc0"} {
		var w jsonWriter
		w.str(s)
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.b, want) {
			t.Errorf("%q: %s, want %s", s, w.b, want)
		}
	}
}

// TestDataMatchesEncodingJSON: the page's data as the hand-written
// encoder writes it equals, byte for byte, what encoding/json wrote of
// the structs it replaced (data_oracle_test.go), on the three bench
// shapes (with modules) under limits that write every event, that band
// most of them around a detail step, and that leave the finer levels out;
// on the testdata traces; and with ../shared on its traces.
func TestDataMatchesEncodingJSON(t *testing.T) {
	limits := map[string]Limits{"default": DefaultLimits}
	small := DefaultLimits
	// level 0 is never cut: a budget below its cells leaves the finer
	// levels unbounded (levels' limit goes negative), so the small budget
	// is one level 0 fits in on every trace
	small.MaxEvents, small.MaxCells = 400, 60000
	limits["small"] = small
	compare := func(name string, tr *trace.Trace) {
		in := report.NewInputs(tr, name)
		for ln, lim := range limits {
			o := DefaultOptions
			o.Limits = lim
			p := Build(tr, in, o)
			got, err := p.data(tr)
			if err != nil {
				t.Fatal(err)
			}
			want, err := p.dataReflect(tr)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				k := 0
				for k < min(len(got), len(want)) && got[k] == want[k] {
					k++
				}
				t.Errorf("%s, %s limits: the data differs from encoding/json's at byte %d of %d: %.80q, want %.80q",
					name, ln, k, len(want), got[max(k-20, 0):], want[max(k-20, 0):])
			}
		}
	}
	n := 0
	for _, sh := range gen.BenchShapes() {
		cfg := sh.Cfg
		cfg.Steps, cfg.Layers, cfg.Modules = 12, 2, true
		var buf bytes.Buffer
		if _, err := gen.Write(&buf, cfg); err != nil {
			t.Fatal(err)
		}
		tr, err := parse.Read(bytes.NewReader(buf.Bytes()), sh.Name, parse.Options{DimsOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		compare(sh.Name, tr)
		n++
	}
	paths, _ := filepath.Glob(filepath.Join(testenv.Root(), "testdata", "*.json"))
	quirks, _ := filepath.Glob(filepath.Join(testenv.Root(), "testdata", "quirks", "*.json"))
	paths = append(paths, quirks...)
	if d, ok := testenv.SharedDir(); ok && !testing.Short() {
		shared, _ := filepath.Glob(filepath.Join(d, "traces", "*.json*"))
		paths = append(paths, shared...)
	}
	for _, p := range paths {
		tr, err := parse.Open(p, parse.Options{DimsOnly: true, AllowTruncated: true})
		if err != nil {
			continue // not a trace the report reads
		}
		compare(filepath.Base(p), tr)
		n++
	}
	if n < 8 {
		t.Errorf("%d traces compared, want the bench shapes and the testdata traces", n)
	}
}

// TestAppendInt: appendInt writes what strconv.AppendInt does, at the
// edges of each digit count, of int64 and of the two-digit steps.
func TestAppendInt(t *testing.T) {
	vals := []int64{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, -1, -9, -10, -99, -100, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for p := int64(1); p < math.MaxInt64/10; p *= 10 {
		vals = append(vals, p-1, p, p+1, -p+1, -p, -p-1, 7*p+3)
	}
	for k := range 63 {
		vals = append(vals, 1<<k-1, 1<<k, -1<<k)
	}
	x := uint64(0x2545f4914f6cdd1d)
	for range 100_000 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		vals = append(vals, int64(x)>>(x%64))
	}
	for _, v := range vals {
		if got, want := string(appendInt([]byte("x"), v)), strconv.FormatInt(v, 10); got != "x"+want {
			t.Errorf("%d: %q, want x%s", v, got, want)
		}
		// with room for exactly the digits, and for one fewer
		want := strconv.FormatInt(v, 10)
		for _, room := range []int{len(want), len(want) - 1} {
			b := append(make([]byte, 0, 1+room), 'x')
			if got := string(appendInt(b, v)); got != "x"+want {
				t.Errorf("%d with room for %d bytes: %q, want x%s", v, room, got, want)
			}
		}
	}
}
