package parse

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// chunkReader returns at most n bytes per Read, as a pipe does.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

// bigArgsTrace is a trace whose first event carries an args array of n
// numbers, followed by a plain event.
func bigArgsTrace(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{"big":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("12345")
	}
	b.WriteString(`],"s":"`)
	b.WriteString(strings.Repeat("x", n))
	b.WriteString(`"}},{"ph":"X","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":3,"dur":1}]}`)
	return b.Bytes()
}

// TestLongValueLinear: a value of many megabytes read through a pipe-like
// reader (4 KiB per read) or gzip is scanned a logarithmic number of times,
// not once per read (which made a 100 MB value through a pipe take 75 s).
func TestLongValueLinear(t *testing.T) {
	raw := bigArgsTrace(1 << 20) // 7 MB
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	for _, c := range []struct {
		name string
		r    io.Reader
	}{
		{"pipe", &chunkReader{bytes.NewReader(raw), 4096}},
		{"gzip", bytes.NewReader(gz.Bytes())},
		{"gzip through a pipe", &chunkReader{bytes.NewReader(gz.Bytes()), 4096}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, p, err := readStream(c.r, "big.json", Options{}, -1)
			if err != nil {
				t.Fatal(err)
			}
			retries := p.sc.retries
			if tr.NumEvents() != 2 {
				t.Fatalf("%d events, want 2", tr.NumEvents())
			}
			// 7 MB from a 1 MiB buffer doubles 3 times; a few more for the
			// read sizes. Re-scanning after every 4 KiB read would be ~1800.
			if retries > 12 {
				t.Fatalf("the long value was re-scanned %d times", retries)
			}
		})
	}
}

// TestMendUTF8: names with invalid bytes or lone surrogate escapes are
// stored as valid UTF-8 (U+FFFD for each bad sequence) and counted in one
// warning; a valid surrogate pair decodes; an escaped \u0000 is not a raw
// control character, a raw 0x01 is.
func TestMendUTF8(t *testing.T) {
	in := `{"traceEvents":[` +
		`{"ph":"X","cat":"cpu_op","name":"bad\xffbyte","pid":1,"tid":1,"ts":1,"dur":1},` +
		`{"ph":"X","cat":"cpu_op","name":"lone\ud800x","pid":1,"tid":1,"ts":2,"dur":1},` +
		`{"ph":"X","cat":"cpu_op","name":"pair\ud83d\ude00","pid":1,"tid":1,"ts":3,"dur":1},` +
		`{"ph":"X","cat":"cpu_op","name":"nul\u0000esc","pid":1,"tid":1,"ts":4,"dur":1},` +
		`{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"th\xfe"}}],` +
		`"trace\xffName":"x\udc00"}`
	bytesOf := strings.NewReplacer(`\xff`, "\xff", `\xfe`, "\xfe", `\x01`, "\x01")
	in = bytesOf.Replace(in)
	tr, err := Read(strings.NewReader(in), "u.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"bad\uFFFDbyte", "lone\uFFFDx", "pair\U0001F600", "nul\x00esc"}
	for i, w := range want {
		if tr.NameOf(i) != w {
			t.Errorf("event %d named %q, want %q", i, tr.NameOf(i), w)
		}
	}
	if tr.Tracks[0].Name != "th\uFFFD" || tr.Meta["trace\uFFFDName"] != "x\uFFFD" {
		t.Errorf("thread %q meta %v", tr.Tracks[0].Name, tr.Meta)
	}
	w := warnKeys(tr)
	if w["invalid-utf8"] != 5 {
		t.Errorf("invalid-utf8 count %d, want 5 (2 names, a thread name, a key, a value); warnings %v", w["invalid-utf8"], tr.Warnings)
	}
	if w["control-char"] != 0 {
		t.Errorf("an escaped \\u0000 was reported as a raw control character")
	}
	tr, err = Read(strings.NewReader(bytesOf.Replace(`[{"ph":"X","name":"raw\x01","ts":1,"dur":1,"pid":1,"tid":1}]`)), "c.json", Options{})
	if err != nil || warnKeys(tr)["control-char"] != 1 {
		t.Fatalf("raw control character: %v %v", err, tr)
	}
}

func gzipBytes(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

const oneEvent = `{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1}],"traceName":"t"}`

// TestSmallDefects: one reproducer per defect of the robustness issue.
func TestSmallDefects(t *testing.T) {
	gz := gzipBytes(t, oneEvent)
	for _, c := range []struct {
		name   string
		in     []byte
		opts   Options
		events int    // -1: an error is wanted
		errHas string // for errors
		warn   string // a warning key that must be present
	}{
		// --allow-truncated: a cut in the keys after the events, or before the array
		{"cut after the events", []byte(oneEvent[:len(oneEvent)-6]), Options{AllowTruncated: true}, 1, "", "truncated"},
		{"cut after the events, no flag", []byte(oneEvent[:len(oneEvent)-6]), Options{}, -1, "truncated", ""},
		{"cut before the array", []byte(`{"schemaVersion":1,"deviceProperties":[{"id":0`), Options{AllowTruncated: true}, 0, "", "truncated"},
		{"cut in the key traceEvents", []byte(`{"traceEve`), Options{AllowTruncated: true}, 0, "", "truncated"},
		{"cut after traceEvents:", []byte(`{"traceEvents":`), Options{AllowTruncated: true}, 0, "", "truncated"},
		// times near the int64 limit are refused, not wrapped
		{"ts near int64", []byte(`[{"ph":"X","name":"a","pid":1,"tid":1,"ts":9200000000000000,"dur":1},{"ph":"X","name":"b","pid":1,"tid":1,"ts":9000000000000000,"dur":9000000000000000}]`), Options{}, 0, "", "ts-range"},
		{"negative ts near int64", []byte(`[{"ph":"X","name":"a","pid":1,"tid":1,"ts":-9200000000000000,"dur":1},{"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":1}]`), Options{}, 1, "", "ts-range"},
		// invalid dur values are warned about
		{"dur null", []byte(`[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":null}]`), Options{}, 1, "", "bad-dur"},
		{"dur 1e400", []byte(`[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1e400}]`), Options{}, 1, "", "bad-dur"},
		{"dur NaN", []byte(`[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":NaN}]`), Options{}, 1, "", "bad-dur"},
		// gzip: padding accepted, missing trailer warned, junk refused, members joined
		{"gzip zero padding", append(append([]byte{}, gz...), make([]byte, 10240)...), Options{}, 1, "", "gzip-padding"},
		{"gzip without CRC trailer", gz[:len(gz)-8], Options{}, 1, "", "gzip-cut"},
		{"gzip junk after", append(append([]byte{}, gz...), "junk"...), Options{}, -1, "after the end of the gzip data", ""},
		{"gzip two members", append(gzipBytes(t, oneEvent[:40]), gzipBytes(t, oneEvent[40:])...), Options{}, 1, "", ""},
		{"gzip cut in the data", gz[:30], Options{}, -1, "truncated", ""},
		// a UTF-8 byte order mark is accepted
		{"BOM", append([]byte("\xef\xbb\xbf"), oneEvent...), Options{}, 1, "", ""},
		// NUL is not white space
		{"NUL between tokens", []byte("{\"traceEvents\":[\x00]}"), Options{}, -1, "byte 0x00", ""},
		{"leading NULs", make([]byte, 4096), Options{}, -1, "byte 0x00", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Read(bytes.NewReader(c.in), "d.json", c.opts)
			if c.events < 0 {
				if err == nil || !strings.Contains(err.Error(), c.errHas) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("want one-line error with %q, got %v", c.errHas, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tr.NumEvents() != c.events {
				t.Errorf("%d events, want %d", tr.NumEvents(), c.events)
			}
			if c.warn != "" && warnKeys(tr)[c.warn] == 0 {
				t.Errorf("no %q warning: %v", c.warn, tr.Warnings)
			}
			for i := 0; i < tr.NumEvents(); i++ {
				if e := tr.Ev(i); e.End() < e.Start {
					t.Errorf("event %d ends before it starts: %+v", i, e)
				}
			}
		})
	}
}

// TestTruncatedErrorNoFlagHint: with AllowTruncated given, no error is
// marked Truncated (the CLI offers the flag only on those).
func TestTruncatedErrorNoFlagHint(t *testing.T) {
	_, err := Read(strings.NewReader(oneEvent[:30]), "x.json", Options{})
	var pe *Error
	if !errors.As(err, &pe) || !pe.Truncated {
		t.Fatalf("want a truncation error, got %v", err)
	}
	tr, err := Read(strings.NewReader(oneEvent[:30]), "x.json", Options{AllowTruncated: true})
	if err != nil || !tr.Truncated {
		t.Fatalf("with AllowTruncated: %v", err)
	}
}

// TestDevZero: /dev/zero is refused at its first byte, not after 256 MB.
func TestDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := Open("/dev/zero", Options{})
	var pe *Error
	if !errors.As(err, &pe) || pe.Offset != 0 || !strings.Contains(err.Error(), "byte 0x00") {
		t.Fatalf("got %v", err)
	}
}

// TestCountsIndependentOfReads: a long top-level value with invalid UTF-8
// and bare words, read through 4 KiB reads (so its unit is retried after
// refills), is counted once.
func TestCountsIndependentOfReads(t *testing.T) {
	in := `{"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1,"args":{"v":[` +
		strings.Repeat("N/A,", 1<<18) + `1]}}],"big":"` + strings.Repeat("x", 3<<20) + "\xff\"}"
	for _, r := range []io.Reader{strings.NewReader(in), &chunkReader{strings.NewReader(in), 4096}} {
		tr, err := Read(r, "c.json", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if w := warnKeys(tr); w["invalid-utf8"] != 1 || w["bare-word"] != 1<<18 {
			t.Fatalf("counts depend on the reads: %v", tr.Warnings)
		}
	}
}
