package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/hostile"
)

// TestHostileDataset: the hostile corpus for ranks --dataset, through the
// built binary. An export of a generated 2-rank job is damaged one way per
// case (a file truncated, emptied, its footer corrupted, a stranger's
// Parquet file or text beside it, a file of another schema version, a
// marker of another schema, a file gone, no such directory): each run
// exits with the documented code (3: unreadable input; 2: a tree without
// the datasets) and one line on stderr naming the file, in time, never a
// Go abort.
func TestHostileDataset(t *testing.T) {
	dir := t.TempDir()
	traces := writeRanks(t, dir, gen.Config{Steps: 3, World: 2, Straggler: 1, StragglerDelay: 1_000_000}, 0, 1)
	good := filepath.Join(dir, "good")
	if r := runChild(t, time.Minute, "", append([]string{"export", "--to", good}, traces...)...); r.code != 0 {
		t.Fatalf("export: exit %d: %s", r.code, r.stderr)
	}
	if r := runChild(t, time.Minute, "", "ranks", "--dataset", good); r.code != 0 {
		t.Fatalf("ranks --dataset on the good export: exit %d: %s", r.code, r.stderr)
	}
	var coll string
	filepath.Walk(filepath.Join(good, export.DatasetCollectives), func(p string, info os.FileInfo, err error) error {
		if err == nil && coll == "" && strings.HasSuffix(p, ".parquet") {
			coll = p
		}
		return nil
	})
	rel, _ := filepath.Rel(good, coll)
	gb, err := os.ReadFile(coll)
	if err != nil {
		t.Fatal(err)
	}
	gen := func(f func(*bytes.Buffer) error) []byte {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	cases := []struct {
		name string
		file string // relative to the copy; "" names the copy itself
		data []byte // written there; nil removes it
		code int
	}{
		{"truncated", rel, hostile.Truncated(gb, len(gb)/2), ExitUnreadable},
		{"empty", rel, []byte{}, ExitUnreadable},
		{"corrupt-footer", rel, hostile.CorruptFooter(gb), ExitUnreadable},
		{"not-parquet", filepath.Join(export.DatasetCollectives, "notes.parquet"), gen(func(b *bytes.Buffer) error { return hostile.NotParquet(b) }), ExitUnreadable},
		{"foreign", filepath.Join(export.DatasetRanks, "foreign.parquet"), gen(func(b *bytes.Buffer) error { return hostile.Foreign(b, 100) }), ExitUnreadable},
		{"other-version", rel, hostile.Restamped(gb, export.Schema, "tracetab.parquet/1"), ExitUnreadable},
		{"other-marker", export.MarkerName, []byte(`{"schema": "tracetab.parquet/9", "partition": [], "datasets": []}`), ExitUnreadable},
		{"collectives-gone", rel, nil, ExitUnreadable},
		{"no-ranks", export.DatasetRanks, nil, ExitUsage},
		{"missing", "", nil, ExitUnreadable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cp := filepath.Join(t.TempDir(), "copy")
			if c.name != "missing" {
				if err := os.CopyFS(cp, os.DirFS(good)); err != nil {
					t.Fatal(err)
				}
			}
			named := filepath.Join(cp, c.file)
			switch {
			case c.file == "":
			case c.data == nil:
				os.RemoveAll(named)
			default:
				os.MkdirAll(filepath.Dir(named), 0o755)
				if err := os.WriteFile(named, c.data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.name == "collectives-gone" || c.name == "no-ranks" {
				named = cp // the error names the ranks file or the tree
			}
			r := runChild(t, time.Minute, "", "ranks", "--dataset", cp, "--format", "json")
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			if r.timedOut || r.code != c.code || len(lines) != 1 || !strings.HasPrefix(lines[0], "tracetab: ") ||
				!strings.Contains(lines[0], named) || len(r.stdout) > 0 {
				t.Fatalf("exit %d (want %d), stdout %d bytes, stderr:\n%s\nwant one line naming %s", r.code, c.code, len(r.stdout), r.stderr, named)
			}
			t.Log(lines[0])
		})
	}
}
