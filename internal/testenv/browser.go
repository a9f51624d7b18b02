package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// ChromiumSkipTag ends the line a browser test writes to TRACETAB_SKIPLOG
// when it skips for want of Chromium (make test counts those apart).
const ChromiumSkipTag = "(no chromium)"

// Chromium returns the path of a Chromium to drive (TRACETAB_CHROMIUM, else
// chromium or chromium-browser on PATH). Without one the test skips, and
// the skip is counted; with TRACETAB_REQUIRE_BROWSER=1 (CI) it fails.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("TRACETAB_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("TRACETAB_REQUIRE_BROWSER") == "1" {
		t.Fatal("TRACETAB_REQUIRE_BROWSER=1 but no Chromium was found (apt-get install chromium, or set TRACETAB_CHROMIUM)")
	}
	logSkip(t.Name() + " " + ChromiumSkipTag)
	t.Skip("Chromium not found (apt-get install chromium, or set TRACETAB_CHROMIUM): skipping the browser test")
	return ""
}
