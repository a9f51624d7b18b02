package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/units"
)

// Exit codes, the same for every command.
const (
	ExitOK         = 0 // success
	ExitCheck      = 1 // a check or threshold failed
	ExitUsage      = 2 // bad flags, arguments or budget files
	ExitUnreadable = 3 // an input trace cannot be read, or the output cannot be written
)

// outWriter is stdout that remembers its first write error: whatever a
// command does with the error, the exit code reports it.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err != nil {
		o.err = err
	}
	return n, err
}

// writeError is a failed write of the output (a full disk, a closed
// file): exit 3 with the OS error, no usage text.
type writeError struct{ err error }

func (e *writeError) Error() string { return "cannot write the output: " + e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// exitError carries an exit code with its message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf is a usage error (exit 2).
func usageErrorf(format string, a ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, a...)}
}

// checkFailed is a failed check (exit 1); its details were printed already.
func checkFailed(format string, a ...any) error {
	return &exitError{code: ExitCheck, err: fmt.Errorf(format, a...)}
}

// exitCode is the one place that maps an error to the process exit code,
// and prints it. file is the trace being read or analysed, if any.
func exitCode(err error, stderr io.Writer, file string) int {
	if err == nil {
		return ExitOK
	}
	code := ExitUsage // cobra's own errors are flag and argument errors
	var ee *exitError
	var pe *parse.Error
	var we *writeError
	var ie *safe.PanicError
	switch {
	case errors.As(err, &ie):
		// a bug of tracetab's, not of the input or the flags: exit 3, as
		// for an input it cannot read, and one line
		prefix := ""
		if file != "" {
			prefix = file + ": "
		}
		fmt.Fprintf(stderr, "tracetab: %s%v\n", prefix, ie)
		if os.Getenv("TRACETAB_TRACEBACK") != "" {
			stderr.Write(ie.Stack)
		}
		return ExitUnreadable
	case errors.As(err, &we):
		fmt.Fprintf(stderr, "tracetab: %v\n", we)
		return ExitUnreadable
	case errors.As(err, &ee):
		code = ee.code
	case errors.As(err, &pe):
		code = ExitUnreadable
	}
	hint := ""
	if pe != nil && pe.Truncated { // never set when --allow-truncated was given
		hint = " (--allow-truncated analyses the events read before the cut)"
	}
	fmt.Fprintf(stderr, "tracetab: %v%s\n", err, hint)
	if code == ExitUsage && ee == nil {
		fmt.Fprintln(stderr, "Run 'tracetab --help' for usage.")
	}
	return code
}

// exitOverMemory reports an analysis that outgrew --max-memory (the
// watchdog of watchdog.go) and returns its code: the trace is too large for
// the bound, as when the parser refuses it.
func exitOverMemory(stderr io.Writer, file string, used, bound int64) int {
	fmt.Fprintf(stderr, "tracetab: %s: too large for the memory bound: the analysis is outgrowing --max-memory %s (it holds %s); "+
		"raise --max-memory if the machine has it, or profile fewer steps or split the trace\n", file, units.Bytes(bound), units.Bytes(used))
	return ExitUnreadable
}

// gateResult returns the exit-1 error when a diff or check gate fails
// (violations; n/a results unless --allow-missing; environment mismatches
// under --require-same-env). Formats not read by a person (json, junit,
// csv) get the reasons on stderr too.
func gateResult(e *env, format, what string, g *diff.Gate) error {
	if format == "json" || format == "junit" || format == "csv" {
		for _, v := range g.Violations {
			fmt.Fprintf(e.stderr, "tracetab: [%s] %s\n", v.Rule, v.Msg)
		}
	}
	for _, n := range g.NA {
		if g.AllowMissing {
			fmt.Fprintf(e.stderr, "tracetab: warning: n/a [%s] %s (allowed by --allow-missing)\n", n.Rule, n.Reason)
		} else if format == "json" || format == "junit" || format == "csv" {
			fmt.Fprintf(e.stderr, "tracetab: n/a [%s] %s\n", n.Rule, n.Reason)
		}
	}
	if !g.Failed() {
		return nil
	}
	var parts []string
	if n := len(g.Violations); n > 0 {
		parts = append(parts, units.Plural(n, what+" violation", what+" violations"))
	}
	if n := len(g.NA); n > 0 && !g.AllowMissing {
		parts = append(parts, units.Plural(n, what, what+"s")+" measured nothing (n/a; --allow-missing makes them warnings)")
	}
	if n := len(g.Mismatches); n > 0 && g.RequireSameEnv {
		parts = append(parts, units.Plural(n, "environment mismatch", "environment mismatches")+" under --require-same-env")
	}
	return checkFailed("%s", strings.Join(parts, "; "))
}
