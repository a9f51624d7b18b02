package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestJSONIndented: every JSON document is laid out the way
// encoding/json's Indent lays it out (two spaces per level, nested maps
// and lists included), so a reader or a diff tool sees its structure.
// chain streams its JSON in its own compact layout and is not held to it.
func TestJSONIndented(t *testing.T) {
	sample := filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")
	real := filepath.Join(testenv.Shared(t), "traces", "TraceLens__torch_compile_triton__trace.json.gz")
	for _, tr := range []string{sample, real} {
		for _, args := range [][]string{
			{"info", tr}, {"table", tr}, {"table", tr, "--by", "kernel"}, {"table", tr, "--by", "step"},
			{"gaps", tr}, {"compile", tr}, {"diff", tr, tr}, {"diff", tr, tr, "--fail-on", "self_cuda>1%"},
			{"check", tr, "--max-gpu-idle", "1", "--max", "self_cpu@^nothing$=1ms"},
		} {
			out, stderr, code := run(t, append(args, "--format", "json")...)
			if code == ExitUsage && strings.Contains(stderr, "nothing to show") {
				continue // a view of something the trace lacks (steps, kernels) is refused
			}
			if code > 1 {
				t.Errorf("%v: exit %d %s", args, code, stderr)
				continue
			}
			var compact, want bytes.Buffer
			if err := json.Compact(&compact, []byte(out)); err != nil {
				t.Errorf("%v: not JSON: %v", args, err)
				continue
			}
			json.Indent(&want, compact.Bytes(), "", "  ")
			want.WriteByte('\n')
			if want.String() != out {
				t.Errorf("%v: the JSON is not laid out by its structure (first difference at byte %d)", args, firstDiffAt(out, want.String()))
			}
		}
	}
}

func firstDiffAt(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
