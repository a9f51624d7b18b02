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
