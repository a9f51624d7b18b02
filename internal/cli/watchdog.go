package cli

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"github.com/tracetab/tracetab/internal/gctune"
)

// memShare is the share of the machine's memory tracetab allows itself
// when --max-memory is not given.
const memShare = 4 // a quarter: room for the page cache, the shell, other jobs

// maxMemoryFlag is the value of --max-memory: "8GB", "512MiB", "0" (no bound).
type maxMemoryFlag struct {
	bytes int64
	set   bool
}

func (f *maxMemoryFlag) String() string {
	if !f.set {
		return "a quarter of the machine's memory"
	}
	return strconv.FormatInt(f.bytes, 10)
}

func (f *maxMemoryFlag) Type() string { return "size" }

func (f *maxMemoryFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	f.bytes, f.set = n, true
	return nil
}

// parseSize reads a byte count: a number with an optional unit B, KB, MB,
// GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range []struct {
		suffix string
		m      float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"B", 1}} {
		if strings.HasSuffix(strings.ToUpper(t), strings.ToUpper(u.suffix)) && (len(u.suffix) == 3) == strings.HasSuffix(t, "iB") {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.m
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || v < 0 || math.IsInf(v, 0) || v*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("bad size %q: use e.g. 8GB, 512MiB, or 0 for no bound", s)
	}
	return int64(v * mult), nil
}

// machineMemory is the memory this process may use: the physical memory,
// or the cgroup's limit when lower; 0 when unknown.
func machineMemory() int64 {
	var total int64
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				total = kb << 10
			}
		}
		f.Close()
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && (total == 0 || v < total) {
			total = v
		}
	}
	return total
}

// applyMaxMemory decides the bound and gives it to the Go runtime as its
// soft memory limit, so the collector works harder before the bound is met.
func (e *env) applyMaxMemory() {
	if !e.maxMemory.set {
		e.maxMemory.bytes = machineMemory() / memShare
	}
	if e.maxMemory.bytes > 0 {
		gctune.MemoryLimit(e.maxMemory.bytes)
	}
	e.watchMemory()
}

// isProcess reports whether this run of Main is the process itself
// (writing to the process's stdout), not a test calling Main.
func (e *env) isProcess() bool {
	ow, ok := e.stdout.(*outWriter)
	if !ok {
		return false
	}
	f, ok := ow.w.(*os.File)
	return ok && f == os.Stdout
}

// watchMemory is the backstop of the bound, for the process itself (not
// for tests that call Main): the parser refuses a trace whose model will
// not fit, but an analysis can still outgrow the bound (a shape of trace it
// handles badly). Then tracetab stops with exit 3 and says so, instead of
// letting the Go runtime abort or the machine swap.
func (e *env) watchMemory() {
	if !e.isProcess() || e.maxMemory.bytes <= 0 {
		return
	}
	bound := e.maxMemory.bytes
	// the process's peak stays below the bound: act at 7/8 of it, which
	// leaves room for what a 20 ms tick lets grow and for the binary itself
	trigger := bound - bound/8
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
		for range time.Tick(20 * time.Millisecond) {
			metrics.Read(s)
			used := int64(s[0].Value.Uint64() - s[1].Value.Uint64())
			if used > trigger {
				os.Exit(exitOverMemory(e.stderr, e.loading, used, bound))
			}
		}
	}()
}
