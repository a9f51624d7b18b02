package testenv

import (
	"os"
	"strconv"
	"sync"
)

// Cache keeps what the tests of one binary read many times (a parsed
// trace, a raw trace's events), by default all of it; with Max > 0 at most
// Max values, the least recently asked for going first, and a value left
// out is read again when asked for. Get loads a missing key once, however
// many goroutines ask for it at the same time; a value a test still holds
// stays alive until the test lets go of it.
//
// Why no bound by default (internal/cli's tests, one binary, 2 cores,
// 2026-12-07): all kept, 167 CPU s and a peak RSS of 891 MB, under the
// binary's own soft memory limit (its TestMain). Before that figure: 241
// CPU s and 4.4 GB all kept, 402 CPU s and 2.9 GB with 6 parsed and 4 raw
// traces kept; most of the 4.4 GB was not the caches but every run's flags,
// options and output buffers, which cobra's completion registry kept
// (internal/cli's completion.go), and 11 parsed entries per trace where 4
// readings differ (internal/testcache). TRACETAB_TEST_TRACES and
// TRACETAB_TEST_RAW set bounds where memory is scarcer.
type Cache[K comparable, V any] struct {
	Max int // 0: no bound

	mu      sync.Mutex
	entries map[K]*cacheEntry[V]
	clock   uint64
}

type cacheEntry[V any] struct {
	once sync.Once
	v    V
	err  error
	used uint64
}

// Get returns the value of k, loading it with load when it is not kept.
func (c *Cache[K, V]) Get(k K, load func() (V, error)) (V, error) {
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[K]*cacheEntry[V]{}
	}
	e := c.entries[k]
	if e == nil {
		e = &cacheEntry[V]{}
		c.entries[k] = e
		for c.Max > 0 && len(c.entries) > c.Max {
			c.dropOldest(k)
		}
	}
	c.clock++
	e.used = c.clock
	c.mu.Unlock()
	e.once.Do(func() { e.v, e.err = load() })
	return e.v, e.err
}

// Len is how many values are kept.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// dropOldest removes the least recently used entry other than keep.
func (c *Cache[K, V]) dropOldest(keep K) {
	var oldest K
	first := true
	var at uint64
	for k, e := range c.entries {
		if k == keep {
			continue
		}
		if first || e.used < at {
			oldest, at, first = k, e.used, false
		}
	}
	if !first {
		delete(c.entries, oldest)
	}
}

// CacheSize is the bound for a test cache: the environment variable name
// (a whole number; 0 for no bound) when set, else def.
func CacheSize(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n >= 0 {
		return n
	}
	return def
}
