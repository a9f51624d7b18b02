package cli

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/trace"
)

// TestPanicIsOneLine: a panic inside a command (here on the main goroutine
// once the trace is read; internal/safe's tests carry one from another
// goroutine) exits 3 with one line naming the file, "internal error" and
// where, and no goroutine dump.
func TestPanicIsOneLine(t *testing.T) {
	afterLoad = func(*trace.Trace) {
		var s []int
		_ = s[len(s)+2]
	}
	defer func() { afterLoad = nil }()
	sample := "../../testdata/sample.pt.trace.json"
	for _, args := range [][]string{{"info", sample}, {"table", sample}, {"gaps", sample}} {
		var out, errb strings.Builder
		code := Main(args, strings.NewReader(""), &out, &errb)
		msg := errb.String()
		if code != ExitUnreadable {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUnreadable)
		}
		if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, sample+": internal error: runtime error: index out of range") ||
			!strings.Contains(msg, "please report") || !strings.Contains(msg, "in cli.TestPanicIsOneLine") {
			t.Errorf("%v: stderr %q", args, msg)
		}
		if strings.Contains(msg, "goroutine") {
			t.Errorf("%v: a goroutine dump: %q", args, msg)
		}
	}
}
