package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// runWorkers runs the command line with TRACETAB_WORKERS set to n.
func runWorkers(t *testing.T, n string, args ...string) (string, string, int) {
	t.Helper()
	t.Setenv(workersEnv, n)
	return run(t, args...)
}

// sameSeqPar asserts that the sequential run (1 worker) and the parallel
// one (4 workers) print the same bytes and exit with the same code.
func sameSeqPar(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	out1, err1, code1 := runWorkers(t, "1", args...)
	out4, err4, code4 := runWorkers(t, "4", args...)
	if out1 != out4 || err1 != err4 || code1 != code4 {
		t.Fatalf("%v: sequential and parallel runs differ:\nexit %d / %d\nstderr:\n%s\n---\n%s\nstdout:\n%.2000s\n---\n%.2000s",
			args, code1, code4, err1, err4, out1, out4)
	}
	return out1, err1, code1
}

// TestFanoutSameOutput: ranks and trend over a generated 12-rank job
// (one straggler) and the shared DLRM two ranks print byte-identical JSON
// (and stderr) whether the files are read one after another or four at
// once.
func TestFanoutSameOutput(t *testing.T) {
	dir := t.TempDir()
	files := writeRanks(t, dir, gen.Config{Steps: 3, World: 12, Straggler: 5, StragglerDelay: 2_000_000}, seq(12)...)
	for _, cmd := range []string{"ranks", "trend"} {
		out, _, code := sameSeqPar(t, append([]string{cmd, "--format", "json"}, files...)...)
		if code != 0 || len(out) < 100 {
			t.Fatalf("%s: exit %d, %d bytes", cmd, code, len(out))
		}
	}
	shared := filepath.Join(testenv.Shared(t), "traces")
	dlrm := []string{
		filepath.Join(shared, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker1_step_12.1694128201556.pt.trace.json.gz"),
		filepath.Join(shared, "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz"),
	}
	for _, f := range dlrm {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("shared DLRM trace missing: %v", err)
		}
	}
	for _, cmd := range []string{"ranks", "trend"} {
		if _, stderr, code := sameSeqPar(t, append([]string{cmd, "--format", "json"}, dlrm...)...); code != 0 {
			t.Fatalf("%s on DLRM: exit %d: %s", cmd, code, stderr)
		}
	}
}

// TestFanoutErrorAtK: in a job of 8 files where files 3 and 6 are broken,
// the parallel run reports file 3 (the first by input order) with the
// sequential run's message and exit code, and prints nothing on stdout.
func TestFanoutErrorAtK(t *testing.T) {
	dir := t.TempDir()
	files := writeRanks(t, dir, gen.Config{Steps: 2, World: 8}, seq(8)...)
	for _, k := range []int{3, 6} {
		if err := os.WriteFile(files[k], []byte(`{"traceEvents": [{"ph": "X", "name": `), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range []string{"ranks", "trend"} {
		out, stderr, code := sameSeqPar(t, append([]string{cmd, "--format", "json"}, files...)...)
		if code == 0 || out != "" {
			t.Fatalf("%s: exit %d, stdout %q", cmd, code, out)
		}
		if !containsPath(stderr, files[3]) || containsPath(stderr, files[6]) {
			t.Fatalf("%s: stderr should name file 3 only:\n%s", cmd, stderr)
		}
	}
}

func containsPath(s, p string) bool { return strings.Contains(s, p) }

// exportJobs runs export of files into a new directory with --jobs n and
// returns its stdout and stderr (the directory's name replaced by DIR),
// exit code and files' bytes by name.
func exportJobs(t *testing.T, n string, files []string, extra ...string) (string, int, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"export", "--to", dir, "--jobs", n}, extra...)
	out, stderr, code := run(t, append(args, files...)...)
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		got[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out+"\n--\n"+stderr, dir, "DIR"), code, got
}

// TestFanoutExportSameOutput: export of a generated 12-rank job with a
// broken file 4 prints the same lines (in input order) and writes the same
// bytes with --jobs 1 and --jobs 4; --strict stops at file 4 either way
// (with the same exit code; how many later files were in flight and
// exported by then depends on timing, so the counts are not compared).
func TestFanoutExportSameOutput(t *testing.T) {
	files := writeRanks(t, t.TempDir(), gen.Config{Steps: 2, World: 12}, seq(12)...)
	if err := os.WriteFile(files[4], []byte(`{"traceEvents": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--strict"}} {
		out1, code1, files1 := exportJobs(t, "1", files, extra...)
		out4, code4, files4 := exportJobs(t, "4", files, extra...)
		if extra != nil {
			if code1 != code4 || code1 == 0 || !strings.Contains(out4, files[4]) {
				t.Fatalf("--strict: exit %d / %d:\n%s", code1, code4, out4)
			}
			continue
		}
		if out1 != out4 || code1 != code4 {
			t.Fatalf("%v: --jobs 1 and 4 differ: exit %d / %d\n%s\n---\n%s", extra, code1, code4, out1, out4)
		}
		if code1 == 0 || !strings.Contains(out1, files[4]) {
			t.Fatalf("%v: exit %d, the broken file is not named:\n%s", extra, code1, out1)
		}
		if len(files1) != len(files4) || len(files1) == 0 {
			t.Fatalf("%v: %d files / %d", extra, len(files1), len(files4))
		}
		for name, b := range files1 {
			if files4[name] != b && !strings.HasSuffix(name, ".json") {
				t.Fatalf("%v: %s differs", extra, name)
			}
		}
	}
}
