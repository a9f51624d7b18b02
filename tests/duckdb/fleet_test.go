package duckdb_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// fleetQueries are the DuckDB queries of docs/fleet.md's "Reduce with
// SQL" (the sql blocks before the Spark ones), as written.
func fleetQueries(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join(testenv.Root(), "docs", "fleet.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "## Reduce with SQL\n")
	sec, _, ok2 := strings.Cut(sec, "Spark SQL (documented")
	if !ok || !ok2 {
		t.Fatal("docs/fleet.md has no section \"Reduce with SQL\" with DuckDB queries before the Spark ones")
	}
	var qs []string
	for _, m := range regexp.MustCompile("(?s)```sql\n(.*?)```").FindAllStringSubmatch(sec, -1) {
		qs = append(qs, m[1])
	}
	if len(qs) != 3 {
		t.Fatalf("docs/fleet.md has %d DuckDB queries, want 3", len(qs))
	}
	return qs
}

// fleetQuery runs a query of docs/fleet.md with fleet/ standing for dir.
func fleetQuery(t *testing.T, dir, q string) [][]string {
	t.Helper()
	return rows(t, openDB(t, dir), strings.ReplaceAll(q, "'fleet/", "'"+dir+"/"))
}

// exportTo exports the traces to a new directory.
func exportTo(t *testing.T, traces []string, extra ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "fleet")
	args := append(append([]string{"export", "--to", dir}, extra...), traces...)
	if out, stderr, code := run(t, args...); code != 0 {
		t.Fatalf("export: exit %d: %s%s", code, out, stderr)
	}
	return dir
}

// fleetJobs are the jobs the per-rank queries run on: the two shared DLRM
// ranks, and generated 4-rank jobs with a straggler (one with process
// groups and seq).
func fleetJobs(t *testing.T) map[string][]string {
	shared := filepath.Join(testenv.Shared(t), "traces")
	jobs := map[string][]string{"dlrm": {
		filepath.Join(shared, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz"),
		filepath.Join(shared, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker1_step_12.1694128201556.pt.trace.json.gz")}}
	for name, cfg := range map[string]gen.Config{
		"straggler":  {Steps: 4, World: 4, Straggler: 2, StragglerDelay: 3_000_000},
		"pg-seq":     {Steps: 3, World: 4, Straggler: 1, StragglerDelay: 1_000_000, PGSeq: true},
		"late-start": {Steps: 4, World: 4, Straggler: 3, StragglerDelay: 2_000_000, StragglerBeforeStep: true},
	} {
		dir := t.TempDir()
		for r := range cfg.World {
			c := cfg
			c.Rank = r
			var b bytes.Buffer
			if _, err := gen.Write(&b, c); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "rank"+strconv.Itoa(r)+".pt.trace.json")
			if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			jobs[name] = append(jobs[name], p)
		}
	}
	return jobs
}

type kernelTableJSON struct {
	Kernels []struct {
		Name    string `json:"name"`
		Calls   int64  `json:"calls"`
		TotalNs int64  `json:"total_ns"`
	} `json:"kernels"`
}

type ranksCollJSON struct {
	Ranks []struct {
		Rank         int64  `json:"rank"`
		MedianStepNs *int64 `json:"median_step_ns"`
		StepsCount   int    `json:"steps_count"`
	} `json:"ranks"`
	Collectives []struct {
		Name       string  `json:"name"`
		Occurrence int     `json:"occurrence"`
		Step       *int64  `json:"step"`
		PG         *string `json:"process_group"`
		LastRank   *int64  `json:"last_rank"`
		CausedNs   int64   `json:"caused_wait_ns"`
		Ranks      []any   `json:"ranks"`
	} `json:"collectives"`
}

// nullable is a value as rows() writes it: NULL for nil.
func nullable[T int64 | string](p *T) string {
	if p == nil {
		return "NULL"
	}
	return fmt.Sprint(*p)
}

// TestFleetQueries runs docs/fleet.md's DuckDB queries as written and
// checks each against the command it stands for: the top kernels of each
// rank are table --by kernel's first rows of that rank's trace; each
// collective's straggler and caused wait are ranks --collectives'; the
// step time per night and rank is ranks' median step time over that
// night's traces.
func TestFleetQueries(t *testing.T) {
	t.Parallel()
	qs := fleetQueries(t)
	jobs := fleetJobs(t)
	checked := 0
	for name, traces := range jobs {
		t.Run(name, func(t *testing.T) {
			dir := exportTo(t, traces)
			// 1: the top 5 kernels of each rank
			top := fleetQuery(t, dir, qs[0])
			var d ranksCollJSON
			jsonOf(t, &d, append([]string{"ranks", "--collectives"}, traces...)...)
			n := 0
			for _, tr := range traces {
				var tab kernelTableJSON
				jsonOf(t, &tab, "table", "--by", "kernel", tr, "--limit", "-1")
				rank := rankOf(t, tr)
				var got [][]string
				for _, r := range top {
					if r[0] == rank {
						got = append(got, r)
					}
				}
				want := min(5, len(tab.Kernels))
				if len(got) != want {
					t.Fatalf("query 1, rank %s: %d rows, table --by kernel has %d kernels: %v", rank, len(got), len(tab.Kernels), got)
				}
				for i, r := range got {
					k := tab.Kernels[i]
					// a tie on total_ns may order names otherwise: the totals agree row by row, the name is one of that total's
					same := false
					for _, x := range tab.Kernels {
						same = same || (x.TotalNs == k.TotalNs && x.Name == r[1] && strconv.FormatInt(x.Calls, 10) == r[2])
					}
					if r[3] != strconv.FormatInt(k.TotalNs, 10) || !same {
						t.Errorf("query 1, rank %s row %d: %v; table --by kernel: %s, %d calls, %d ns", rank, i, r, k.Name, k.Calls, k.TotalNs)
					}
					n++
				}
			}
			// 2: the straggler of each collective
			st := fleetQuery(t, dir, qs[1])
			if len(st) != len(d.Collectives) || len(st) == 0 {
				t.Fatalf("query 2: %d collectives, ranks matched %d", len(st), len(d.Collectives))
			}
			for _, c := range d.Collectives {
				found := false
				for _, r := range st {
					if r[0] == nullable(c.Step) && r[1] == nullable(c.PG) && r[2] == c.Name && r[3] == strconv.Itoa(c.Occurrence) {
						found = true
						if r[4] != strconv.Itoa(len(c.Ranks)) || r[5] != nullable(c.LastRank) || r[6] != strconv.FormatInt(c.CausedNs, 10) {
							t.Errorf("query 2: %v; ranks: %d ranks, last %s, caused %d ns", r, len(c.Ranks), nullable(c.LastRank), c.CausedNs)
						}
					}
				}
				if !found {
					t.Errorf("query 2 has no row for %s #%d in step %s", c.Name, c.Occurrence, nullable(c.Step))
				}
			}
			t.Logf("%s: query 1 checked %d rows, query 2 %d collectives; the worst: %v", name, n, len(st), st[0])
			checked++
		})
	}
	t.Run("nightly", func(t *testing.T) {
		root, files := nightlyFleet(t)
		dir := exportTo(t, []string{filepath.Join(root, "nightly")}, "--partition", "date,trace")
		// 3: step time per night and rank
		got := fleetQuery(t, dir, qs[2])
		if len(got) != len(files) {
			t.Fatalf("query 3: %d rows, want one per trace (%d): %v", len(got), len(files), got)
		}
		for _, night := range []string{"2026-06-01", "2026-06-02", "2026-06-03"} {
			var d ranksCollJSON
			jsonOf(t, &d, "ranks", filepath.Join(root, "nightly", night))
			for _, r := range d.Ranks {
				found := false
				for _, g := range got {
					if !strings.HasPrefix(g[0], night) || g[1] != strconv.FormatInt(r.Rank, 10) {
						continue
					}
					found = true
					med, _ := strconv.ParseFloat(g[3], 64)
					if r.MedianStepNs == nil || *r.MedianStepNs != int64(math.Floor(med+0.5)) || g[2] != strconv.Itoa(r.StepsCount) {
						t.Errorf("query 3: %v; ranks: %d steps, median %v ns", g, r.StepsCount, r.MedianStepNs)
					}
				}
				if !found {
					t.Errorf("query 3 has no row for %s rank %d: %v", night, r.Rank, got)
				}
			}
		}
		t.Logf("query 3: %v", got)
		checked++
	})
	if checked != len(jobs)+1 {
		t.Fatalf("checked %d jobs of %d", checked, len(jobs)+1)
	}
}

// rankOf is a trace's rank as ranks and the datasets give it
// (distributedInfo's).
func rankOf(t *testing.T, path string) string {
	var d struct {
		Ranks []struct {
			Rank int64 `json:"rank"`
		} `json:"ranks"`
	}
	jsonOf(t, &d, "ranks", path)
	return strconv.FormatInt(d.Ranks[0].Rank, 10)
}
