package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// TestNoTrailingSpaces: no line of any command's text or Markdown output
// (stdout or stderr) ends with a space, on the sample and on real traces.
// The one exception is table's default op table, which is torch's
// key_averages().table() byte for byte: torch pads every cell, the last
// included, and the oracle tests hold those bytes to torch's own output.
func TestNoTrailingSpaces(t *testing.T) {
	root, shared := testenv.Root(), testenv.Shared(t)
	traces := []string{filepath.Join(root, "testdata", "sample.pt.trace.json")}
	for _, f := range []string{
		"TraceLens__torch_compile_triton__trace.json.gz",               // torch.compile, Triton kernels
		"HTA__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", // no GPU lane
		"TraceLens__mi210__gpu_only_trace__gpu_only_trace.json.gz",     // ROCm, no CPU ops, no steps
		"HTA__nccl_parser_config__nccl_data.json.gz",                   // several streams, NCCL
		"kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	} {
		traces = append(traces, filepath.Join(shared, "traces", f))
	}
	checked := 0
	for _, tr := range traces {
		for _, args := range [][]string{
			{"info", tr},
			{"table", tr, "--format", "md"},
			{"table", tr, "--width", "100"},
			{"table", tr, "--columns", "self_cuda,calls,cpu_total"},
			{"table", tr, "--by", "kernel"},
			{"table", tr, "--by", "kernel", "--format", "md"},
			{"table", tr, "--by", "step"},
			{"table", tr, "--by", "step", "--format", "md"},
			{"gaps", tr},
			{"gaps", tr, "--format", "md"},
			{"chain", tr},
			{"chain", tr, "--regex", "^aten::", "--summary"},
			{"chain", tr, "--regex", "gemm|elementwise|triton", "--up", "--summary"},
			{"chain", tr, "--regex", "gemm|elementwise|triton", "--up", "--max-lines", "40"},
			{"compile", tr},
			{"compile", tr, tr},
			{"diff", tr, tr},
			{"diff", tr, tr, "--format", "md"},
			{"diff", tr, tr, "--by", "kernel"},
			{"diff", tr, tr, "--by", "step"},
			{"check", tr, "--max-gpu-idle", "100", "--max-step-time", "1s", "--max", "self_cuda@^aten::mm$=1ms"},
			{"check", tr, "--max-gpu-idle", "100", "--format", "md"},
		} {
			out, stderr, code := run(t, args...)
			// refused for want of what the view shows: no output to check
			noMatch := (args[0] == "chain" && strings.Contains(stderr, "no event")) || strings.Contains(stderr, "nothing to show")
			if code == ExitUnreadable || code == ExitUsage && !noMatch {
				t.Errorf("%v: exit %d: %s", args, code, stderr)
				continue
			}
			for _, s := range []struct{ name, text string }{{"stdout", out}, {"stderr", stderr}} {
				for n, line := range strings.Split(s.text, "\n") {
					if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
						t.Errorf("%s %v, %s line %d ends with a space: %q", filepath.Base(tr), append([]string{args[0]}, args[2:]...), s.name, n+1, tail(line, 60))
					}
				}
			}
			checked++
		}
	}
	for _, args := range [][]string{{"--help"}, {"version"}, {"table", "--help"}, {"diff", "--help"}, {"check", "--help"}, {"chain", "--help"}, {"gaps", "--help"}} {
		out, _, _ := run(t, args...)
		for n, line := range strings.Split(out, "\n") {
			if strings.HasSuffix(line, " ") {
				t.Errorf("%v line %d ends with a space: %q", args, n+1, tail(line, 60))
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d outputs checked", checked)
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
