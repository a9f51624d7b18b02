package cli

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

func TestVersionFrom(t *testing.T) {
	set := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, c := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: set("vcs.revision", "0123456789abcdef0123", "vcs.modified", "false")}, "dev-0123456789ab"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: set("vcs.revision", "0123456789abcdef0123", "vcs.modified", "true")}, "dev-0123456789ab-dirty"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
	} {
		if got := versionFrom(&c.bi); got != c.want {
			t.Errorf("versionFrom(%+v) = %q, want %q", c.bi.Main, got, c.want)
		}
	}
}

func TestVersionCommand(t *testing.T) {
	out, stderr, code := run(t, "version")
	if code != 0 || !strings.HasPrefix(out, "tracetab ") || !strings.Contains(out, runtime.Version()) || stderr != "" {
		t.Fatalf("exit %d %q %q", code, out, stderr)
	}
	flag, _, code := run(t, "--version")
	if code != 0 || flag != out {
		t.Errorf("--version printed %q, version %q", flag, out)
	}
	if _, _, code := run(t, "version", "extra"); code != ExitUsage {
		t.Errorf("version extra: exit %d, want 2", code)
	}
}

// TestStaticBuild: the install line of docs/checks.md (CGO_ENABLED=0) gives a
// binary with no ELF interpreter, i.e. not dynamically linked, and one
// built with -ldflags -X reports that version.
func TestStaticBuild(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("builds a binary; linux only, not in -short")
	}
	bin := filepath.Join(t.TempDir(), "tracetab")
	cmd := exec.Command("go", "build", "-ldflags", "-X github.com/tracetab/tracetab/internal/cli.Version=v9.9.9-test", "-o", bin, "./cmd/tracetab")
	cmd.Dir = testenv.Root()
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatal("CGO_ENABLED=0 build has an ELF interpreter: dynamically linked")
		}
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "tracetab v9.9.9-test (") || !strings.Contains(string(out), "static") {
		t.Fatalf("version: %v %q", err, out)
	}
}
