package parse

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// adversarial is a trace made to trip a parallel reader: strings of every
// length up to maxLen (so every cut lands inside some string), strings that
// end in ",{" (a candidate event start inside a string), escaped text that
// reads like events, control characters and bare words in several segments
// (the same string first seen in a later segment), invalid UTF-8 and lone
// surrogates, threads and processes
// named twice far apart, negative durations and string timestamps.
func adversarial(n, maxLen int) string {
	var b strings.Builder
	b.WriteString(`{"schemaVersion": 1, "traceEvents": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		name := strings.Repeat("x", i%maxLen)
		switch i % 7 {
		case 1:
			name += `,{`
		case 2:
			name += `\",{\"ph\":\"X\",\"name\":\"fake\",\"ts\":1,\"dur\":1,\"pid\":9,\"tid\":9},{\"`
		case 3:
			name += "\x01ctl" + fmt.Sprint(i%5)
		case 4:
			name += "\xfe" + `\ud800` + fmt.Sprint(i%6)
		}
		switch i % 11 {
		case 4:
			fmt.Fprintf(&b, `{"ph":"M","name":"thread_name","pid":1,"tid":%d,"args":{"name":"t%d"}}`, i%3, i%4)
			continue
		case 5:
			fmt.Fprintf(&b, `{"ph":"M","name":"process_name","pid":%d,"args":{"name":"p%d"}}`, i%2, i%3)
			continue
		case 6:
			fmt.Fprintf(&b, `{"ph":"X","cat":"cpu_op","name":"%s","pid":1,"tid":%d,"ts":"%d","dur":-1,"args":{"v":N/A}}`, name, i%3, i)
			continue
		}
		fmt.Fprintf(&b, `{"ph":"X","cat":"cpu_op","name":"%s","pid":1,"tid":%d,"ts":%d,"dur":%d,"args":{"External id":%d,"s":"%s"}}`,
			name, i%3, i*10, i%9, i, strings.Repeat("y", (i*7)%maxLen))
	}
	b.WriteString(`], "traceName": "adv"}`)
	return b.String()
}

// equalTraces compares two readings of a file field by field: the whole
// model, warnings with their offsets and counts included.
func equalTraces(t *testing.T, what string, seq, par *trace.Trace) {
	t.Helper()
	if !reflect.DeepEqual(seq.Warnings, par.Warnings) {
		t.Fatalf("%s: warnings differ:\nsequential %+v\nparallel   %+v", what, seq.Warnings, par.Warnings)
	}
	if seq.BytesRead != par.BytesRead || seq.Truncated != par.Truncated {
		t.Fatalf("%s: bytes read %d/%d truncated %v/%v", what, seq.BytesRead, par.BytesRead, seq.Truncated, par.Truncated)
	}
	if seq.NumEvents() != par.NumEvents() {
		t.Fatalf("%s: %d events, sequential %d", what, par.NumEvents(), seq.NumEvents())
	}
	for i := 0; i < seq.NumEvents(); i++ {
		if *seq.Ev(i) != *par.Ev(i) {
			t.Fatalf("%s: event %d differs: %+v vs %+v", what, i, *seq.Ev(i), *par.Ev(i))
		}
	}
	if !reflect.DeepEqual(seq.Strings, par.Strings) {
		t.Fatalf("%s: string tables differ (%d vs %d)", what, len(seq.Strings), len(par.Strings))
	}
	if !reflect.DeepEqual(seq.Tracks, par.Tracks) || !reflect.DeepEqual(seq.ProcessNames, par.ProcessNames) {
		t.Fatalf("%s: tracks or process names differ", what)
	}
	if !reflect.DeepEqual(seq, par) {
		t.Fatalf("%s: traces differ", what)
	}
}

func writeTemp(t *testing.T, name, s string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readBoth(t *testing.T, path string, opts Options, seg int64) (*trace.Trace, error, *trace.Trace, error) {
	t.Helper()
	defer func(a, b int64) { parallelMin, segmentSize = a, b }(parallelMin, segmentSize)
	o := opts
	o.Sequential = true
	seq, serr := Open(path, o)
	parallelMin, segmentSize = 1, seg
	par, perr := Open(path, opts)
	return seq, serr, par, perr
}

// TestParallelAdversarial: on the adversarial trace, segment sizes from 41
// to 397 bytes (thousands of cuts, inside strings of every length) give the
// sequential reading exactly, warnings included.
func TestParallelAdversarial(t *testing.T) {
	path := writeTemp(t, "adv.json", adversarial(400, 97))
	seq, err := Open(path, Options{Sequential: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"control-char", "bare-word", "dup-meta", "invalid-utf8", "ts-string", "neg-dur"} {
		if warnKeys(seq)[k] < 2 {
			t.Fatalf("the adversarial trace should raise %q more than once: %v", k, seq.Warnings)
		}
	}
	// prime sizes, so nominal cuts land at many offsets inside strings of
	// many lengths (0 to 96 bytes) and inside every kind of event
	for _, seg := range []int64{41, 53, 67, 89, 97, 131, 173, 211, 293, 397} {
		seq, serr, par, perr := readBoth(t, path, Options{}, seg)
		if serr != nil || perr != nil {
			t.Fatalf("segment %d: %v / %v", seg, serr, perr)
		}
		equalTraces(t, fmt.Sprintf("segment %d", seg), seq, par)
	}
}

// TestParallelTruncated: a cut file reads the same in parallel: the same
// error and offset, or with AllowTruncated the same events, bytes read and
// warning.
func TestParallelTruncated(t *testing.T) {
	full := adversarial(300, 61)
	for _, cut := range []int{len(full) / 3, len(full) / 2, len(full) - 40, len(full) - 5, len(full) - 1} {
		path := writeTemp(t, "cut.json", full[:cut])
		for _, seg := range []int64{97, 1000} {
			what := fmt.Sprintf("cut %d segment %d", cut, seg)
			_, serr, _, perr := readBoth(t, path, Options{}, seg)
			if serr == nil || perr == nil || serr.Error() != perr.Error() {
				t.Fatalf("%s: errors differ: %v / %v", what, serr, perr)
			}
			seq, serr, par, perr := readBoth(t, path, Options{AllowTruncated: true}, seg)
			if serr != nil || perr != nil {
				t.Fatalf("%s: %v / %v", what, serr, perr)
			}
			equalTraces(t, what, seq, par)
		}
	}
}

// TestParallelLongStringFakeEvents: one string much longer than a segment,
// holding text that reads like events and candidate starts, then more
// events: the parallel reading equals the sequential one.
func TestParallelLongStringFakeEvents(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1},`)
	b.WriteString(`{"ph":"X","cat":"cpu_op","name":"big","pid":1,"tid":1,"ts":2,"dur":1,"args":{"s":"`)
	for i := 0; b.Len() < 2<<20; i++ {
		fmt.Fprintf(&b, `,{ \"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"fake%d\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":5}`, i, i)
	}
	b.WriteString(`"}}`)
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, `,{"ph":"X","cat":"cpu_op","name":"after%d","pid":1,"tid":1,"ts":%d,"dur":1}`, i%10, 10+i)
	}
	b.WriteString(`]}`)
	path := writeTemp(t, "long.json", b.String())
	for _, seg := range []int64{4093, 65536, 1 << 20} {
		seq, serr, par, perr := readBoth(t, path, Options{}, seg)
		if serr != nil || perr != nil {
			t.Fatalf("segment %d: %v / %v", seg, serr, perr)
		}
		if seq.NumEvents() != 2002 {
			t.Fatalf("sequential read %d events, want 2002", seq.NumEvents())
		}
		equalTraces(t, fmt.Sprintf("segment %d", seg), seq, par)
	}
}

// TestStressParallelFakeEvents (make stress): a 200 MB string of text that
// reads like events, between real events, at the real segment size: the
// parallel reading equals the sequential one.
func TestStressParallelFakeEvents(t *testing.T) {
	if os.Getenv("TRACETAB_STRESS") == "" {
		t.Skip("make stress (TRACETAB_STRESS=1) runs it")
	}
	path := filepath.Join(t.TempDir(), "fake.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	bw.WriteString(`{"traceEvents":[`)
	for i := 0; i < 200_000; i++ {
		fmt.Fprintf(bw, `{"ph":"X","cat":"cpu_op","name":"before%d","pid":1,"tid":1,"ts":%d,"dur":1},`+"\n", i%100, i)
	}
	bw.WriteString(`{"ph":"X","cat":"cpu_op","name":"big","pid":1,"tid":1,"ts":2,"dur":1,"args":{"s":"`)
	for n := 0; n < 200<<20; {
		k, _ := fmt.Fprintf(bw, `},\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"fake%d\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":5}, {`, n%1000, n)
		n += k
	}
	bw.WriteString("\"}},\n")
	for i := 0; i < 200_000; i++ {
		fmt.Fprintf(bw, `{"ph":"X","cat":"cpu_op","name":"after%d","pid":1,"tid":1,"ts":%d,"dur":1},`+"\n", i%100, 300_000+i)
	}
	bw.WriteString(`{"ph":"X","cat":"cpu_op","name":"end","pid":1,"tid":1,"ts":1,"dur":1}]}`)
	bw.Flush()
	f.Close()
	if st, _ := os.Stat(path); st.Size() < 200<<20 {
		t.Fatalf("only %d bytes", st.Size())
	}
	seq, err := Open(path, Options{Sequential: true})
	if err != nil {
		t.Fatal(err)
	}
	par, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if seq.NumEvents() != 400_002 {
		t.Fatalf("%d events", seq.NumEvents())
	}
	equalTraces(t, "200 MB string", seq, par)
}
