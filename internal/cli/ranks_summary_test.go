package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/units"
)

const bigRanks, bigStraggler = 1024, 700

// bigJobDir writes a job of 1,024 ranks of two steps each, rank 700
// launching every all-reduce 3 ms late.
func bigJobDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for r := range bigRanks {
		var b bytes.Buffer
		if _, err := gen.Write(&b, gen.Config{Steps: 2, World: bigRanks, Rank: r, Straggler: bigStraggler, StragglerDelay: 3_000_000}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "rank"+pad4(r)+".json"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func pad4(r int) string { s := strconv.Itoa(r); return strings.Repeat("0", 4-len(s)) + s }

// lines counts the lines of stdout and stderr together.
func lines(out, stderr string) int { return strings.Count(out, "\n") + strings.Count(stderr, "\n") }

// TestRanksSummary1024: on a 1,024-rank job ranks prints at most 60 lines
// (text at any width, Markdown), names the straggler in every per-rank
// table and in the verdict; --all prints all 1,024 rows of each table;
// JSON holds 1,024 ranks either way. The truth is the raw events: each
// rank's all-reduce kernels, matched by name and occurrence in each step,
// the wait of each its duration minus the shortest (rawMatch); the ranks
// whose wait lies more than 3 MADs from the median of the waits are the
// ones the summary must list, and its median and max rows are the raw
// median and max.
func TestRanksSummary1024(t *testing.T) {
	dir := bigJobDir(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(paths) != bigRanks {
		t.Fatalf("%d traces, want %d", len(paths), bigRanks)
	}
	rs := make([]rawRank, len(paths))
	for i, p := range paths {
		rs[i] = readRawRank(t, p)
	}
	w := rawMatch(rs)
	med := rawMedian(w.wait)
	dev := make([]int64, len(w.wait))
	for i, x := range w.wait {
		dev[i] = max(x-med, med-x)
	}
	mad := rawMedian(dev)
	var out []int64
	for i, d := range dev {
		if d > 3*mad {
			out = append(out, rs[i].rank)
		}
	}
	if len(out) != 1 || out[0] != bigStraggler {
		t.Fatalf("raw: the ranks whose wait stands out are %v, want the planted %d", out, bigStraggler)
	}
	waits := append([]int64(nil), w.wait...)
	sort.Slice(waits, func(i, j int) bool { return waits[i] < waits[j] })

	row := regexp.MustCompile(`(?m)^ +` + strconv.Itoa(bigStraggler) + ` +`)
	mdRow := regexp.MustCompile(`(?m)^\| +` + strconv.Itoa(bigStraggler) + ` \|`)
	for _, c := range []struct {
		args   []string
		golden string // "": no golden
	}{
		{nil, ""},
		{[]string{"--width", "80"}, "ranks.1024_summary_80.golden"},
		{[]string{"--format", "md"}, "ranks.1024_summary_md.golden"},
	} {
		stdout, stderr, code := run(t, append([]string{"ranks", dir}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", c.args, code, stderr)
		}
		if c.golden != "" {
			golden.Check(t, testenv.Root(), c.golden, "exit "+itoa(code)+"\n-- stdout --\n"+strings.ReplaceAll(stdout, dir, "JOB")+"-- stderr --\n"+stderr)
		}
		if n := lines(stdout, stderr); n > 60 {
			t.Errorf("%v: %d lines, want at most 60", c.args, n)
		}
		if !strings.Contains(stdout, "straggler: rank "+strconv.Itoa(bigStraggler)) {
			t.Errorf("%v: the verdict does not name rank %d", c.args, bigStraggler)
		}
		re := row
		if len(c.args) > 0 && c.args[0] == "--format" {
			re = mdRow
		}
		if n := len(re.FindAllString(stdout, -1)); n != 3 {
			t.Errorf("%v: rank %d listed in %d tables, want 3:\n%s", c.args, bigStraggler, n, stdout)
		}
		if re == mdRow {
			continue
		}
		// the waited column of the collectives table: its min, median and
		// max rows are the raw ones
		coll := stdout[strings.Index(stdout, "\nCollectives"):]
		for _, l := range []struct {
			label string
			ns    int64
		}{{"median", med}, {"max", waits[len(waits)-1]}, {"min", waits[0]}} {
			m := regexp.MustCompile(`(?m)^ +` + l.label + ` +\d+ +\d+ +(\S+)`).FindStringSubmatch(coll)
			if m == nil || m[1] != units.Dur(l.ns) {
				t.Errorf("%v: waited %s row %v, want %s", c.args, l.label, m, units.Dur(l.ns))
			}
		}
	}
	stdout, _, _ := run(t, "ranks", dir, "--all")
	if c := len(regexp.MustCompile(`(?m)^ +\d+ +rank\d{4}\.json `).FindAllString(stdout, -1)); c != bigRanks {
		t.Errorf("--all: %d rows in the per-rank table, want %d", c, bigRanks)
	}
	if c := len(regexp.MustCompile(`(?m)^ +\d+ +\d+\.\d+(us|ms|s) `).FindAllString(stdout, -1)); c != bigRanks {
		t.Errorf("--all: %d rows in the device table, want %d", c, bigRanks)
	}
	for _, args := range [][]string{{}, {"--all"}} {
		d, _ := ranksJSONOf(t, append([]string{dir}, args...)...)
		if len(d.Ranks) != bigRanks || d.Verdict == nil || d.Verdict.Rank != bigStraggler {
			t.Errorf("json %v: %d ranks, verdict %+v", args, len(d.Ranks), d.Verdict)
		}
	}
}
