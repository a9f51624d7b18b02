package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestCompactTable: --width fits every line of the op table in 80 and 100
// columns on every shared trace, with one row per JSON row, the same calls,
// and no two rows showing the same name.
func TestCompactTable(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testenv.Shared(t), "traces", "*.json*"))
	files = append(files, testdata("sample.pt.trace.json"))
	checked := 0
	for _, f := range files {
		m := tableJSON(t, "table", "--format", "json", "--limit", "30", f)
		rows, _ := m["rows"].([]any)
		for _, width := range []int{80, 100} {
			out, stderr, code := run(t, "table", "--width", strconv.Itoa(width), "--limit", "30", f)
			if code != 0 {
				t.Fatalf("%s: exit %d %s", f, code, stderr)
			}
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			for _, l := range lines {
				if n := utf8.RuneCountInString(l); n > width {
					t.Errorf("%s --width %d: a line of %d runes: %q", filepath.Base(f), width, n, l)
				}
				if strings.HasSuffix(l, " ") {
					t.Errorf("%s: trailing space in %q", filepath.Base(f), l)
				}
			}
			body := lines[2 : len(lines)-2]
			if len(body) != len(rows) {
				t.Fatalf("%s: %d rows, JSON has %d", filepath.Base(f), len(body), len(rows))
			}
			seen := map[string]bool{}
			for i, l := range body {
				fields := strings.Fields(l)
				calls := fields[len(fields)-1]
				want := strconv.FormatInt(int64(rows[i].(map[string]any)["calls"].(float64)), 10)
				if calls != want {
					t.Errorf("%s row %d: calls %s, want %s", filepath.Base(f), i, calls, want)
				}
				name := strings.TrimRight(l[:strings.Index(lines[0], "Self CPU")], " ")
				if seen[name] && len(rows) > 0 {
					t.Errorf("%s: two rows show %q", filepath.Base(f), name)
				}
				seen[name] = true
			}
			checked++
		}
	}
	if checked < 40 {
		t.Errorf("only %d tables checked", checked)
	}
}

func TestCompactFlags(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	out, _, code := run(t, "table", "--columns", "self_cuda_time_total,count", sample)
	if code != 0 || !strings.HasPrefix(out, "Name") || !strings.Contains(strings.SplitN(out, "\n", 2)[0], "Self CUDA  Calls") {
		t.Errorf("torch's sort keys as columns: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"table", "--columns", "bogus", sample},
		{"table", "--by", "kernel", "--width", "20", sample},
		{"table", "--format", "json", "--columns", "calls", sample},
		{"table", "--width", "-5", sample},
	} {
		if _, stderr, code := run(t, args...); code != ExitUsage || !strings.Contains(stderr, "--") {
			t.Errorf("%v: exit %d %q, want a usage error", args, code, stderr)
		}
	}
}
