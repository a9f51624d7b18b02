package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is Version when the build set it with -ldflags (make build);
// otherwise what the Go toolchain recorded: the module version for
// go install ...@vX.Y.Z, or the VCS revision of a build in a checkout.
func version() string {
	if Version != "dev" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	return versionFrom(bi)
}

func versionFrom(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "dev-" + rev
	if dirty {
		v += "-dirty"
	}
	return v
}

// buildLine is what tracetab version prints: the version, the Go release
// that built it, the platform, and whether it links the C library.
func buildLine() string {
	cgo := "static (CGO_ENABLED=0)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "CGO_ENABLED" && s.Value == "1" {
				cgo = "dynamic (CGO_ENABLED=1)"
			}
		}
	}
	return fmt.Sprintf("tracetab %s (%s, %s/%s, %s)", version(), runtime.Version(), runtime.GOOS, runtime.GOARCH, cgo)
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print tracetab's version, the Go release that built it and whether the binary is static",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := io.WriteString(e.stdout, buildLine()+"\n")
			return err
		},
	}
}
