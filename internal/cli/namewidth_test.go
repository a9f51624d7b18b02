package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// --name-width caps the compact op table's name column too (it was
// ignored there): with --width 0 and --name-width 20 no name is wider.
func TestCompactNameWidth(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	out, _, code := run(t, "table", sample, "--columns", "self_cpu,calls", "--name-width", "20", "--width", "0")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	cut := false
	for _, l := range lines[2:] {
		if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "Self CPU") {
			break
		}
		name := strings.TrimSuffix(strings.SplitN(l, "  ", 2)[0], " ")
		if n := utf8.RuneCountInString(name); n > 20 {
			t.Errorf("name %q: %d wide", name, n)
		}
		cut = cut || strings.Contains(name, "...")
	}
	if !cut {
		t.Errorf("no name was cut: the check says nothing\n%s", out)
	}
}
