package cli

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/tracetab/tracetab/internal/rawjson"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/units"
)

// goldenStdout is a view's golden output (internal/render/<view>/
// testdata/golden), and whether it exists: the command exited 0 (cli's
// TestGoldenContract holds the two to each other).
func goldenStdout(t *testing.T, view, name string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testenv.Root(), "internal", "render", view, "testdata", "golden", name))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// lineWith is the golden's line that ends in (or starts with) key.
func lineWith(out, key string, prefix bool) string {
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if (!prefix && strings.HasSuffix(l, key)) || (prefix && f[0] == key) {
			return l
		}
	}
	return ""
}

func hasField(line, v string) bool {
	for _, f := range strings.Fields(line) {
		if f == v {
			return true
		}
	}
	return false
}

// TestGoldenNumbers: the key numbers of the kernel, step and gaps goldens
// of the repository's traces, recomputed here from their raw JSON: each
// kernel's calls and total, each step's CPU time and GPU idle, the
// verdict's GPU idle. A golden written by -update with a wrong number fails
// here.
func TestGoldenNumbers(t *testing.T) {
	files, _ := filepath.Glob(testdata("quirks", "*.json"))
	files = append(files, testdata("sample.pt.trace.json"))
	checked := 0
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".json")
		evs, err := readRawLenient(t, f)
		if err != nil {
			// the quirk traces that are not JSON at all (N/A, a cut) are
			// read by tracetab only; their goldens are held by the views' TestGolden and TestGoldenContract
			t.Logf("%s: not JSON to encoding/json (%v): its numbers are not recomputed", base, err)
			continue
		}
		// the kernel view: calls and total per name
		if out, ok := goldenStdout(t, "tableview", base+".table_--by_kernel.golden"); ok {
			calls, total := map[string]int{}, map[string]int64{}
			var order []string // first appearance, the view's order among equal totals
			for i := range evs {
				e := &evs[i]
				if e.Ph == "X" && rawDevCats[e.Cat] {
					if calls[e.Name] == 0 {
						order = append(order, e.Name)
					}
					calls[e.Name]++
					total[e.Name] += max(0, e.Dur) // a negative dur is read as 0 (with a warning)
				}
			}
			// the text shows each name's label among the view's names, in
			// the view's order (largest total first)
			slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(total[b], total[a]) })
			label := map[string]string{}
			for i, l := range names.Labels(order, 0) {
				label[order[i]] = l
			}
			for n, c := range calls {
				l := lineEndingWith(out, label[n])
				if l == "" || !hasField(l, fmt.Sprint(c)) || !hasField(l, units.Dur(total[n])) {
					t.Errorf("%s kernel view: %s has %d calls of %s in the JSON; the golden line is %q", base, n, c, units.Dur(total[n]), l)
				}
				checked++
			}
		}
		truth := rawGPUIdle(t, evs)
		// the step view: CPU time and GPU idle per step
		if out, ok := goldenStdout(t, "tableview", base+".table_--by_step.golden"); ok && truth.hasWork {
			for i := range evs {
				e := &evs[i]
				m := rawStepName.FindStringSubmatch(e.Name)
				if e.Ph != "X" || m == nil || !(e.Cat == "user_annotation" || e.Cat == "cpu_op") {
					continue
				}
				l := lineWith(out, m[1], true)
				idle := truth.stepIdle[int64(atoiT(t, m[1]))]
				if l == "" || !hasField(l, units.Dur(e.Dur)) || !hasField(l, units.Dur(idle)) {
					t.Errorf("%s step view: step %s lasts %s with %s GPU idle in the JSON; the golden line is %q", base, m[1], units.Dur(e.Dur), units.Dur(idle), l)
				}
				checked++
			}
		}
		// gaps: the verdict's idle over its denominator
		if out, ok := goldenStdout(t, "gapsview", base+".gaps.golden"); ok && truth.hasWork && truth.spanNs > 0 {
			den := truth.spanNs * int64(truth.devices)
			p := math.Round(float64(truth.idleNs)*1e4/float64(den)) / 100
			want := fmt.Sprintf("GPU idle %s%% (%s of %s on ", units.Pct(p), units.Dur(truth.idleNs), units.Dur(den))
			if !strings.Contains(out, want) {
				t.Errorf("%s gaps: the golden does not say %q", base, want)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d numbers checked", checked)
	}
}

// readRawLenient reads a trace's events with encoding/json after turning
// raw control characters inside strings (which tracetab's reader mends,
// with a warning) into spaces; an error when it is not JSON even so.
func readRawLenient(t *testing.T, path string) ([]rawEvent, error) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			b[i] = ' '
		}
	}
	return rawjson.Decode(b)
}

// lineEndingWith is the first line of out whose last field ends the line
// with s (a label is the kernel view's last column), or "".
func lineEndingWith(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(strings.TrimRight(l, " "), "  "+s) {
			return l
		}
	}
	return ""
}
