package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/gen"
)

// TestExportMemory: export holds the trace (with its shapes, stacks and
// launch parameters) and one phase's lists at a time, not the gaps
// report beside the events' writer and the per-step tables. On a 60 MB
// generated trace with modules it peaked 87 MiB above info before
// (1.5 x the JSON), 48 MiB after (0.84 x); the bound is the JSON's size
// above info, with room for the run-to-run noise of a shared machine.
func TestExportMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and writes 60 MB")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Config{TargetBytes: 60e6, Layers: 8, Modules: true}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	info := runChild(t, time.Minute, "", "info", p)
	exp := runChild(t, 2*time.Minute, "", "export", "--jobs", "1", "--to", filepath.Join(dir, "out"), p)
	if info.code != 0 || exp.code != 0 {
		t.Fatalf("exit info %d, export %d: %s %s", info.code, exp.code, info.stderr, exp.stderr)
	}
	t.Logf("file %d MiB: peak RSS info %d MiB, export %d MiB", st.Size()>>20, info.rss>>20, exp.rss>>20)
	if info.rss == 0 || exp.rss == 0 {
		t.Fatalf("no peak RSS read (info %d, export %d)", info.rss, exp.rss)
	}
	if exp.rss > info.rss+st.Size() {
		t.Errorf("export peaks at %d MiB, %d MiB above info's %d MiB for a %d MiB file", exp.rss>>20, (exp.rss-info.rss)>>20, info.rss>>20, st.Size()>>20)
	}
}
