package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/gctune"
	"github.com/tracetab/tracetab/internal/hostile"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// The hostile corpus: generated traces made to hang, exhaust or confuse a
// reader, run through the built binary as a child process with a timeout.
// Each run must exit in time with the documented code, never with a Go
// runtime abort; its --format json output must be one valid UTF-8 JSON
// document; its peak RSS (the child's VmHWM) must stay below the memory
// bound passed with --max-memory. `make stress` runs it at full size.

var stress = flag.Bool("stress", os.Getenv("TRACETAB_STRESS") != "", "run the hostile corpus at full size (make stress)")

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// TestMain reads each reference trace once for all the tests of the
// package (internal/testcache), leaves the collector at Go's default, and
// removes the binary the hostile tests built.
func TestMain(m *testing.M) {
	testOpen = testcache.Open
	// Main's collector tuning is for a process that reads one trace; this
	// one keeps them all (internal/gctune)
	gctune.SetEnabled(false)
	// a soft bound on the binary's heap (testMemoryLimit says why), unless
	// GOMEMLIMIT sets one
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(testMemoryLimit)
	}
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// binary builds tracetab once per test run.
func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tracetab-hostile-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "tracetab")
		args := []string{"build", "-o", binPath}
		if os.Getenv("TRACETAB_RACE") != "" { // make stress: a -race binary on a few cases
			args = append(args, "-race")
		}
		cmd := exec.Command("go", append(args, "./cmd/tracetab")...)
		cmd.Dir = testenv.Root()
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

type childResult struct {
	code     int
	stdout   []byte
	stderr   string
	rss      int64 // peak resident set, bytes
	elapsed  time.Duration
	timedOut bool
}

// runChild runs the binary with args (stdin from the file when not "").
func runChild(t *testing.T, timeout time.Duration, stdin string, args ...string) childResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Peak RSS from the child's own VmHWM, polled while it runs: rusage's
	// Maxrss would also count the test process, whose memory the child
	// inherits until it execs (Linux keeps that high-water mark).
	done := make(chan struct{})
	peak := make(chan int64, 1)
	go func() {
		status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
		var hwm int64
		for {
			if v := vmHWM(status); v > hwm {
				hwm = v
			}
			select {
			case <-done:
				peak <- hwm
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	r := childResult{stdout: out.Bytes(), stderr: errb.String(), elapsed: time.Since(start), rss: <-peak}
	if ctx.Err() != nil {
		r.timedOut = true
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("%v: %v", args, err)
	}
	return r
}

// vmHWM reads the peak resident set (bytes) from a /proc status file, 0
// when the process is gone.
func vmHWM(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	_, rest, ok := strings.Cut(string(b), "VmHWM:")
	if !ok {
		return 0
	}
	rest, _, _ = strings.Cut(rest, "\n")
	kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
	return kb << 10
}

// strictJSON checks that b is exactly one JSON document in valid UTF-8.
func strictJSON(b []byte) error {
	if !utf8.Valid(b) {
		return errors.New("output is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if _, ok := v.(map[string]any); !ok {
		return errors.New("output is not a JSON object")
	}
	if err := dec.Decode(&v); err != io.EOF {
		return fmt.Errorf("more than one JSON document (%v)", err)
	}
	return nil
}

// figures collects every run's time and memory for the closing summary.
type figure struct {
	what    string
	elapsed time.Duration
	rss     int64
	input   int64
}

var (
	figMu sync.Mutex
	figs  []figure
)

func record(f figure) {
	figMu.Lock()
	figs = append(figs, f)
	figMu.Unlock()
}

type hcmd struct {
	args []string // "{}" is the trace's path
	code int
	has  string // stderr must contain it
}

type hcase struct {
	name    string
	gen     func(io.Writer, int) error
	n, full int
	gz      bool
	stdin   bool // the trace is given on standard input ("-")
	cmds    []hcmd
	maxMem  string // --max-memory for every command
	fullMem string // at full size ("" keeps maxMem; "default" passes none)
}

func ok(args ...string) hcmd { return hcmd{args: args} }

func hostileCases() []hcase {
	return []hcase{
		{name: "streams", gen: hostile.Streams, n: 10_000, full: 100_000, cmds: []hcmd{
			ok("info", "{}"), ok("gaps", "--format", "json", "{}")}},
		{name: "syncs", gen: hostile.Syncs, n: 10_000, full: 100_000, cmds: []hcmd{
			ok("info", "{}"), ok("gaps", "{}")}},
		{name: "names", gen: hostile.Names, n: 20_000, full: 300_000, cmds: []hcmd{
			ok("info", "--format", "json", "{}"), ok("table", "--format", "json", "{}"),
			ok("diff", "{}", "{}"), ok("check", "--max-gpu-idle", "100", "--allow-missing", "{}")}},
		// the analyses after the parse are bounded too (issue 19: diff of 3e5
		// names grew to 4.5 GB under --max-memory 1GB): the parse fits, the
		// diff's rows do not
		{name: "names-bound", gen: hostile.Names, n: 60_000, full: 300_000, maxMem: "160MiB", fullMem: "400MiB", cmds: []hcmd{
			{args: []string{"diff", "{}", "{}"}, code: ExitUnreadable, has: "too large for the memory bound"}}},
		{name: "threads", gen: hostile.Threads, n: 20_000, full: 200_000, cmds: []hcmd{
			ok("info", "--format", "json", "{}"), ok("table", "{}"), ok("gaps", "{}"), ok("roofline", "{}")}},
		{name: "nested", gen: func(w io.Writer, n int) error { return hostile.Nested(w, n, false) }, n: 5_000, full: 1_000_000, cmds: []hcmd{
			ok("info", "{}"), ok("table", "{}"), ok("chain", "--format", "json", "{}", "level_0"), ok("roofline", "{}")}},
		{name: "nested-same-name", gen: func(w io.Writer, n int) error { return hostile.Nested(w, n, true) }, n: 5_000, full: 1_000_000, cmds: []hcmd{
			ok("info", "{}"), ok("table", "{}"), ok("chain", "{}", "op"), ok("roofline", "--format", "json", "{}")}},
		{name: "big-array-gzip", gen: hostile.BigArray, n: 1_500_000, full: 17_000_000, gz: true, cmds: []hcmd{
			ok("info", "{}"), ok("info", "--format", "json", "{}")}},
		{name: "big-array-stdin", gen: hostile.BigArray, n: 1_500_000, full: 17_000_000, stdin: true, cmds: []hcmd{
			ok("info", "-")}},
		{name: "big-array-gzip-stdin", gen: hostile.BigArray, n: 1_500_000, full: 17_000_000, gz: true, stdin: true, cmds: []hcmd{
			ok("info", "-")}},
		{name: "deep-args", gen: hostile.DeepArgs, n: 100_000, full: 1_000_000, cmds: []hcmd{
			ok("info", "--format", "json", "{}"), ok("table", "{}"), ok("roofline", "{}")}},
		{name: "reused-correlation", gen: hostile.ReusedCorr, n: 10_000, full: 100_000, cmds: []hcmd{
			ok("info", "--format", "json", "{}"), ok("table", "{}"), ok("gaps", "{}"), ok("chain", "--summary", "--regex", "{}", "gemm"), ok("roofline", "{}")}},
		{name: "long-names", gen: func(w io.Writer, n int) error { return hostile.LongNames(w, n, 1<<20) }, n: 4, full: 40, cmds: []hcmd{
			ok("info", "--format", "json", "{}"), ok("table", "--format", "json", "{}"), ok("gaps", "--format", "json", "{}"), ok("chain", "--format", "json", "--regex", "{}", "^0_"),
			ok("roofline", "--format", "json", "{}")}},
		{name: "bad-times", gen: hostile.BadTimes, n: 1_000, full: 100_000, cmds: []hcmd{
			{args: []string{"info", "--format", "json", "{}"}, has: "was skipped"},
			ok("table", "--format", "json", "{}"), ok("gaps", "--format", "json", "{}"), ok("roofline", "--format", "json", "{}")}},
		{name: "bad-text", gen: hostile.BadText, n: 50, full: 50_000, cmds: []hcmd{
			{args: []string{"info", "--format", "json", "{}"}, has: "U+FFFD"},
			ok("table", "--format", "json", "{}"), ok("table", "--by", "kernel", "--format", "json", "{}"),
			ok("gaps", "--format", "json", "{}"), ok("chain", "--format", "json", "--regex", "{}", "region"),
			ok("roofline", "--format", "json", "{}")}},
		{name: "gzip-bomb", gen: hostile.Repeated, n: 1_000_000, full: 60_000_000, gz: true, maxMem: "64MiB", fullMem: "default", cmds: []hcmd{
			{args: []string{"table", "{}"}, code: ExitUnreadable, has: "expands"},
			{args: []string{"gaps", "{}"}, code: ExitUnreadable, has: "too large for the memory bound"},
			{args: []string{"chain", "{}", "aten::add"}, code: ExitUnreadable, has: "--max-memory"}}},
		// the same bomb under a bound it fits in: the analyses must stay below it
		{name: "gzip-bomb-fits", gen: hostile.Repeated, n: 1_000_000, full: 20_000_000, gz: true, maxMem: "512MiB", fullMem: "6GiB", cmds: []hcmd{
			ok("info", "{}"), ok("table", "{}"),
			ok("chain", "{}", "aten::add"), ok("roofline", "{}")}},
	}
}

// TestHostile runs the corpus. Small sizes by default; -stress (or
// TRACETAB_STRESS=1) runs the full sizes of the issue.
func TestHostile(t *testing.T) {
	bin := binary(t)
	_ = bin
	dir := t.TempDir()
	// the check: every case exits well under 60 s on a 2-core machine
	timeout := 60 * time.Second
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			n := c.n
			if *stress {
				n = c.full
			}
			path := filepath.Join(dir, c.name+".json")
			if c.gz {
				path += ".gz"
			}
			size := writeCase(t, path, c, n)
			mem := c.maxMem
			if mem == "" {
				mem = "1GiB"
				if *stress {
					mem = "6GiB"
				}
			}
			if *stress && c.fullMem != "" {
				mem = c.fullMem
			}
			for _, hc := range c.cmds {
				what := c.name + ": " + strings.Join(hc.args, " ")
				t.Run(strings.Join(hc.args, " "), func(t *testing.T) {
					runCase(t, c, hc, what, path, mem, size, timeout)
				})
			}
		})
	}
	summary(t)
}

// runCase runs one command of a case and checks it.
func runCase(t *testing.T, c hcase, hc hcmd, what, path, mem string, size int64, timeout time.Duration) {
	args := []string{}
	for _, a := range hc.args {
		if a == "{}" {
			a = path
			if c.stdin {
				a = "-"
			}
		}
		args = append(args, a)
	}
	bound := int64(0)
	if mem != "default" {
		args = append(args, "--max-memory", mem)
		b, err := parseSize(mem)
		if err != nil {
			t.Fatal(err)
		}
		bound = b
	} else {
		bound = machineMemory() / memShare
	}
	stdin := ""
	if c.stdin {
		stdin = path
	}
	r := runChild(t, timeout, stdin, args...)
	record(figure{what: what, elapsed: r.elapsed, rss: r.rss, input: size})
	t.Logf("%s: exit %d in %v, peak RSS %d MiB (input %d MiB)", what, r.code, r.elapsed.Round(time.Millisecond), r.rss>>20, size>>20)
	checkRun(t, what, r, hc, bound)
}

// writeCase writes the case's trace (gzipped if asked) and returns the
// size of its JSON text.
func writeCase(t *testing.T, path string, c hcase, n int) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cw := &countW{}
	var out io.Writer = f
	var zw *gzip.Writer
	if c.gz {
		zw, _ = gzip.NewWriterLevel(f, gzip.BestCompression)
		if c.name != "gzip-bomb" {
			zw, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
		}
		out = zw
	}
	if err := c.gen(io.MultiWriter(out, cw), n); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return cw.n
}

type countW struct{ n int64 }

func (c *countW) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func checkRun(t *testing.T, what string, r childResult, hc hcmd, bound int64) {
	t.Helper()
	if r.timedOut {
		t.Errorf("%s: did not finish in time (%v)", what, r.elapsed)
		return
	}
	for _, abort := range []string{"fatal error:", "goroutine ", "panic:", "runtime: out of memory"} {
		if strings.Contains(r.stderr, abort) {
			t.Errorf("%s: Go runtime abort: %.400s", what, r.stderr)
			return
		}
	}
	if r.code != hc.code {
		t.Errorf("%s: exit %d, want %d; stderr %.400s", what, r.code, hc.code, r.stderr)
	}
	if hc.has != "" && !strings.Contains(r.stderr, hc.has) {
		t.Errorf("%s: stderr lacks %q: %.400s", what, hc.has, r.stderr)
	}
	if r.code == ExitOK && contains(hc.args, "json") {
		if err := strictJSON(r.stdout); err != nil {
			t.Errorf("%s: --format json output is not strict JSON: %v", what, err)
		}
	}
	if r.code != ExitOK {
		// notes and warnings come before it; the error itself is one line
		errLines := 0
		for _, l := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
			if !strings.HasPrefix(l, "tracetab: note:") && !strings.HasPrefix(l, "tracetab: warning:") {
				errLines++
			}
		}
		if errLines != 1 {
			t.Errorf("%s: an error must be one line: %q", what, r.stderr)
		}
	}
	// a -race binary takes 5 to 10 times the memory: the bound is checked without it
	if bound > 0 && r.rss > bound && os.Getenv("TRACETAB_RACE") == "" {
		t.Errorf("%s: peak RSS %d MiB above the bound %d MiB", what, r.rss>>20, bound>>20)
	}
}

func contains(a []string, s string) bool {
	for _, x := range a {
		if x == s {
			return true
		}
	}
	return false
}

// summary logs the slowest run and the largest memory ratio (peak RSS over
// the JSON size, for inputs of 16 MiB or more); make stress prints them.
func summary(t *testing.T) {
	figMu.Lock()
	defer figMu.Unlock()
	if len(figs) == 0 {
		return
	}
	sort.Slice(figs, func(a, b int) bool { return figs[a].elapsed > figs[b].elapsed })
	slow := figs[0]
	var worst figure
	ratio := 0.0
	for _, f := range figs {
		if f.input >= 16<<20 {
			if r := float64(f.rss) / float64(f.input); r > ratio {
				ratio, worst = r, f
			}
		}
	}
	msg := fmt.Sprintf("hostile corpus: %d runs; slowest %q %v (peak RSS %d MiB); largest memory ratio %.2f x the JSON (%q: %d MiB RSS for %d MiB)",
		len(figs), slow.what, slow.elapsed.Round(time.Millisecond), slow.rss>>20, ratio, worst.what, worst.rss>>20, worst.input>>20)
	t.Log(msg)
	if *stress {
		fmt.Println(msg)
	}
}

// TestHostileFiles: file kinds that are not trace files.
func TestHostileFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	emptyFifo := filepath.Join(dir, "empty-fifo.json")
	syscall.Mkfifo(emptyFifo, 0o644)
	sample := testdata("sample.pt.trace.json")
	raw, _ := os.ReadFile(sample)
	feed := func(path string, data []byte) {
		go func() {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			f.Write(data)
			f.Close()
		}()
	}
	for _, c := range []struct {
		name  string
		setup func()
		args  []string
		code  int
		has   string
	}{
		{"directory", nil, []string{"info", dir}, ExitUnreadable, "is a directory"},
		{"missing path", nil, []string{"table", filepath.Join(dir, "nope.json")}, ExitUnreadable, "cannot open"},
		{"/dev/zero", nil, []string{"gaps", "/dev/zero"}, ExitUnreadable, "byte 0x00"},
		{"/dev/null", nil, []string{"info", "/dev/null"}, ExitUnreadable, "empty file"},
		{"FIFO with a trace", func() { feed(fifo, raw) }, []string{"info", fifo}, ExitOK, ""},
		{"FIFO closed at once", func() { feed(emptyFifo, nil) }, []string{"info", emptyFifo}, ExitUnreadable, "empty file"},
		{"diff - -", nil, []string{"diff", "-", "-"}, ExitUsage, "standard input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != nil {
				c.setup()
			}
			r := runChild(t, 30*time.Second, "", c.args...)
			checkRun(t, c.name, r, hcmd{args: c.args, code: c.code, has: c.has}, 1<<30)
		})
	}
}

// TestHostileTruncation cuts three real traces at many offsets: each cut
// exits 3 naming the exact byte; with --allow-truncated it exits 0 with a
// warning naming the same byte.
func TestHostileTruncation(t *testing.T) {
	shared := testenv.Shared(t)
	cuts := 12
	if *stress {
		cuts = 200
	}
	dir := t.TempDir()
	for _, name := range []string{
		"TraceLens__torch_compile_triton__trace.json.gz",
		"HTA__critical_path__alexnet__benchmark_result_2869224_1695835535_trace.json.gz",
		"TraceLens__mi210__gpu_only_trace__gpu_only_trace.json.gz",
	} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join(shared, "traces", name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			zr, err := gzip.NewReader(bufio.NewReader(f))
			if err != nil {
				t.Fatal(err)
			}
			raw, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			last := len(bytes.TrimRight(raw, " \t\r\n")) // a cut at or after it leaves the whole value
			first := len(raw) - len(bytes.TrimLeft(raw, " \t\r\n"))
			for k := 0; k < cuts; k++ {
				// spread over the file, with a small odd step so cuts land
				// inside keys, strings and numbers alike
				at := first + 1 + (k*(last-first-1))/cuts + k%7
				if at >= last {
					continue
				}
				path := filepath.Join(dir, "cut.json")
				if err := os.WriteFile(path, raw[:at], 0o644); err != nil {
					t.Fatal(err)
				}
				want := fmt.Sprintf("byte %d", at)
				r := runChild(t, 30*time.Second, "", "info", path)
				checkRun(t, fmt.Sprintf("cut at %d", at), r, hcmd{args: []string{"info"}, code: ExitUnreadable, has: want + ": unexpected end of input"}, 1<<30)
				r = runChild(t, 30*time.Second, "", "info", "--allow-truncated", "--format", "json", path)
				checkRun(t, fmt.Sprintf("cut at %d, --allow-truncated", at), r,
					hcmd{args: []string{"info", "--format", "json"}, code: ExitOK, has: "truncated at " + want}, 1<<30)
			}
		})
	}
}
