package safe

import (
	"errors"
	"strings"
	"testing"
)

func boom() {
	var s []int
	_ = s[3]
}

func TestRecover(t *testing.T) {
	f := func() (err error) {
		defer Recover(&err)
		boom()
		return nil
	}
	err := f()
	var pe *PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want a PanicError", err)
	}
	if !strings.Contains(err.Error(), "internal error: runtime error: index out of range") || !strings.Contains(err.Error(), "please report") {
		t.Errorf("message %q", err.Error())
	}
	if pe.Where != "safe.boom" {
		t.Errorf("Where = %q, want safe.boom", pe.Where)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("the message is not one line: %q", err.Error())
	}
}

func TestGoCarriesThePanic(t *testing.T) {
	wait := Go(boom)
	defer func() {
		r := recover()
		pe, ok := r.(*PanicError)
		if !ok {
			t.Fatalf("recovered %v, want the goroutine's PanicError", r)
		}
		if pe.Where != "safe.boom" {
			t.Errorf("Where = %q", pe.Where)
		}
	}()
	wait()
	t.Fatal("wait returned without re-raising")
}

func TestGoNoPanic(t *testing.T) {
	x := 0
	Go(func() { x = 1 })()
	if x != 1 {
		t.Fatal("f did not run before wait returned")
	}
}
