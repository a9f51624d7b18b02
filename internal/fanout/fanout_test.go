package fanout

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// TestEachOrder checks that results come back in input order whatever the
// order the work finishes in, for 1, 2 and 8 workers.
func TestEachOrder(t *testing.T) {
	for _, w := range []int{0, 1, 2, 8} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			var got []int
			err := Each(50, w, func(i int) (int, error) {
				time.Sleep(time.Duration((i*7)%5) * 100 * time.Microsecond)
				return i * i, nil
			}, func(i, v int) error {
				if v != i*i {
					t.Errorf("item %d: got %d", i, v)
				}
				got = append(got, i)
				return nil
			})
			if err != nil || len(got) != 50 {
				t.Fatalf("err %v, %d results", err, len(got))
			}
			for i, g := range got {
				if g != i {
					t.Fatalf("emit order %v", got)
				}
			}
		})
	}
}

// TestEachFirstError checks that the error of the lowest failing item is
// returned (as the sequential loop returns it), even when a later item
// fails first, and that nothing after it is emitted.
func TestEachFirstError(t *testing.T) {
	errAt := func(i int) error { return fmt.Errorf("item %d", i) }
	for _, w := range []int{1, 4} {
		var emitted []int
		err := Each(20, w, func(i int) (int, error) {
			switch i {
			case 7:
				time.Sleep(5 * time.Millisecond) // fails after item 9
				return 0, errAt(7)
			case 9:
				return 0, errAt(9)
			}
			return i, nil
		}, func(i, v int) error { emitted = append(emitted, i); return nil })
		if err == nil || err.Error() != "item 7" {
			t.Fatalf("workers %d: err %v, want item 7", w, err)
		}
		if len(emitted) != 7 {
			t.Fatalf("workers %d: emitted %v, want 0..6", w, emitted)
		}
	}
	stop := errors.New("stop")
	err := Each(5, 2, func(i int) (int, error) { return i, nil }, func(i, v int) error {
		if i == 2 {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Fatalf("emit error: got %v", err)
	}
}

// TestEachBounded checks that no more than workers items run at once and
// no more than 2*workers wait for their turn, for a slow first item.
func TestEachBounded(t *testing.T) {
	var running, peak, started atomic.Int64
	release := make(chan struct{})
	go func() { time.Sleep(20 * time.Millisecond); close(release) }()
	err := Each(100, 3, func(i int) (int, error) {
		started.Add(1)
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		if i == 0 {
			<-release
			if s := started.Load(); s > 6 {
				t.Errorf("%d items started while the first was held, want <= 6", s)
			}
		}
		running.Add(-1)
		return i, nil
	}, func(int, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if peak.Load() > 3 {
		t.Fatalf("peak %d workers, want <= 3", peak.Load())
	}
}

// BenchmarkEachItem is the cost of handing one item through Each (2
// workers, no work, results in order): what batching small files could
// save at most, per file.
func BenchmarkEachItem(b *testing.B) {
	n := 0
	err := Each(b.N, 2, func(i int) (int, error) { return i, nil }, func(i, v int) error {
		if v != i {
			return fmt.Errorf("item %d: got %d", i, v)
		}
		n++
		return nil
	})
	if err != nil || n != b.N {
		b.Fatalf("%d of %d emitted, err %v", n, b.N, err)
	}
}
