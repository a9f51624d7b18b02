package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// tableRows are the lines of a text table: from under its dashed rule to
// the first blank line or line not indented (a note); col is where the header
// cell named head starts.
func tableRows(t *testing.T, out, head string) (rows []string, col int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if c := strings.Index(lines[i], head); c >= 0 && strings.HasPrefix(lines[i+1], "---") {
			for _, l := range lines[i+2:] {
				if strings.TrimSpace(l) == "" || !strings.HasPrefix(l, " ") { // a blank line, a note
					break
				}
				rows = append(rows, l)
			}
			return rows, c
		}
	}
	t.Fatalf("no table with a %q column in:\n%s", head, out)
	return nil, 0
}

// cell is the text of line from col to the next run of two spaces.
func cell(line string, col int) string {
	if col >= len(line) {
		return ""
	}
	s := strings.TrimLeft(line[col:], " ")
	if i := strings.Index(s, "  "); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, " ")
}

// injective reports the first shown label that stands for two names.
func injective(shown, full []string) error {
	if len(shown) != len(full) {
		return fmt.Errorf("%d labels shown for %d names", len(shown), len(full))
	}
	of := map[string]string{}
	for i, s := range shown {
		if f, ok := of[s]; ok && f != full[i] {
			return fmt.Errorf("%q stands for %q and %q", s, f, full[i])
		}
		of[s] = full[i]
	}
	return nil
}

// TestWidthLabelsDistinct: at 80 and 120 columns the rows of the kernel
// view (with its efficiency columns), the module view, the sequence view
// and the category view's step table can be told apart: a label never
// stands for two names (kernel, module path, root op, device op), read
// against the view's JSON.
func TestWidthLabelsDistinct(t *testing.T) {
	shared := filepath.Join(testenv.Shared(t), "traces")
	wide, bert := filepath.Join(shared, testenv.WidthTraceName), filepath.Join(shared, testenv.ModuleWidthTraceName)
	checked := 0
	for _, w := range []string{"80", "120"} {
		check := func(what string, err error) {
			t.Helper()
			checked++
			if err != nil {
				t.Errorf("--width %s: %s: %v", w, what, err)
			}
		}
		for _, f := range []string{wide, bert} {
			out := runOK(t, "table", "--by", "kernel", "--limit", "15", "--width", w, f)
			var kd struct{ Kernels []struct{ Name string } }
			viewJSON(t, &kd, "table", "--by", "kernel", "--limit", "15", f)
			rows, col := tableRows(t, out, "Name")
			var shown, full []string
			for _, r := range rows {
				shown = append(shown, cell(r, col))
			}
			for _, k := range kd.Kernels {
				full = append(full, k.Name)
			}
			check("kernel view of "+filepath.Base(f), injective(shown, full))
		}

		out := runOK(t, "table", "--by", "module", "--limit", "25", "--width", w, bert)
		var md struct{ Modules []struct{ Path string } }
		viewJSON(t, &md, "table", "--by", "module", "--limit", "25", bert)
		rows, _ := tableRows(t, out, "Module")
		var paths, full []string
		var stack []string
		for i, r := range rows {
			indent := (len(r) - len(strings.TrimLeft(r, " ")) - 1) / 2
			if indent > len(stack) {
				t.Fatalf("--width %s: module row %d is indented past its parent: %q", w, i, r)
			}
			stack = append(stack[:indent], cell(r, 0))
			paths = append(paths, strings.Join(stack, "/"))
		}
		for _, m := range md.Modules {
			full = append(full, m.Path)
		}
		check("module view", injective(paths, full))

		out = runOK(t, "table", "--by", "sequence", "--top", "3", "--width", w, wide)
		var sd struct {
			Sequences []struct {
				Op      string
				Kernels []string
			}
		}
		viewJSON(t, &sd, "table", "--by", "sequence", "--top", "3", wide)
		rows, kcol := tableRows(t, out, "Kernels")
		_, ocol := tableRows(t, out, "Op")
		var ops, opFull, ks, kFull []string
		seq := -1
		for _, r := range rows {
			if strings.TrimSpace(r[:min(ocol, len(r))]) != "" { // a sequence's first line: its number
				seq++
				ops = append(ops, cell(r, ocol))
				opFull = append(opFull, sd.Sequences[seq].Op)
			}
			ks = append(ks, cell(r, kcol))
		}
		for _, q := range sd.Sequences {
			kFull = append(kFull, q.Kernels...)
		}
		check("sequence view's ops", injective(ops, opFull))
		check("sequence view's device ops", injective(ks, kFull))

		out = runOK(t, "table", "--by", "category", "--width", w, wide)
		rows, _ = tableRows(t, out, "Category")
		var cats []string
		for _, r := range rows {
			cats = append(cats, cell(r, 0))
		}
		check("category rows", injective(cats, cats))
		if len(cats) != 9 {
			t.Errorf("--width %s: %d category rows, want 8 and the total", w, len(cats))
		}
	}
	if checked != 2*6 {
		t.Errorf("%d checks", checked)
	}
}
