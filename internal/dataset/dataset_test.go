package dataset

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/hostile"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/ranks"
	"github.com/tracetab/tracetab/internal/trace"
)

// exportJob writes a generated 2-rank job and exports it to DIR/export;
// it returns the export's DIR and the traces.
func exportJob(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for r := range 2 {
		var b bytes.Buffer
		if _, err := gen.Write(&b, gen.Config{Steps: 3, World: 2, Rank: r, Straggler: 1, StragglerDelay: 1_000_000, PGSeq: true}); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "rank"+strconv.Itoa(r)+".json")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out := filepath.Join(dir, "export")
	load := func(path string, bound int64) (*trace.Trace, error) {
		return parse.Open(path, parse.Options{MaxMemory: bound})
	}
	if _, err := export.Run(context.Background(), paths, export.Options{Dir: out, Partition: []string{"trace"}, Load: load, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	return out, paths
}

// TestSummariesRoundTrip: the summaries read back equal those of the
// traces, field by field.
func TestSummariesRoundTrip(t *testing.T) {
	dir, paths := exportJob(t)
	got, err := ReadRanks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Summaries) != len(paths) {
		t.Fatalf("%d summaries, want %d", len(got.Summaries), len(paths))
	}
	for i, p := range paths {
		tr, err := parse.Open(p, parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := ranks.Summarize(tr, i)
		g := got.Summaries[i]
		if g.Rank != want.Rank || g.Origin != want.Origin || g.Epoch != want.Epoch || g.MedianStepNs != want.MedianStepNs ||
			g.ComputeNs != want.ComputeNs || g.CommNs != want.CommNs || g.IdleNs != want.IdleNs || g.OverlapNs != want.OverlapNs ||
			len(g.Colls) != len(want.Colls) || len(g.Steps) != len(want.Steps) || g.Path != want.Path {
			t.Fatalf("rank %d: read back %+v\nwant %+v", i, g, want)
		}
		for k := range want.Colls {
			if g.Colls[k] != want.Colls[k] {
				t.Errorf("rank %d kernel %d: %+v, want %+v", i, k, g.Colls[k], want.Colls[k])
			}
		}
		for k := range want.Steps {
			if g.Steps[k] != want.Steps[k] || g.StepStart[k] != want.StepStart[k] || g.StepDur[k] != want.StepDur[k] {
				t.Errorf("rank %d step %d differs", i, k)
			}
		}
	}
}

// firstFile is the first Parquet file of a dataset under dir.
func firstFile(t *testing.T, dir, ds string) string {
	t.Helper()
	m, err := Files(dir, ds)
	if err != nil || len(m[ds]) == 0 {
		t.Fatalf("no %s file under %s: %v", ds, dir, err)
	}
	return m[ds][0]
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gen2(t *testing.T, f func(*bytes.Buffer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestHostileDatasets: a dataset is input too. A missing directory, a
// file given for it, a tree without the datasets, and files truncated,
// corrupt, empty, not Parquet, a stranger's, a stranger's claiming to be
// tracetab's, of another schema version, an export marker of another
// schema, and a trace whose collectives file is gone: each is one error
// of the documented kind, one line naming the file.
func TestHostileDatasets(t *testing.T) {
	good, _ := exportJob(t)
	coll := firstFile(t, good, export.DatasetCollectives)
	rel, _ := filepath.Rel(good, coll)
	gb, err := os.ReadFile(coll)
	if err != nil {
		t.Fatal(err)
	}
	type damage func(t *testing.T, dir string) string // returns the path the error must name
	replace := func(b func() []byte) damage {
		return func(t *testing.T, dir string) string {
			p := filepath.Join(dir, rel)
			write(t, p, b())
			return p
		}
	}
	add := func(name string, b func() []byte) damage {
		return func(t *testing.T, dir string) string {
			p := filepath.Join(dir, export.DatasetCollectives, name)
			write(t, p, b())
			return p
		}
	}
	cases := []struct {
		name  string
		dmg   damage
		empty bool // an EmptyError, not an Error
	}{
		{"missing", func(t *testing.T, dir string) string { p := filepath.Join(dir, "nothing-here"); return p }, false},
		{"a-file", func(t *testing.T, dir string) string { return coll }, false},
		{"no-datasets", func(t *testing.T, dir string) string {
			os.RemoveAll(filepath.Join(dir, export.DatasetRanks))
			return dir
		}, true},
		{"truncated-half", replace(func() []byte { return hostile.Truncated(gb, len(gb)/2) }), false},
		{"truncated-footer", replace(func() []byte { return hostile.Truncated(gb, len(gb)-3) }), false},
		{"truncated-magic", replace(func() []byte { return hostile.Truncated(gb, 3) }), false},
		{"empty", replace(func() []byte { return nil }), false},
		{"corrupt-footer", replace(func() []byte { return hostile.CorruptFooter(gb) }), false},
		{"not-parquet", add("notes.parquet", func() []byte { return gen2(t, func(b *bytes.Buffer) error { return hostile.NotParquet(b) }) }), false},
		{"foreign", add("foreign.parquet", func() []byte { return gen2(t, func(b *bytes.Buffer) error { return hostile.Foreign(b, 10) }) }), false},
		{"pretender", add("x.parquet", func() []byte {
			return gen2(t, func(b *bytes.Buffer) error { return hostile.Pretender(b, 3, export.Schema, export.DatasetCollectives) })
		}), false},
		{"other-dataset", add("x.parquet", func() []byte {
			return gen2(t, func(b *bytes.Buffer) error { return hostile.Pretender(b, 3, export.Schema, export.DatasetGaps) })
		}), false},
		{"other-version", replace(func() []byte { return hostile.Restamped(gb, export.Schema, "tracetab.parquet/1") }), false},
		{"other-marker", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, export.MarkerName)
			write(t, p, []byte(`{"schema": "tracetab.parquet/1", "partition": ["trace"], "datasets": []}`))
			return p
		}, false},
		{"collectives-gone", func(t *testing.T, dir string) string {
			os.Remove(filepath.Join(dir, rel))
			return filepath.Join(dir, export.DatasetRanks)
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyTree(t, good)
			root := dir
			p := c.dmg(t, dir)
			if c.name == "missing" || c.name == "a-file" {
				root = p
			}
			_, err := ReadRanks(root)
			var de *Error
			var ee *EmptyError
			switch {
			case err == nil:
				t.Fatal("read without an error")
			case c.empty && !errors.As(err, &ee), !c.empty && !errors.As(err, &de):
				t.Fatalf("%T %v", err, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, p) {
				t.Errorf("error %q: want one line naming %s", msg, p)
			}
			t.Log(msg)
		})
	}
}

// TestByteFlips: bytes of a collectives file overwritten in turn (every
// 17th, and each of the footer's): the reader returns rows or an *Error,
// never panics or hangs.
func TestByteFlips(t *testing.T) {
	good, _ := exportJob(t)
	coll := firstFile(t, good, export.DatasetCollectives)
	gb, _ := os.ReadFile(coll)
	p := filepath.Join(t.TempDir(), "x.parquet")
	bad, tried := 0, 0
	var most uint64
	for i := range gb {
		if i%17 != 0 && i < len(gb)-256 {
			continue
		}
		tried++
		b := append([]byte(nil), gb...)
		b[i] ^= 0xa5
		write(t, p, b)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		_, err := ReadRows[export.CollectiveRow](p, export.DatasetCollectives)
		runtime.ReadMemStats(&m1)
		// a corrupt length must not become an allocation (footerFits):
		// reading a file of a few kB takes a few MB at most
		if a := m1.TotalAlloc - m0.TotalAlloc; a > most {
			most = a
		}
		var de *Error
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("byte %d: %T %v", i, err, err)
		}
		if err != nil {
			bad++
		}
	}
	t.Logf("%d of %d flipped bytes refused (a file of %d bytes); at most %d bytes allocated by one reading", bad, tried, len(gb), most)
	if most > 64<<20 {
		t.Errorf("one reading of a %d-byte file allocated %d bytes", len(gb), most)
	}
}

// copyTree copies an export's directory tree.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "copy")
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		q := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(q, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(q, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
