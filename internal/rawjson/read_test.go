package rawjson

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"unsafe"
)

const doc = `{"schemaVersion": 1, "traceEvents": [
 {"ph": "X", "cat": "kernel", "name": "k\"1", "pid": 0, "tid": "stream 7", "ts": 1695835535123456.789, "dur": "2.5",
  "args": {"correlation": 42, "External id": 7, "external id": 9, "nested": {"correlation": 1, "a": [1, "}", {"b": "]"}]}, "s\"k": "v", "grid": [1, 2, 3]}},
 {"ph": "f", "id": "0x1f", "bp": "e", "pid": "p", "tid": 3, "ts": 1e3},
 {"ph": "M", "name": "process_name", "args": null},
 {"ph": "X", "name": "dup", "ts": -0.0019, "dur": null, "args": {"correlation": "a", "correlation": "b" }}
]}`

// TestDecode: the fields a truth needs, as written.
func TestDecode(t *testing.T) {
	evs, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 4 {
		t.Fatalf("%d events, want 4", len(evs))
	}
	e := evs[0]
	if e.Index != 0 || e.Name != `k"1` || e.Cat != "kernel" || e.Ph != "X" || e.Pid != "0" || e.Tid != "stream 7" ||
		e.Ts != 1695835535123456789 || !e.TsPoint || e.SubNs || e.Dur != 2500 || !e.HasTs || !e.HasDur || e.Corr != "42" || e.ExtID != "7" || e.Thread() != "0/stream 7" {
		t.Errorf("event 0 read as %+v", e)
	}
	if v := e.ArgText("external id"); v != "9" {
		t.Errorf("args[external id] = %q, want 9 (no case folding)", v)
	}
	if v, ok := e.Arg("grid"); !ok || string(v) != "[1, 2, 3]" {
		t.Errorf("args.grid = %q, %v", v, ok)
	}
	if n, ok := e.ArgInt("correlation"); !ok || n != 42 {
		t.Errorf("ArgInt(correlation) = %d, %v", n, ok)
	}
	if _, ok := e.Arg("a"); ok {
		t.Error("a key of a nested object was found at the top")
	}
	if m := e.ArgMap(); m["correlation"] != json.Number("42") || m[`s"k`] != "v" {
		t.Errorf("ArgMap = %v", m)
	}
	if f := evs[1]; f.ID != "0x1f" || f.Bp != "e" || f.Pid != "p" || f.Tid != "3" || f.Ts != 1000000 || f.TsPoint || f.HasDur || f.Args != nil {
		t.Errorf("event 1 read as %+v", f)
	}
	if m := evs[2]; m.Args != nil || m.ArgMap() != nil || m.HasTs {
		t.Errorf("event 2 read as %+v", m)
	}
	if d := evs[3]; d.Index != 3 || d.Ts != -1 || !d.SubNs || d.HasDur || d.Corr != "b" {
		t.Errorf("event 3 read as %+v (the last of duplicate keys wins, as in encoding/json)", d)
	}
	if _, err := Decode([]byte(`{"traceEvents": [{"ph": "X", "ts": "N/A"}]}`)); err == nil {
		t.Error("a ts of N/A gave no error")
	}
	if evs, err := Decode([]byte(` [{"ph": "B", "ts": 1}]`)); err != nil || len(evs) != 1 || evs[0].Ts != 1000 {
		t.Errorf("a bare array: %v, %v", evs, err)
	}
}

// TestArgAgainstMap: on the repository's sample trace, every key of every
// event's args reads as encoding/json reads it into a map.
func TestArgAgainstMap(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "sample.pt.trace.json")
	evs := MustReadArgs(t, path)
	keys := 0
	for _, e := range evs {
		var m map[string]json.RawMessage
		if e.Args == nil {
			continue
		}
		if err := json.Unmarshal(e.Args, &m); err != nil {
			t.Fatal(err)
		}
		for k, want := range m {
			got, ok := e.Arg(k)
			if !ok || !bytes.Equal(got, want) {
				t.Fatalf("event %d args[%q] = %s, %v; encoding/json reads %s", e.Index, k, got, ok, want)
			}
			keys++
		}
	}
	if keys < 100 {
		t.Errorf("checked %d args values, want at least 100", keys)
	}
}

// TestReadOnce: parallel readers of a read-only input share one
// decoding; a file a test wrote (plain or gzip) is read afresh each time,
// so a rewritten one reads as rewritten; a missing file is an error
// naming it.
func TestReadOnce(t *testing.T) {
	sample := filepath.Join("..", "..", "testdata", "sample.pt.trace.json")
	var wg sync.WaitGroup
	got := make([][]Event, 8)
	for k := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[k], _ = Read(sample)
		}()
	}
	wg.Wait()
	for k := range got {
		if len(got[k]) == 0 || &got[k][0] != &got[0][0] {
			t.Fatalf("reader %d got %d events, not the shared slice", k, len(got[k]))
		}
	}
	data := []byte(doc)
	dir := t.TempDir()
	plain, gz := filepath.Join(dir, "t.json"), filepath.Join(dir, "t.json.gz")
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	if os.WriteFile(plain, data, 0o644) != nil || os.WriteFile(gz, b.Bytes(), 0o644) != nil {
		t.Fatal("write")
	}
	p, g := MustRead(t, plain), MustRead(t, gz)
	if len(p) != 4 || len(g) != 4 || p[0].Ts != g[0].Ts || p[0].Corr != "42" {
		t.Fatalf("plain %d events, gzip %d", len(p), len(g))
	}
	if q := MustRead(t, plain); &q[0] == &p[0] {
		t.Error("a file a test wrote was kept")
	}
	if os.WriteFile(plain, []byte(`[{"ph": "X", "ts": 1}]`), 0o644) != nil {
		t.Fatal("write")
	}
	if q := MustRead(t, plain); len(q) != 1 {
		t.Errorf("the rewritten file reads as %d events, want 1", len(q))
	}
	if _, err := Read(filepath.Join(dir, "none.json")); err == nil || !bytes.Contains([]byte(err.Error()), []byte("none.json")) {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadWithoutArgs: Read drops the args but keeps the ids read from them.
func TestReadWithoutArgs(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "sample.pt.trace.json")
	with, without := MustReadArgs(t, path), MustRead(t, path)
	if len(with) != len(without) {
		t.Fatalf("%d events with args, %d without", len(with), len(without))
	}
	corr := 0
	for k := range with {
		a, b := with[k], without[k]
		if b.Args != nil || a.Corr != b.Corr || a.ExtID != b.ExtID || a.Ts != b.Ts || a.Name != b.Name {
			t.Fatalf("event %d: %+v with args, %+v without", k, a, b)
		}
		if a.Corr != "" {
			corr++
		}
	}
	if corr == 0 {
		t.Error("the sample trace has no correlation: the check saw nothing")
	}
}

// TestReadArgsOwnCopy: ReadArgs' args are the args as written, each in a
// slice of its own (appending to one cannot reach the next), not slices
// of the file's text; equal names are one string.
func TestReadArgsOwnCopy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	got := MustReadArgs(t, path)
	want, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d events, Decode %d", len(got), len(want))
	}
	withArgs := 0
	for k := range got {
		if !bytes.Equal(got[k].Args, want[k].Args) || (got[k].Args == nil) != (want[k].Args == nil) {
			t.Fatalf("event %d: args %q, as written %q", k, got[k].Args, want[k].Args)
		}
		if a := got[k].Args; a != nil {
			withArgs++
			if cap(a) != len(a) {
				t.Errorf("event %d: args of length %d reach %d bytes on", k, len(a), cap(a)-len(a))
			}
		}
	}
	if withArgs != 2 {
		t.Errorf("%d events with args, want 2", withArgs)
	}
	two := filepath.Join(t.TempDir(), "two.json")
	os.WriteFile(two, []byte(`[{"ph":"X","name":"aten::mm","tid":"stream 7"},{"ph":"X","name":"aten::mm","tid":"stream 7"}]`), 0o644)
	evs := MustRead(t, two)
	if len(evs) != 2 || evs[0].Name != "aten::mm" || evs[1].Tid != "stream 7" {
		t.Fatalf("read %+v", evs)
	}
	if unsafe.StringData(evs[0].Name) != unsafe.StringData(evs[1].Name) || unsafe.StringData(evs[0].Tid) != unsafe.StringData(evs[1].Tid) {
		t.Error("two equal names (threads) are two strings")
	}
}
