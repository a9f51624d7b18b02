// Package safe turns a panic anywhere in tracetab, on any goroutine, into
// an error the command line reports in one line ("internal error: please
// report") with its exit code, never a goroutine dump.
package safe

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// PanicError is a recovered panic: its value and where it happened.
type PanicError struct {
	Value any
	// Where is the innermost tracetab function on the panicking stack
	// (package.Function), "" when none is found.
	Where string
	// Stack is the goroutine's stack, for TRACETAB_TRACEBACK=1.
	Stack []byte
}

func (e *PanicError) Error() string {
	where := ""
	if e.Where != "" {
		where = " in " + e.Where
	}
	return fmt.Sprintf("internal error: %v%s; please report it with the command line (and the trace, if it can be shared)", e.Value, where)
}

// New wraps a recovered value; the stack is the current one, so call it in
// the deferred function that recovered.
func New(v any) *PanicError {
	if pe, ok := v.(*PanicError); ok {
		return pe // carried up from another goroutine already
	}
	st := debug.Stack()
	return &PanicError{Value: v, Where: where(st), Stack: st}
}

// Recover is deferred by a function that returns an error: a panic below it
// becomes *err.
//
//	func f() (err error) { defer safe.Recover(&err); ... }
func Recover(err *error) {
	if r := recover(); r != nil {
		*err = New(r)
	}
}

// Go runs f on a new goroutine and returns a function that waits for it
// and re-raises, on the waiting goroutine, a panic f raised (where the
// command line's recover turns it into one line).
func Go(f func()) (wait func()) {
	done := make(chan *PanicError, 1)
	go func() {
		var p *PanicError
		defer func() { done <- p }()
		defer func() {
			if r := recover(); r != nil {
				p = New(r)
			}
		}()
		f()
	}()
	return func() {
		if p := <-done; p != nil {
			panic(p)
		}
	}
}

const module = "github.com/tracetab/tracetab/"

// where finds the innermost tracetab function below the panic on a stack
// written by debug.Stack: the first function line after the runtime's
// panic frame that belongs to the module.
func where(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	seenPanic := false
	for _, l := range lines {
		if strings.HasPrefix(l, "panic(") {
			seenPanic = true
			continue
		}
		if !seenPanic || !strings.HasPrefix(l, module) {
			continue
		}
		fn := strings.TrimPrefix(l, module)
		if i := strings.LastIndex(fn, "("); i > 0 {
			fn = fn[:i]
		}
		fn = strings.TrimPrefix(fn, "internal/")
		return fn
	}
	return ""
}
