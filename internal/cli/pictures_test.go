package cli

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/testenv"
)

// openPTY opens a pseudo-terminal: what tracetab writes to tty shows up
// on master. The terminal is raw, so the text arrives as written.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := term.MakeRaw(int(s.Fd())); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

// runOnTTY runs tracetab with stdout on a terminal and returns what it wrote.
func runOnTTY(t *testing.T, args ...string) string {
	t.Helper()
	master, tty := openPTY(t)
	var got bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&got, master); close(done) }()
	var errb bytes.Buffer
	if code := Main(args, strings.NewReader(""), tty, &errb); code != 0 {
		t.Fatalf("tracetab %v: exit %d: %s", args, code, errb.String())
	}
	// the writes are in the terminal's buffer: wait until they are read
	deadline := time.Now().Add(5 * time.Second)
	for {
		n, _ := unix.IoctlGetInt(int(master.Fd()), unix.TIOCINQ)
		if n == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	tty.Close()
	master.SetReadDeadline(time.Now().Add(time.Second))
	<-done
	return got.String()
}

// spreadTrace is a generated trace whose kernels' durations spread (5%
// jitter), so that the histograms have shape.
func spreadTrace(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Steps: 6, Layers: 2, Noise: gen.Noise{Seed: 3, Jitter: 0.05}}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "spread.json")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// section is the part of text from the line starting with from to the end.
func section(text, from string) string {
	if k := strings.Index(text, "\n"+from); k >= 0 {
		return text[k+1:]
	}
	return ""
}

// TestTerminalPicturesGolden: table --by kernel --hist and the gaps step
// lines draw Unicode blocks on a terminal and ASCII in a pipe; goldens of
// both on a generated trace whose durations spread.
func TestTerminalPicturesGolden(t *testing.T) {
	p := spreadTrace(t)
	for _, c := range []struct {
		name, from string
		args       []string
	}{
		// --width 0: the terminal's width would otherwise cut the names there
		{"spread.kernel_hist", "", []string{"table", "--by", "kernel", "--hist", "--width", "0", p}},
		{"spread.gaps_steps", "steps (GPU busy", []string{"gaps", "--width", "0", p}},
	} {
		pipe, _, code := run(t, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		tty := runOnTTY(t, c.args...)
		if c.from != "" {
			pipe, tty = section(pipe, c.from), section(tty, c.from)
		}
		if pipe == "" || tty == "" {
			t.Fatalf("%s: no output (pipe %d bytes, terminal %d)", c.name, len(pipe), len(tty))
		}
		if strings.ContainsAny(pipe, "▁▂▃▄▅▆▇█") || !strings.ContainsAny(tty, "▁▂▃▄▅▆▇█") {
			t.Errorf("%s: blocks in the pipe's output or none on the terminal", c.name)
		}
		if strings.ReplaceAll(strings.Map(asciiOf, tty), "\r", "") != pipe {
			t.Errorf("%s: the terminal's output differs from the pipe's in more than the glyphs", c.name)
		}
		golden.Check(t, testenv.Root(), c.name+".ascii.golden", pipe)
		golden.Check(t, testenv.Root(), c.name+".tty.golden", tty)
	}
}

// asciiOf maps a block to the ASCII glyph of the same level.
func asciiOf(r rune) rune {
	if k := strings.IndexRune(string(blocks), r); k >= 0 {
		return ascii[len([]rune(string(blocks)[:k]))]
	}
	return r
}

var (
	blocks = []rune(" ▁▂▃▄▅▆▇█")
	ascii  = []rune(" .:-=+*#@")
)

// TestKernelHistRaw: on real traces, each kernel's histogram in table --by
// kernel --hist equals one drawn from the raw JSON: the kernel's durations,
// 12 bins with edges min*(max/min)^(k/12) rounded to the ns, each value in
// the bin whose edges hold it (found by a scan), each bin's glyph
// 1 + 8*count/largest (9 levels, empty for 0).
func TestKernelHistRaw(t *testing.T) {
	shared := testenv.Shared(t)
	rows := 0
	for _, name := range []string{"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz", "TraceLens__b200__eager_trace.json.gz",
		"HTA__critical_path__alexnet__benchmark_result_2869224_1695835535_trace.json.gz"} {
		path := filepath.Join(shared, "traces", name)
		out, stderr, code := run(t, "table", "--by", "kernel", "--hist", "--format", "md", "--demangle=false", "--limit", "-1", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		durs := map[string][]int64{}
		for _, e := range readRawFile(t, path) {
			switch strings.ToLower(e.Cat) {
			case "kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset":
				if e.Ph == "X" {
					durs[e.Name] = append(durs[e.Name], e.Dur)
				}
			}
		}
		seen := 0
		for _, line := range strings.Split(out, "\n") {
			cells := strings.Split(strings.Trim(line, "|"), "|")
			if len(cells) < 3 || !strings.HasPrefix(strings.TrimSpace(cells[len(cells)-2]), "`[") {
				continue
			}
			// both cells are Markdown code spans
			kname := strings.Trim(strings.TrimSpace(cells[len(cells)-1]), "`")
			got := strings.Trim(strings.TrimSpace(cells[len(cells)-2]), "`")
			d, ok := durs[kname]
			if !ok {
				t.Errorf("%s: row %q is no device op of the raw JSON", name, kname)
				continue
			}
			if want := rawHist(d, 12); got != want {
				t.Errorf("%s %s: histogram %q, raw %q", name, kname, got, want)
			}
			seen++
		}
		if seen != len(durs) {
			t.Errorf("%s: %d rows checked of %d device op names", name, seen, len(durs))
		}
		rows += seen
	}
	t.Logf("%d kernel histograms checked", rows)
}

func rawHist(d []int64, n int) string {
	lo, hi := int64(math.MaxInt64), int64(0)
	for _, x := range d {
		lo, hi = min(lo, max(x, 1)), max(hi, max(x, 1))
	}
	if lo == hi {
		n = 1
	}
	edges := make([]int64, n+1)
	for k := range edges {
		edges[k] = int64(math.Round(float64(lo) * math.Exp(math.Log(float64(hi)/float64(lo))*float64(k)/float64(n))))
	}
	edges[0], edges[n] = lo, hi
	counts := make([]int, n)
	for _, x := range d {
		x = max(x, 1)
		for k := n - 1; k >= 0; k-- {
			if edges[k] <= x {
				counts[k]++
				break
			}
		}
	}
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	s := "["
	for _, c := range counts {
		if c == 0 {
			s += " "
			continue
		}
		s += string(ascii[min(1+8*c/top, 8)])
	}
	return s + "]"
}
