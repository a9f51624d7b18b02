package parse

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repeatedEvents is a trace of n copies of one valid event.
func repeatedEvents(n int) []byte {
	ev := `{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":1,"dur":1},`
	var b bytes.Buffer
	b.Grow(n*len(ev) + 100)
	b.WriteString(`{"traceEvents":[`)
	for i := 0; i < n; i++ {
		b.WriteString(ev)
	}
	b.WriteString(`{"ph":"X","cat":"cpu_op","name":"end","pid":1,"tid":1,"ts":1,"dur":1}]}`)
	return b.Bytes()
}

// TestGzipBombStopsEarly: a gzip file that expands hundreds of times is
// refused after a sample, with its ratio and size in a one-line message,
// long before its end; the same trace below the bound loads.
func TestGzipBombStopsEarly(t *testing.T) {
	raw := repeatedEvents(800_000) // 61 MB of JSON
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	path := filepath.Join(t.TempDir(), "bomb.json.gz")
	os.WriteFile(path, gz.Bytes(), 0o644)
	ratio := len(raw) / gz.Len()
	if ratio < 100 {
		t.Fatalf("test input compresses only %d:1", ratio)
	}
	_, err := Open(path, Options{MaxMemory: 32 << 20})
	var pe *Error
	if !errors.As(err, &pe) || !pe.TooLarge {
		t.Fatalf("want a too-large error, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"bomb.json.gz", "expands", ":1", "--max-memory 32.0 MiB", "of JSON"} {
		if !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if pe.Offset > int64(len(raw))/2 {
		t.Errorf("stopped at byte %d of %d: not early", pe.Offset, len(raw))
	}
	// Below the bound it loads (the estimate is not a blanket refusal).
	tr, err := Open(path, Options{MaxMemory: 4 << 30})
	if err != nil || tr.NumEvents() != 800_001 {
		t.Fatalf("with a large bound: %v", err)
	}
}

// TestMemoryBoundStdin: without a size to project, reading stops when the
// model itself passes the bound.
func TestMemoryBoundStdin(t *testing.T) {
	raw := repeatedEvents(400_000) // 22 MB of model at the end
	_, err := Read(&chunkReader{bytes.NewReader(raw), 1 << 16}, "-", Options{MaxMemory: 16 << 20})
	var pe *Error
	if !errors.As(err, &pe) || !pe.TooLarge || strings.Contains(err.Error(), "of JSON") {
		t.Fatalf("want a too-large error without a projected size, got %v", err)
	}
	if pe.Offset >= int64(len(raw)) {
		t.Fatalf("stopped at the end (%d)", pe.Offset)
	}
	if _, err := Read(bytes.NewReader(raw), "-", Options{MaxMemory: 1 << 30}); err != nil {
		t.Fatal(err)
	}
}
