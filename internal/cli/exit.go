package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/units"
)

// Exit codes, the same for every command.
const (
	ExitOK         = 0 // success
	ExitCheck      = 1 // a check or threshold failed
	ExitUsage      = 2 // bad flags, arguments or budget files
	ExitUnreadable = 3 // an input trace cannot be read
)

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
// and prints it.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	code := ExitUsage // cobra's own errors are flag and argument errors
	var ee *exitError
	var pe *parse.Error
	switch {
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
// watchdog of memory.go) and returns its code: the trace is too large for
// the bound, as when the parser refuses it.
func exitOverMemory(stderr io.Writer, file string, used, bound int64) int {
	fmt.Fprintf(stderr, "tracetab: %s: too large for the memory bound: the analysis is outgrowing --max-memory %s (it holds %s); "+
		"raise --max-memory if the machine has it, or profile fewer steps or split the trace\n", file, units.Bytes(bound), units.Bytes(used))
	return ExitUnreadable
}

// failIfViolated lists violations on stderr when the chosen format did not
// show them to a person, and returns the exit-1 error when there are any.
func failIfViolated(e *env, format, what string, viol []diff.Violation) error {
	if len(viol) == 0 {
		return nil
	}
	if format == "json" || format == "junit" {
		for _, v := range viol {
			fmt.Fprintf(e.stderr, "tracetab: [%s] %s\n", v.Rule, v.Msg)
		}
	}
	return checkFailed("%d %s violation(s)", len(viol), what)
}
