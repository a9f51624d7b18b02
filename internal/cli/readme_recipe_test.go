package cli

import (
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
)

// readmeBlock returns the fenced block of the CI recipe (moved from the
// README to docs/ci.md) that follows the line containing marker, without
// its indentation.
func readmeBlock(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testenv.Root(), "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "### CI recipe")
	if i < 0 {
		t.Fatal("docs/ci.md has no CI recipe")
	}
	s = s[i:]
	j := strings.Index(s, marker)
	if j < 0 {
		t.Fatalf("docs/ci.md recipe lacks %q", marker)
	}
	var out []string
	for _, l := range strings.Split(s[j:], "\n") {
		l = strings.TrimPrefix(l, "   ")
		if strings.HasPrefix(l, "```") {
			break
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n") + "\n"
}

func gzFile(t *testing.T, dir, name string, cfg gen.Config) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := gen.Write(zw, cfg); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

func healthy(seed uint64, slow ...gen.Slow) gen.Config {
	return gen.Config{Steps: 8, Layers: 8, Warm: true, Noise: gen.Noise{Seed: seed, Jitter: 0.05, Slow: slow}}
}

// TestREADMEBudget: the README's example budget passes on a healthy
// training-like trace.
func TestREADMEBudget(t *testing.T) {
	dir := t.TempDir()
	budget := filepath.Join(dir, "budget.yaml")
	os.WriteFile(budget, []byte(readmeBlock(t, "# perf/budget.yaml")), 0o644)
	tr := gzFile(t, dir, "trace.json.gz", healthy(1))
	out, stderr, code := run(t, "check", tr, "--budget", budget)
	if code != 0 || !strings.HasPrefix(out, "PASS: 3 budgets") {
		t.Fatalf("exit %d %s\n%s", code, stderr, out)
	}
}

// TestREADMERecipeBashE runs the README's gate step as GitHub does
// (bash -e): a healthy run passes; a slower one fails the step and still
// writes the diff summary.
func TestREADMERecipeBashE(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "tracetab"), "./cmd/tracetab")
	build.Dir = testenv.Root()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script := readmeBlock(t, "status=0")
	os.MkdirAll(filepath.Join(dir, "perf"), 0o755)
	os.WriteFile(filepath.Join(dir, "perf", "budget.yaml"), []byte(readmeBlock(t, "# perf/budget.yaml")), 0o644)
	gzFile(t, dir, "perf/baseline.json.gz", healthy(1))
	slow, err := gen.ParseSlow("gemm:1.3")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  gen.Config
		code int
		head string
	}{{"healthy", healthy(2), 0, "**PASS**"}, {"slow", healthy(3, slow), 1, "**FAIL**"}} {
		gzFile(t, dir, "trace.json.gz", c.cfg)
		summary := filepath.Join(dir, c.name+".md")
		cmd := exec.Command(bash, "-e", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GITHUB_STEP_SUMMARY="+summary)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		md, _ := os.ReadFile(summary)
		if code != c.code || !strings.HasPrefix(string(md), c.head) {
			t.Errorf("%s: exit %d, summary %.200q\n%s", c.name, code, md, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "tracetab-check.xml")); err != nil {
			t.Errorf("%s: no junit file", c.name)
		}
	}
}
