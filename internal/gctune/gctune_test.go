package gctune

import (
	"runtime/debug"
	"testing"
)

func TestSwitch(t *testing.T) {
	prev := debug.SetGCPercent(37)
	defer debug.SetGCPercent(prev)
	if !Enabled() {
		t.Fatal("the tuning is on unless turned off")
	}
	if got := Percent(50); got != 37 {
		t.Fatalf("Percent returned %d, want the 37 before", got)
	}
	if was := SetEnabled(false); !was {
		t.Fatal("SetEnabled(false) says the tuning was off")
	}
	defer SetEnabled(true)
	if got := Percent(5); got != 5 {
		t.Fatalf("with the tuning off Percent returned %d, want its argument", got)
	}
	if got := debug.SetGCPercent(50); got != 50 {
		t.Fatalf("with the tuning off the target changed to %d", got)
	}
	Collect() // a no-op; must not panic
	if SetEnabled(true) {
		t.Fatal("SetEnabled(true) says the tuning was on")
	}
}

func TestMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(1 << 40)
	defer debug.SetMemoryLimit(prev)
	if got := MemoryLimit(1 << 39); got != 1<<40 {
		t.Fatalf("MemoryLimit returned %d, want the limit before", got)
	}
	defer SetEnabled(SetEnabled(false))
	if got := MemoryLimit(1 << 30); got != 1<<30 {
		t.Fatalf("with the tuning off MemoryLimit returned %d, want its argument", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<39 {
		t.Fatalf("with the tuning off the limit changed to %d", got)
	}
}
