package duckdb_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/atomicfile"
	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// genTrace writes a generated trace of steps steps and layers layers.
func genTrace(t *testing.T, path string, cfg gen.Config) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, cfg); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestKilledExport cancels an export of six traces while it writes the
// third one's files: DuckDB then reads every file there is; each trace
// listed in traces has all its rows (events as many as traces.events), no
// dataset holds a trace that traces does not list, and nothing is left
// under a temporary name.
func TestKilledExport(t *testing.T) {
	t.Parallel()
	in := t.TempDir()
	var paths []string
	for k := range 6 {
		p := filepath.Join(in, fmt.Sprintf("rank%d.json", k))
		genTrace(t, p, gen.Config{Steps: 300, Layers: 4, Rank: k, World: 6})
		paths = append(paths, p)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var loads atomic.Int32
	done := make(chan struct{})
	var sum *export.Summary
	var runErr error
	go func() {
		defer close(done)
		sum, runErr = export.Run(ctx, paths, export.Options{Dir: dir, Partition: []string{"trace"}, Jobs: 1, Version: "test",
			Load: func(path string, bound int64) (*trace.Trace, error) {
				loads.Add(1)
				return parse.Open(path, parse.Options{MaxMemory: bound})
			}})
	}()
	// cancel once a temporary file of the third trace is being written
	deadline := time.Now().Add(60 * time.Second)
	for cancelled := false; !cancelled; {
		select {
		case <-done:
			t.Fatal("the export ended before it could be cancelled")
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("no temporary file appeared")
		}
		if loads.Load() >= 3 && tempFiles(t, dir) > 0 {
			cancel()
			cancelled = true
		}
		time.Sleep(200 * time.Microsecond)
	}
	<-done
	if runErr == nil || !strings.Contains(runErr.Error(), "canceled") {
		t.Fatalf("the cancelled export returned %v", runErr)
	}
	if n := tempFiles(t, dir); n != 0 {
		t.Errorf("%d temporary files left after the cancel", n)
	}
	if sum.Traces < 2 || sum.Traces >= 6 {
		t.Fatalf("%d traces exported before the cancel, want 2 to 5", sum.Traces)
	}
	db := openDB(t, dir)
	listed := one(t, db, `SELECT count(*) FROM traces`)
	if listed != fmt.Sprint(sum.Traces) {
		t.Errorf("traces lists %s, the export says %d were exported", listed, sum.Traces)
	}
	for _, d := range datasets {
		if orphan := one(t, db, fmt.Sprintf(`SELECT count(DISTINCT trace_id) FROM %s WHERE trace_id NOT IN (SELECT trace_id FROM traces)`, d)); orphan != "0" {
			t.Errorf("%s holds %s traces that traces does not list", d, orphan)
		}
	}
	for _, r := range rows(t, db, `SELECT t.trace_id, t.events, t.steps, (SELECT count(*) FROM events e WHERE e.trace_id = t.trace_id),
			(SELECT count(*) FROM steps s WHERE s.trace_id = t.trace_id) FROM traces t`) {
		if r[1] != r[3] || r[2] != r[4] {
			t.Errorf("trace %s: traces says %s events and %s steps, the files hold %s and %s", r[0], r[1], r[2], r[3], r[4])
		}
	}
	// each file on its own is complete: its footer's row count is its rows
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.parquet"))
	for _, f := range files {
		meta := one(t, db, fmt.Sprintf(`SELECT sum(row_group_num_rows) FROM (SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('%s'))`, f))
		n := one(t, db, fmt.Sprintf(`SELECT count(*) FROM read_parquet('%s')`, f))
		if meta != n && !(meta == "NULL" && n == "0") {
			t.Errorf("%s: footer says %s rows, %s read", f, meta, n)
		}
	}
	t.Logf("cancelled during the third trace: %d of 6 exported, %d files, all complete", sum.Traces, len(files))
}

func tempFiles(t *testing.T, dir string) int {
	n := 0
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && atomicfile.IsTemp(info.Name()) {
			n++
		}
		return nil
	})
	return n
}
