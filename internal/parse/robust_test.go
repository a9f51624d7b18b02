package parse

import (
	"bytes"
	"compress/gzip"
	"io"
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
