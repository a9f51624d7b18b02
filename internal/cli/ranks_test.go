package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tracetab/tracetab/internal/gen"
)

// writeRanks writes one generated trace per rank into dir (rank<r>.json)
// and returns their paths.
func writeRanks(t *testing.T, dir string, cfg gen.Config, ranks ...int) []string {
	t.Helper()
	var paths []string
	for _, r := range ranks {
		c := cfg
		c.Rank = r
		var b bytes.Buffer
		if _, err := gen.Write(&b, c); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "rank"+strconv.Itoa(r)+".json")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestRanksStraggler: a generated job where one rank launches every
// all-reduce late: ranks names it, and the wait per other rank per step
// equals the delay within the transfer time; with -pg-seq the kernels are
// matched by process group and seq, with the same answer. Without a
// straggler the ranks are balanced.
func TestRanksStraggler(t *testing.T) {
	const delay = int64(3_000_000)
	const transfer = int64(48_000) // gen's all-reduce kernel on the last rank
	for _, pg := range []bool{false, true} {
		for _, s := range []int{0, 2, 3} {
			dir := t.TempDir()
			writeRanks(t, dir, gen.Config{Steps: 4, World: 4, Straggler: s, StragglerDelay: delay, PGSeq: pg}, 0, 1, 2, 3)
			d, _ := ranksJSONOf(t, dir)
			v := d.Verdict
			if v == nil || v.Class != "straggler" || v.Rank != int64(s) || v.Last != 4 {
				t.Fatalf("pg %v straggler %d: verdict %+v", pg, s, v)
			}
			var m map[string]any
			runJSON(t, &m, "ranks", "--format", "json", dir)
			per := int64(m["verdict"].(map[string]any)["caused_wait_per_rank_step_ns"].(float64))
			if per < delay-transfer || per > delay+transfer {
				t.Errorf("straggler %d: %d ns per rank per step, want the delay %d within %d", s, per, delay, transfer)
			}
			by := m["matching"].(map[string]any)["by"].(string)
			if pg != strings.HasPrefix(by, "process group and seq") {
				t.Errorf("pg %v: matched by %q", pg, by)
			}
			for _, r := range d.Ranks {
				if want := int64(0); r.Rank != int64(s) && *r.CausedWaitNs != want {
					t.Errorf("rank %d caused %d", r.Rank, *r.CausedWaitNs)
				}
			}
		}
	}
	dir := t.TempDir()
	writeRanks(t, dir, gen.Config{Steps: 4, World: 4}, 0, 1, 2, 3)
	d, _ := ranksJSONOf(t, dir)
	if d.Verdict == nil || d.Verdict.Class != "balanced" || !strings.HasPrefix(d.Verdict.Text, "balanced") {
		t.Fatalf("no straggler: verdict %+v", d.Verdict)
	}
	// --min-skew decides: a 10us delay is 4% of a 249us step
	dir = t.TempDir()
	writeRanks(t, dir, gen.Config{Steps: 4, World: 2, Straggler: 1, StragglerDelay: 10_000}, 0, 1)
	if d, _ := ranksJSONOf(t, dir); d.Verdict.Class != "balanced" || d.Verdict.Rank != 1 || !strings.Contains(d.Verdict.Text, "(--min-skew)") {
		t.Errorf("10us late at --min-skew 5: %+v", d.Verdict)
	}
	if d, _ := ranksJSONOf(t, "--min-skew", "1%", dir); d.Verdict.Class != "straggler" || d.Verdict.Rank != 1 {
		t.Errorf("10us late at --min-skew 1: %+v", d.Verdict)
	}
	// --fail-on-skew
	if _, stderr, code := run(t, "ranks", "--fail-on-skew", "1", dir); code != ExitCheck || !strings.Contains(stderr, "rank 1 holds the others back") {
		t.Errorf("--fail-on-skew 1: exit %d %q", code, stderr)
	}
	if _, _, code := run(t, "ranks", "--fail-on-skew", "50", dir); code != 0 {
		t.Errorf("--fail-on-skew 50: exit %d", code)
	}
	if _, stderr, code := run(t, "ranks", "--min-skew", "x", dir); code != ExitUsage || !strings.Contains(stderr, "--min-skew") {
		t.Errorf("--min-skew x: exit %d %q", code, stderr)
	}
}

// TestRanksHonesty: the rules that keep ranks from claiming what it cannot
// know, on generated traces.
func TestRanksHonesty(t *testing.T) {
	cfg := gen.Config{Steps: 3, World: 4, Straggler: 1, StragglerDelay: 1_000_000}
	t.Run("fewer ranks than the world", func(t *testing.T) {
		dir := t.TempDir()
		writeRanks(t, dir, cfg, 0, 1)
		d, _ := ranksJSONOf(t, dir)
		if d.Verdict == nil || !strings.Contains(d.Verdict.Text, "slowest of the 2 given ranks; 2 ranks not given may be slower") {
			t.Errorf("verdict %+v", d.Verdict)
		}
	})
	t.Run("same rank twice", func(t *testing.T) {
		a := writeRanks(t, t.TempDir(), cfg, 1)[0]
		b := writeRanks(t, t.TempDir(), cfg, 1)[0]
		if _, stderr, code := run(t, "ranks", a, b); code != ExitUsage || !strings.Contains(stderr, a) || !strings.Contains(stderr, b) {
			t.Errorf("exit %d %q", code, stderr)
		}
	})
	t.Run("different world sizes", func(t *testing.T) {
		a := writeRanks(t, t.TempDir(), cfg, 0)[0]
		c := cfg
		c.World = 2
		b := writeRanks(t, t.TempDir(), c, 1)[0]
		if _, stderr, code := run(t, "ranks", a, b); code != ExitUsage || !strings.Contains(stderr, "world size 4") {
			t.Errorf("exit %d %q", code, stderr)
		}
	})
	t.Run("no distributedInfo", func(t *testing.T) {
		dir := t.TempDir()
		writeRanks(t, dir, gen.Config{Steps: 3, Layers: 1}, 0)
		os.Rename(filepath.Join(dir, "rank0.json"), filepath.Join(dir, "a.json"))
		writeRanks(t, dir, gen.Config{Steps: 3, Layers: 1}, 0)
		os.Rename(filepath.Join(dir, "rank0.json"), filepath.Join(dir, "b.json"))
		d, stderr := ranksJSONOf(t, dir)
		if !strings.Contains(stderr, "a.json: no rank in distributedInfo: rank 0 from the file's position") ||
			!strings.Contains(stderr, "b.json: no rank in distributedInfo: rank 1 from the file's position") {
			t.Errorf("stderr %q", stderr)
		}
		if len(d.Ranks) != 2 || d.Ranks[1].Rank != 1 || d.Ranks[0].WorldSize != nil {
			t.Errorf("ranks %+v", d.Ranks)
		}
	})
	t.Run("collective counts differ", func(t *testing.T) {
		dir := t.TempDir()
		writeRanks(t, dir, cfg, 0)
		c := cfg
		c.Steps = 4 // rank 1 has a step more: matched within the 3 common steps
		writeRanks(t, dir, c, 1)
		d, stderr := ranksJSONOf(t, dir)
		if d.Matching.Collectives != 3 || !strings.Contains(stderr, "1 communication kernel launched outside the common steps left out") {
			t.Errorf("matched %d; %q", d.Matching.Collectives, stderr)
		}
		// without steps in common there is nothing per step: counts differ
		// per name over the whole trace and the name is left out
		a := filepath.Join(dir, "rank0.json")
		raw, _ := os.ReadFile(a)
		os.WriteFile(a, bytes.ReplaceAll(raw, []byte("ProfilerStep#"), []byte("Step#")), 0o644)
		d, stderr = ranksJSONOf(t, dir)
		if d.Verdict != nil || d.Matching.Collectives != 0 || !strings.Contains(stderr, "not matched: ncclDevKernel_AllReduce") ||
			!strings.Contains(stderr, "3 on rank 0, 4 on rank 1: different counts") || !strings.Contains(*d.NoVerdict, "no collective matched") {
			t.Errorf("verdict %+v reason %v; %q", d.Verdict, d.NoVerdict, stderr)
		}
	})
	t.Run("a rank without communication kernels", func(t *testing.T) {
		dir := t.TempDir()
		writeRanks(t, dir, cfg, 0, 1, 2)
		a := filepath.Join(dir, "rank2.json")
		raw, _ := os.ReadFile(a)
		os.WriteFile(a, bytes.ReplaceAll(raw, []byte("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"), []byte("myReduceKernel(int)")), 0o644)
		d, stderr := ranksJSONOf(t, dir)
		if !strings.Contains(stderr, "rank 2 (rank2.json): no communication kernels") || d.Ranks[2].Collectives != 0 || d.Verdict == nil || d.Verdict.Rank != 1 {
			t.Errorf("verdict %+v; %q", d.Verdict, stderr)
		}
	})
	t.Run("no GPU lane", func(t *testing.T) {
		dir := t.TempDir()
		writeRanks(t, dir, cfg, 0)
		a := filepath.Join(dir, "rank0.json")
		raw, _ := os.ReadFile(a)
		for _, c := range []string{"kernel", "gpu_memcpy", "gpu_memset"} {
			raw = bytes.ReplaceAll(raw, []byte(`"cat": "`+c+`"`), []byte(`"cat": "removed"`))
		}
		os.WriteFile(a, raw, 0o644)
		d, stderr := ranksJSONOf(t, a)
		if !strings.Contains(stderr, "no GPU lane") || d.Ranks[0].GPU || d.Ranks[0].ComputeNs != nil {
			t.Errorf("%+v; %q", d.Ranks[0], stderr)
		}
	})
	t.Run("usage", func(t *testing.T) {
		if _, stderr, code := run(t, "ranks"); code != ExitUsage || !strings.Contains(stderr, "got none") {
			t.Errorf("no args: exit %d %q", code, stderr)
		}
		if _, stderr, code := run(t, "ranks", t.TempDir()); code != ExitUsage || !strings.Contains(stderr, "holds no *.json") {
			t.Errorf("empty dir: exit %d %q", code, stderr)
		}
		if _, _, code := run(t, "ranks", "/nonexistent/x.json"); code != ExitUnreadable {
			t.Errorf("missing file: exit %d", code)
		}
	})
}

// TestRanksGolden: ranks' text, Markdown, CSV and JSON over generated
// jobs (a straggler, a balanced job, a straggler late before the step),
// through Main in parallel: exit 0, nothing on stderr, and stdout (the
// job's directory read as JOB) is ranksview's golden, made by its
// TestGolden on the model.
func TestRanksGolden(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "job")
	os.Mkdir(dir, 0o755)
	writeRanks(t, dir, gen.Config{Steps: 4, World: 4, Straggler: 2, StragglerDelay: 3_000_000}, 0, 1, 2, 3)
	bal := filepath.Join(t.TempDir(), "balanced")
	os.Mkdir(bal, 0o755)
	writeRanks(t, bal, gen.Config{Steps: 4, World: 2}, 0, 1)
	late := filepath.Join(t.TempDir(), "late")
	os.Mkdir(late, 0o755)
	writeRanks(t, late, gen.Config{Steps: 3, World: 3, Straggler: 1, StragglerDelay: 2_000_000, StragglerBeforeStep: true}, 0, 1, 2)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"ranks.straggler.golden", []string{dir}},
		{"ranks.straggler_md.golden", []string{dir, "--format", "md"}},
		{"ranks.straggler_csv.golden", []string{dir, "--format", "csv"}},
		{"ranks.straggler_json.golden", []string{dir, "--format", "json"}},
		{"ranks.balanced.golden", []string{bal}},
		{"ranks.straggler_collectives_80.golden", []string{dir, "--collectives", "--width", "80"}},
		{"ranks.late_before_step_80.golden", []string{late, "--collectives", "--top", "2", "--width", "80"}},
		{"ranks.straggler_collectives_csv.golden", []string{dir, "--collectives", "--format", "csv"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, stderr, code := run(t, append([]string{"ranks"}, c.args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			clean := strings.NewReplacer(dir, "JOB", bal, "JOB", late, "JOB")
			holdToViewGolden(t, "ranksview", c.name, clean.Replace(out))
		})
	}
}

// TestRanksMemory: ranks reads the traces on at most GOMAXPROCS workers
// (2 here) and keeps a summary of each: the peak RSS over three ranks stays
// within that of two files in flight (the built binary, its own VmHWM),
// and one rank's is within issue 15's 0.25x of the file plus the fixed
// runtime.
func TestRanksMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and writes 120 MB")
	}
	dir := t.TempDir()
	paths := writeRanks(t, dir, gen.Config{TargetBytes: 40e6, Layers: 8, World: 3, Straggler: 1, StragglerDelay: 200_000}, 0, 1, 2)
	st, _ := os.Stat(paths[0])
	one := runChild(t, time.Minute, "", "ranks", paths[0])
	all := runChild(t, time.Minute, "", "ranks", dir)
	if one.code != 0 || all.code != 0 || !bytes.Contains(all.stdout, []byte("straggler: rank 1")) {
		t.Fatalf("exit %d/%d: %s %s", one.code, all.code, all.stdout, all.stderr)
	}
	t.Logf("file %d MB: peak RSS one rank %d MiB, three ranks %d MiB", st.Size()>>20, one.rss>>20, all.rss>>20)
	if all.rss > one.rss*2+4<<20 {
		t.Errorf("three ranks peak at %d MiB, one at %d MiB: the traces are held together", all.rss>>20, one.rss>>20)
	}
	if one.rss > st.Size()/4+24<<20 {
		t.Errorf("one rank peaks at %d MiB for a %d MiB file", one.rss>>20, st.Size()>>20)
	}
}
