package golden

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

func TestFileName(t *testing.T) {
	for in, want := range map[string]string{
		"a.chain_--all_Kernel|kernel|sgemm.golden": "a.chain_--all_Kernel_kernel_sgemm.golden",
		`x<y>:"?*\/z`:                    "x_y_______z",
		"tab\there":                      "tab_here",
		"plain.table_--by_kernel.golden": "plain.table_--by_kernel.golden",
	} {
		if got := FileName(in); got != want {
			t.Errorf("FileName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPortableNames: no tracked file has a name Windows or macOS cannot
// hold (git ls-files, so it checks what a clone gets).
func TestPortableNames(t *testing.T) {
	out, err := exec.Command("git", "-C", testenv.Root(), "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if strings.ContainsAny(p, `<>:"|?*\`) {
			t.Errorf("tracked file %q has a character Windows cannot hold", p)
		}
	}
}
