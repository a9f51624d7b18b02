package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestFlagCompletions: the shell's completion requests list a flag's
// values; other runs register no completion, so cobra's package-level map
// of them does not keep every run's flags (completion.go).
func TestFlagCompletions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "table", "--sort", ""}, "self_cuda_time_total"},
		{[]string{"__complete", "memory", "--section", ""}, "steps"},
		{[]string{"__completeNoDesc", "trend", "--order", ""}, "name"},
	} {
		out, _, code := run(t, c.args...)
		if code != 0 || !strings.Contains(out, c.want+"\n") {
			t.Errorf("%v: exit %d, %q lacks %q", c.args, code, out, c.want)
		}
	}
	for _, args := range [][]string{{"table", "x.json"}, {"__complete", "table", "--sort", ""}} {
		e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, completing: completionRequest(args)}
		table, _, err := newRoot(e).Find([]string{"table"})
		if err != nil {
			t.Fatal(err)
		}
		_, registered := table.GetFlagCompletionFunc("sort")
		if registered != e.completing {
			t.Errorf("%v: --sort's completion registered %v, want %v", args, registered, e.completing)
		}
	}
}
