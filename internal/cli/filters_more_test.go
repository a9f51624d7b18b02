package cli

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// rawDevNameSet is the set of distinct kernel, memcpy and memset names
// of a trace as written (complete events of the GPU categories).
func rawDevNameSet(evs []rawEvent) map[string]bool {
	names := map[string]bool{}
	for _, e := range evs {
		switch strings.ToLower(e.Cat) {
		case "kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset": // the 2021 exporter wrote "Kernel", "Memcpy", "Memset"
		default:
			continue
		}
		if e.Ph == "X" {
			names[e.Name] = true
		}
	}
	return names
}

// rawSteps is the ProfilerStep#N numbers of a trace as written.
func rawSteps(t *testing.T, evs []rawEvent) (lo, hi int64, n int) {
	for _, e := range evs {
		num, ok := strings.CutPrefix(e.Name, "ProfilerStep#")
		if !ok || e.Ph != "X" {
			continue
		}
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			t.Fatalf("%q: %v", e.Name, err)
		}
		if n == 0 || v < lo {
			lo = v
		}
		if n == 0 || v > hi {
			hi = v
		}
		n++
	}
	return lo, hi, n
}

// quotedNames splits list ("a, b, c") into names of set, longest first
// (a templated kernel name holds ", " itself); it reports how many, and
// false when some part is no name of set.
func quotedNames(list string, set map[string]bool) (int, bool) {
	k := 0
	for list != "" {
		best := ""
		for n := range set {
			if len(n) > len(best) && strings.HasPrefix(list, n) && (len(list) == len(n) || strings.HasPrefix(list[len(n):], ", ")) {
				best = n
			}
		}
		if best == "" {
			return k, false
		}
		k++
		list = strings.TrimPrefix(list[len(best):], ", ")
	}
	return k, true
}

var rowsLeftRe = regexp.MustCompile(`no (op|kernel) row is left of (\d+) (?:op|kernel) rows?; they include (.*)\n`)

// TestTableRowFilterRefused: a --match/--exclude that leaves no row exits 2
// with nothing on stdout, names the filter and counts and quotes the rows
// the view had; the kernel view's count and names are checked against the
// raw events of the sample and of real traces.
func TestTableRowFilterRefused(t *testing.T) {
	sample := testdata("sample.pt.trace.json")
	files := []string{sample}
	if d, ok := testenv.SharedDir(); ok {
		for _, f := range []string{"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz",
			"kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"} {
			files = append(files, filepath.Join(d, "traces", f))
		}
	} else {
		testenv.Shared(t) // logs the skip of the real traces; the sample still runs below
	}
	for _, p := range files {
		dev := rawDevNameSet(readRawFile(t, p))
		for _, args := range [][]string{{"--match", "^no such row$"}, {"--exclude", "."}, {"--match", ".", "--exclude", "."}} {
			a := append([]string{"table", p, "--by", "kernel"}, args...)
			out, stderr, code := run(t, a...)
			m := rowsLeftRe.FindStringSubmatch(stderr)
			if code != 2 || out != "" || m == nil || m[1] != "kernel" {
				t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want exit 2 naming the kernel rows", a, code, len(out), stderr)
				continue
			}
			if !strings.Contains(stderr, "--"+strings.TrimPrefix(args[0], "--")+" "+strconv.Quote(args[1])) {
				t.Errorf("%v: the message does not name the filter: %q", a, stderr)
			}
			if n, _ := strconv.Atoi(m[2]); n != len(dev) {
				t.Errorf("%v: %d kernel rows named, the raw trace has %d distinct device op names", a, n, len(dev))
			}
			if k, ok := quotedNames(strings.TrimSuffix(m[3], ", ..."), dev); !ok || k == 0 || k > 5 {
				t.Errorf("%v: %q is not a list of 1 to 5 device op names of the raw trace", a, m[3])
			}
		}
		for _, args := range [][]string{{"--match", "^no such row$"}, {"--exclude", "."}} {
			a := append([]string{"table", p}, args...)
			out, stderr, code := run(t, a...)
			if m := rowsLeftRe.FindStringSubmatch(stderr); code != 2 || out != "" || m == nil || m[1] != "op" || m[2] == "0" {
				t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want exit 2 naming the op rows", a, code, len(out), stderr)
			}
		}
	}
	// A filter that keeps a row is not refused, in text and JSON alike.
	for _, a := range [][]string{{"table", sample, "--match", "^aten::mm$"}, {"table", sample, "--match", "mm", "--format", "json"},
		{"table", sample, "--by", "kernel", "--match", "gemm"}, {"table", sample, "--exclude", "^aten::mm$"}} {
		if out, stderr, code := run(t, a...); code != 0 || out == "" {
			t.Errorf("%v: exit %d %q", a, code, stderr)
		}
	}
	// The op view names the sample's op rows: aten::mm is one of them.
	if _, stderr, _ := run(t, "table", sample, "--match", "zzz"); !strings.Contains(stderr, "aten::mm") {
		t.Errorf("the op rows named do not include aten::mm: %q", stderr)
	}
}

// TestChainStepRefused: chain --step N with no ProfilerStep#N exits 2 and
// names the trace's step range, read from the raw events.
func TestChainStepRefused(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	lo, hi, n := rawSteps(t, readRaw(t, p))
	if n == 0 {
		t.Fatal("the sample has no ProfilerStep#N in its raw events")
	}
	want := "no ProfilerStep#" + strconv.FormatInt(hi+4, 10) + " (its steps are " + strconv.FormatInt(lo, 10) + " to " + strconv.FormatInt(hi, 10) + ")"
	for _, a := range [][]string{{"chain", p, "--step", strconv.FormatInt(hi+4, 10)}, {"chain", p, "aten::mm", "--step", strconv.FormatInt(hi+4, 10)}} {
		out, stderr, code := run(t, a...)
		if code != 2 || out != "" || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", a, code, stderr, want)
		}
	}
	if _, stderr, code := run(t, "chain", p, "aten::mm", "--step", strconv.FormatInt(lo, 10)); code != 0 {
		t.Errorf("a step the trace has: exit %d %q", code, stderr)
	}
}
