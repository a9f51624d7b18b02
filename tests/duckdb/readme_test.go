package duckdb_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// readmeQueries are the DuckDB queries of the section "When one machine
// is not enough" (moved from the README to docs/fleet.md) (the sql blocks before the Spark ones).
func readmeQueries(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join(testenv.Root(), "docs", "fleet.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "## When one machine is not enough\n")
	sec, _, ok2 := strings.Cut(sec, "Spark SQL (documented")
	if !ok || !ok2 {
		t.Fatal("docs/fleet.md has no section \"When one machine is not enough\" with DuckDB queries before the Spark ones")
	}
	var qs []string
	for _, m := range regexp.MustCompile("(?s)```sql\n(.*?)```").FindAllStringSubmatch(sec, -1) {
		qs = append(qs, m[1])
	}
	if len(qs) != 3 {
		t.Fatalf("the README's section has %d DuckDB queries, want 3", len(qs))
	}
	return qs
}

// nightlyFleet writes three nightlies of a two-rank job: 2026-06-01 on
// A100s with the GEMM twice as slow, 2026-06-02 and -03 on H100s, the
// last with the GEMM 1.3 times as slow.
func nightlyFleet(t *testing.T) (root string, files []string) {
	root = t.TempDir()
	nights := []struct {
		date, gpu, slow string
	}{{"2026-06-01", "NVIDIA A100-SXM4-80GB", "gemm:2"}, {"2026-06-02", "NVIDIA H100 80GB HBM3", ""}, {"2026-06-03", "NVIDIA H100 80GB HBM3", "gemm:1.3"}}
	for _, n := range nights {
		day, _ := time.Parse("2006-01-02", n.date)
		base := day.Add(time.Hour).UnixNano()
		for rank := range 2 {
			cfg := gen.Config{Steps: 40, Layers: 2, Rank: rank, World: 2, Noise: gen.Noise{Seed: uint64(rank + 1), Jitter: 0.05}}
			if n.slow != "" {
				s, err := gen.ParseSlow(n.slow)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Noise.Slow = []gen.Slow{s}
			}
			var buf bytes.Buffer
			if _, err := gen.Write(&buf, cfg); err != nil {
				t.Fatal(err)
			}
			text := regexp.MustCompile(`"baseTimeNanoseconds": [0-9]+`).ReplaceAllString(buf.String(), fmt.Sprintf(`"baseTimeNanoseconds": %d`, base))
			text = strings.ReplaceAll(text, "NVIDIA A100-SXM4-80GB", n.gpu)
			p := filepath.Join(root, "nightly", n.date, fmt.Sprintf("rank%d.pt.trace.json", rank))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
	}
	return root, files
}

// TestReadmeQueries runs the README's DuckDB queries on an exported fleet
// of generated nightlies and checks their answers against the raw JSON:
// the GEMM is the kernel that got slower on the H100s (1.3 times its
// mean, computed from the events), the p99 step time per job and rank is
// the 0.99 quantile of the ProfilerStep annotations' durations, and the
// op that launched the most device time is the one table says.
func TestReadmeQueries(t *testing.T) {
	t.Parallel()
	qs := readmeQueries(t)
	root, files := nightlyFleet(t)
	dir := filepath.Join(root, "fleet")
	if out, stderr, code := run(t, "export", filepath.Join(root, "nightly"), "--to", dir, "--partition", "date,trace"); code != 0 {
		t.Fatalf("export: exit %d: %s%s", code, out, stderr)
	}
	db := openDB(t, dir)
	query := func(q string) [][]string { return rows(t, db, strings.ReplaceAll(q, "'fleet/", "'"+dir+"/")) }

	// 1: the kernel that got slower on the H100s
	means := map[string][2]int64{} // date -> GEMM durations' sum and count, from the raw JSON
	gemm := ""
	for _, f := range files {
		date := filepath.Base(filepath.Dir(f))
		for _, e := range rawEvents(t, f) {
			if e.Ph == "X" && e.Cat == "kernel" && strings.Contains(e.Name, "gemm") {
				gemm = e.Name
				d, _ := decNs(e.Dur)
				m := means[date]
				means[date] = [2]int64{m[0] + d, m[1] + 1}
			}
		}
	}
	mean := func(d string) float64 { return float64(means[d][0]) / float64(means[d][1]) }
	top := query(qs[0])
	if len(top) == 0 {
		t.Fatal("query 1 returned nothing")
	}
	want := math.Round(mean("2026-06-03")/mean("2026-06-02")*1000) / 1000
	if top[0][0] != gemm || top[0][3] != strconv.FormatFloat(want, 'f', -1, 64) || top[0][4] != "2" {
		t.Errorf("query 1: first row %v; want %s slower by %v over the 2 H100 nights (raw JSON: means %.1f, %.1f ns)", top[0], gemm, want, mean("2026-06-02"), mean("2026-06-03"))
	}
	t.Logf("query 1: %v", top[0])

	// 2: p99 step time per job and rank
	p99 := query(qs[1])
	if len(p99) != 6 {
		t.Fatalf("query 2: %d rows, want 3 jobs x 2 ranks: %v", len(p99), p99)
	}
	for _, f := range files {
		var durs []float64
		for _, e := range rawEvents(t, f) {
			if e.Ph == "X" && strings.HasPrefix(e.Name, "ProfilerStep#") && (e.Cat == "user_annotation" || e.Cat == "cpu_op") {
				d, _ := decNs(e.Dur)
				durs = append(durs, float64(d))
			}
		}
		sort.Float64s(durs)
		h := float64(len(durs)-1) * 0.99
		lo := int(math.Floor(h))
		q := durs[lo] + (h-float64(lo))*(durs[min(lo+1, len(durs)-1)]-durs[lo])
		job, rank := filepath.Base(filepath.Dir(f)), strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "rank"), ".pt.trace.json")
		found := false
		for _, r := range p99 {
			if r[0] == job && r[1] == rank {
				found = true
				got, _ := strconv.ParseFloat(r[3], 64)
				if math.Abs(got-q) > 1e-6*q || r[2] != strconv.Itoa(len(durs)) {
					t.Errorf("query 2 %s rank %s: %v; the raw JSON gives %d steps, p99 %.3f ns", job, rank, r, len(durs), q)
				}
			}
		}
		if !found {
			t.Errorf("query 2 has no row for job %s rank %s: %v", job, rank, p99)
		}
	}

	// 3: the op that launched the most device time, per GPU model
	ops := query(qs[2])
	if len(ops) == 0 {
		t.Fatal("query 3 returned nothing")
	}
	var sum float64
	for _, f := range files {
		var tab tableJSON
		jsonOf(t, &tab, "table", f, "--limit", "-1")
		for _, r := range tab.Rows {
			if r.Name == ops[0][1] && !r.Device {
				if gpu := ops[0][0]; strings.Contains(gpu, "H100") == (filepath.Base(filepath.Dir(f)) != "2026-06-01") {
					sum += float64(r.SelfCUDANs) / 1e6
				}
			}
		}
	}
	if got, _ := strconv.ParseFloat(ops[0][2], 64); math.Abs(got-sum) > 1e-9*sum || sum == 0 {
		t.Errorf("query 3: first row %v; table's self CUDA of %s on %s sums to %v ms", ops[0], ops[0][1], ops[0][0], sum)
	}
	t.Logf("query 3: %v", ops[0])
}
