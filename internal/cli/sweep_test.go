package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// sweepLines are the main flag sets of every command; TRACE and OTHER
// stand for a trace and a second one.
var sweepLines = [][]string{
	{"info", "TRACE"},
	{"info", "--format", "json", "TRACE"},
	{"table", "TRACE"},
	{"table", "--torch-exact", "TRACE"},
	{"table", "--width", "80", "TRACE"},
	{"table", "--by", "kernel", "TRACE"},
	{"table", "--by", "step", "TRACE"},
	{"table", "--by", "module", "TRACE"},
	{"table", "--by", "module", "--format", "json", "TRACE"},
	{"table", "--by", "category", "TRACE"},
	{"table", "--by", "category", "--format", "csv", "TRACE"},
	{"table", "--by", "sequence", "TRACE"},
	{"table", "--by", "sequence", "--format", "md", "TRACE"},
	{"table", "--by", "kernel", "--format", "json", "TRACE"},
	{"table", "--group-by-shape", "--sort", "self_cuda_time_total", "TRACE"},
	{"table", "--group-by-stack", "3", "TRACE"},
	{"table", "--sort", "cpu_memory_usage", "TRACE"},
	{"table", "--format", "md", "TRACE"},
	{"table", "--format", "csv", "TRACE"},
	{"gaps", "TRACE"},
	{"gaps", "--hta", "TRACE"},
	{"gaps", "--format", "json", "TRACE"},
	{"gaps", "--format", "md", "TRACE"},
	{"chain", "TRACE"},
	{"chain", "--regex", "--summary", "TRACE", "."},
	{"chain", "--regex", "--up", "--max-lines", "50", "TRACE", "kernel|gemm|Memcpy"},
	{"compile", "TRACE"},
	{"compile", "TRACE", "OTHER"},
	{"ranks", "TRACE"},
	{"ranks", "TRACE", "OTHER"},
	{"diff", "TRACE", "TRACE"},
	{"diff", "--by", "kernel", "TRACE", "OTHER"},
	{"check", "--max-gpu-idle", "100", "TRACE"},
	{"check", "--max", "total.step_time=10s", "--max", "self_cpu_mem=1TB", "TRACE"},
	{"critical-path", "TRACE"},
	{"critical-path", "--format", "json", "TRACE"},
	{"memory", "TRACE"},
	{"memory", "--format", "json", "TRACE"},
	{"roofline", "TRACE"},
	{"roofline", "--format", "json", "TRACE"},
	{"report", "TRACE", "-o", "OUT.html"},
	{"crop", "TRACE", "--window", "0..1ms", "-o", "OUT.json"},
	{"export", "TRACE", "--to", "OUT"},
}

// sweepDefaults are the lines run on large traces: every command once.
var sweepDefaults = map[string]bool{"info": true, "table": true, "gaps": true, "chain": true, "compile": true, "ranks": true, "diff": true, "check": true,
	"critical-path": true, "memory": true, "roofline": true, "report": true, "crop": true, "export": true}

// sweepRun runs one command line and holds it to the exit-code contract:
// 0, 1 (a gate) or 2 (refused, with a one-line reason), never a panic, an
// internal error or exit 3 on a trace that reads.
func sweepRun(t *testing.T, line []string) {
	t.Helper()
	out, stderr, code := run(t, line...)
	sweepCheck(t, line, out, stderr, code)
}

// sweepCheck holds one run's output and exit code to the contract.
func sweepCheck(t *testing.T, line []string, out, stderr string, code int) {
	t.Helper()
	what := strings.Join(line, " ")
	if strings.Contains(stderr, "internal error") || strings.Contains(stderr, "goroutine ") {
		t.Errorf("%s: %s", what, stderr)
		return
	}
	switch code {
	case ExitOK:
		if f := sweepOutFile(line); f != "" {
			// report, crop and export write a file, not stdout
			if st, err := os.Stat(f); err != nil || (!st.IsDir() && st.Size() == 0) {
				t.Errorf("%s: exit 0 and no %s written", what, f)
			}
		} else if out == "" && !strings.Contains(stderr, "note:") {
			t.Errorf("%s: exit 0 with no output and no note", what)
		}
	case ExitCheck:
		if line[0] != "check" && line[0] != "diff" && line[0] != "ranks" {
			t.Errorf("%s: exit 1 from a command that gates nothing", what)
		}
	case ExitUsage:
		errLines := 0
		for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if !strings.HasPrefix(l, "tracetab: note:") && !strings.HasPrefix(l, "tracetab: warning:") {
				errLines++
			}
		}
		if errLines != 1 {
			t.Errorf("%s: refused without one line saying why: %q", what, stderr)
		}
	default:
		t.Errorf("%s: exit %d: %.300s", what, code, stderr)
	}
}

// sweepOutFile is the file a line writes (after -o or --to), "" for
// commands writing to stdout.
func sweepOutFile(line []string) string {
	for i, a := range line[:len(line)-1] {
		if (a == "-o" || a == "--to") && line[i+1] != "-" {
			return line[i+1]
		}
	}
	return ""
}

func sweepLine(t *testing.T, args []string, trace, other string) []string {
	line := make([]string, 0, len(args))
	for _, a := range args {
		switch a {
		case "TRACE":
			a = trace
		case "OTHER":
			a = other
		case "OUT", "OUT.html", "OUT.json":
			// a fresh folder a line: export writes into an empty one
			a = filepath.Join(t.TempDir(), a)
		}
		line = append(line, a)
	}
	return line
}

// TestSweepSharedTraces: every command with its main flag sets on the
// sample, the quirk traces and every shared trace (the large ones once per
// command).
func TestSweepSharedTraces(t *testing.T) {
	files := []string{testdata("sample.pt.trace.json")}
	q, _ := filepath.Glob(testdata("quirks", "*.json"))
	files = append(files, q...)
	if dir, ok := testenv.SharedDir(); ok {
		s, _ := filepath.Glob(filepath.Join(dir, "traces", "*.json*"))
		files = append(files, s...)
	} else {
		testenv.Shared(t) // counted; the repository's traces run below
	}
	for i, f := range files {
		other := files[(i+1)%len(files)]
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		large := st.Size() > 2<<20
		t.Run(filepath.Base(f), func(t *testing.T) {
			seen := map[string]bool{}
			for _, args := range sweepLines {
				if large && (!sweepDefaults[args[0]] || seen[args[0]]) {
					continue
				}
				seen[args[0]] = true
				// the quirk trace that is cut short reads with --allow-truncated
				sweepRun(t, append(sweepLine(t, args, f, other), "--allow-truncated"))
			}
		})
	}
}

// sweepVariant is a generated trace with an optional part absent or
// overabundant.
type sweepVariant struct {
	name   string
	events func(b *bytes.Buffer)
}

func sweepVariants() []sweepVariant {
	op := func(b *bytes.Buffer, name string, tid, ts, dur, ext int) {
		fmt.Fprintf(b, `,{"ph":"X","cat":"cpu_op","name":%q,"pid":1,"tid":%d,"ts":%d,"dur":%d,"args":{"External id":%d}}`, name, tid, ts, dur, ext)
	}
	mem := func(b *bytes.Buffer, tid, ts, dev int) {
		fmt.Fprintf(b, `,{"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":%d,"ts":%d,`+
			`"args":{"Addr":%d,"Bytes":512,"Total Allocated":%d,"Total Reserved":4096,"Device Type":%d,"Device Id":%d}}`, tid, ts, 9000+ts, 512+ts, dev, dev-1)
	}
	step := func(b *bytes.Buffer, n, ts, dur int) {
		fmt.Fprintf(b, `,{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":%d}`, n, ts, dur)
	}
	launch := func(b *bytes.Buffer, ts, corr, kts, kdur int) {
		fmt.Fprintf(b, `,{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":4,"args":{"correlation":%d}}`, ts, corr)
		fmt.Fprintf(b, `,{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":%d,"dur":%d,"args":{"correlation":%d,"device":0,"stream":7}}`, kts, kdur, corr)
	}
	return []sweepVariant{
		{"memory-records-outside-ops", func(b *bytes.Buffer) {
			for k := 0; k < 5; k++ {
				op(b, "aten::add", 1, 100+10*k, 5, k+1)
			}
			for k := 0; k < 40; k++ {
				mem(b, 1, 1000+k, 0)
			}
		}},
		{"memory-before-and-between", func(b *bytes.Buffer) {
			mem(b, 1, 50, 0)
			op(b, "aten::add", 1, 100, 5, 1)
			mem(b, 1, 107, 1)
			op(b, "aten::mul", 1, 110, 5, 2)
			mem(b, 3, 112, 1) // another thread
			mem(b, 1, 110, 0) // at an op's start
			mem(b, 1, 115, 0) // at its end
		}},
		{"zero-duration-device-ops-no-steps", func(b *bytes.Buffer) {
			for k := 0; k < 4; k++ {
				launch(b, 100+20*k, 10+k, 200+20*k, 0)
			}
		}},
		{"steps-without-device-work", func(b *bytes.Buffer) {
			for k := 0; k < 3; k++ {
				step(b, k+1, 100*k, 90)
				op(b, "aten::add", 1, 100*k+10, 20, k+1)
			}
		}},
		{"device-work-outside-steps", func(b *bytes.Buffer) {
			step(b, 1, 0, 50)
			op(b, "aten::add", 1, 10, 20, 1)
			launch(b, 100, 50, 150, 30)
		}},
		{"flows-without-ends", func(b *bytes.Buffer) {
			op(b, "aten::add", 1, 10, 20, 1)
			b.WriteString(`,{"ph":"s","id":5,"pid":1,"tid":1,"ts":12,"cat":"ac2g","name":"ac2g"}`)
			b.WriteString(`,{"ph":"f","id":6,"pid":0,"tid":7,"ts":40,"cat":"ac2g","name":"ac2g","bp":"e"}`)
		}},
		{"one-event", func(b *bytes.Buffer) { op(b, "aten::add", 1, 10, 20, 1) }},
		{"no-events", func(b *bytes.Buffer) {}},
		{"only-device-ops", func(b *bytes.Buffer) {
			b.WriteString(`,{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":10,"dur":5,"args":{"device":0,"stream":7}}`)
			b.WriteString(`,{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":30,"dur":5,"args":{"device":0,"stream":7}}`)
		}},
		{"overlapping-steps", func(b *bytes.Buffer) {
			step(b, 1, 0, 100)
			step(b, 2, 50, 100)
			launch(b, 60, 1, 70, 200)
		}},
	}
}

// TestSweepGeneratedVariants: every command with its main flag sets on
// generated traces that lack a part or have too much of one.
func TestSweepGeneratedVariants(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, v := range sweepVariants() {
		var b bytes.Buffer
		b.WriteString(`{"schemaVersion":1,"baseTimeNanoseconds":1700000000000000000,"deviceProperties":[{"id":0,"name":"NVIDIA H100"}],"traceEvents":[`)
		b.WriteString(`{"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":0,"dur":1}`)
		v.events(&b)
		b.WriteString("]}")
		p := filepath.Join(dir, v.name+".json")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for i, f := range files {
		other := files[(i+1)%len(files)]
		t.Run(filepath.Base(f), func(t *testing.T) {
			for _, args := range sweepLines {
				sweepRun(t, sweepLine(t, args, f, other))
			}
		})
	}
}
