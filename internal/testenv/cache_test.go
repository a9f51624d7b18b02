package testenv

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestCacheKeepsAtMostMax(t *testing.T) {
	c := &Cache[string, int]{Max: 2}
	loads := map[string]int{}
	get := func(k string) int {
		v, err := c.Get(k, func() (int, error) { loads[k]++; return len(k), nil })
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	get("a")
	get("bb")
	get("a") // a is now more recent than bb
	if got := get("ccc"); got != 3 {
		t.Fatalf("ccc = %d, want 3", got)
	}
	if c.Len() != 2 {
		t.Fatalf("%d kept, want 2", c.Len())
	}
	get("a") // still kept: bb went first
	if loads["a"] != 1 {
		t.Errorf("a loaded %d times, want 1 (bb was the least recently used)", loads["a"])
	}
	get("bb")
	if loads["bb"] != 2 {
		t.Errorf("bb loaded %d times, want 2 (it was left out)", loads["bb"])
	}
}

func TestCacheLoadsOnceUnderConcurrency(t *testing.T) {
	c := &Cache[int, int]{}
	var n atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Get(7, func() (int, error) { n.Add(1); return 7, nil })
		}()
	}
	wg.Wait()
	if n.Load() != 1 {
		t.Fatalf("loaded %d times, want 1", n.Load())
	}
	boom := errors.New("boom")
	if _, err := c.Get(8, func() (int, error) { return 0, boom }); err != boom {
		t.Fatalf("err %v, want boom", err)
	}
}

func TestCacheSize(t *testing.T) {
	t.Setenv("TRACETAB_TEST_CACHE_X", "")
	if CacheSize("TRACETAB_TEST_CACHE_X", 5) != 5 {
		t.Error("unset: want the default")
	}
	t.Setenv("TRACETAB_TEST_CACHE_X", "0")
	if CacheSize("TRACETAB_TEST_CACHE_X", 5) != 0 {
		t.Error("0: want no bound")
	}
}
