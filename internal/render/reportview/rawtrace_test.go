package reportview_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tracetab/tracetab/internal/cli"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testenv"
)

// raw is a trace read straight from its JSON by rawjson (encoding/json,
// exact decimal times): the independent side of the checks.
type raw struct {
	Events   []rawEvent
	Memory   []rawEvent // the "[memory]" instants
	OriginNs int64      // the Trace event's start, else the earliest start (docs/output.md)
}

type rawEvent struct {
	Cat, Name, Ph string
	Pid, Tid      string
	Ts, Dur       int64 // ns, as written
	Corr          int64
	HasCorr       bool
	Args          map[string]any // of a [memory] record only
}

var rawCache sync.Map

// readRaw is the test's reading of the trace (decoded by rawjson).
func readRaw(t testing.TB, path string) *raw {
	t.Helper()
	if v, ok := rawCache.Load(path); ok {
		return v.(*raw)
	}
	r := &raw{}
	minTs, hasTrace := int64(1<<62), false
	for _, m := range rawjson.MustReadArgs(t, path) {
		e := rawEvent{Ph: m.Ph, Pid: m.Pid, Tid: m.Tid, Cat: m.Cat, Name: m.Name}
		if e.Name == "[memory]" {
			e.Ts = m.Ts
			e.Args = m.ArgMap()
			r.Memory = append(r.Memory, e)
			continue
		}
		if e.Ph != "X" {
			continue
		}
		e.Ts, e.Dur = m.Ts, m.Dur
		if c, err := strconv.ParseInt(m.Corr, 10, 64); err == nil {
			e.Corr, e.HasCorr = c, true
		}
		if e.Cat == "Trace" && !hasTrace {
			r.OriginNs, hasTrace = e.Ts, true
		}
		minTs = min(minTs, e.Ts)
		r.Events = append(r.Events, e)
	}
	if !hasTrace {
		r.OriginNs = minTs
	}
	rawCache.Store(path, r)
	return r
}

func isDeviceWork(cat string) bool {
	switch strings.ToLower(cat) {
	case "kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset":
		return true
	}
	return false
}

func isLaunchCat(cat string) bool {
	switch strings.ToLower(cat) {
	case "cuda_runtime", "runtime", "cuda_driver":
		return true
	}
	return false
}

// run runs tracetab in the process and returns stdout; it fails the test
// on any exit code but want.
func run(t testing.TB, want int, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Main(args, nil, &out, &errb); code != want {
		t.Fatalf("tracetab %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, errb.String())
	}
	return out.String()
}

// traceCase is a trace the page is checked on, with the report's flags.
type traceCase struct {
	name, path string
	args       []string
}

// pageCases are the sample and two real traces: a BERT step on an H100
// (torch 2.6: shapes, stacks, [memory] records on the CPU and the GPU) and
// HTA's ns-resolution trace (five steps, 45k events, epoch timestamps)
// under smaller limits, so that its page holds one step in full detail,
// the longest events of the rest and bands for everything else.
func pageCases(t *testing.T) []traceCase {
	cs := []traceCase{{name: "sample", path: filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json")}}
	if d, ok := testenv.SharedDir(); ok {
		tr := filepath.Join(d, "traces")
		cs = append(cs, traceCase{name: "bert-h100", path: filepath.Join(tr, "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz")},
			traceCase{name: "ns-resolution-limited", path: filepath.Join(tr, "HTA__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"),
				args: []string{"--max-events", "20000", "--max-cells", "30000"}})
	} else {
		t.Run("real-traces", func(t *testing.T) { testenv.Shared(t) }) // a counted skip; the sample still runs
	}
	return cs
}

// tmpDir holds the reports the tests write; TestMain removes it.
var tmpDir string

func TestMain(m *testing.M) {
	var err error
	if tmpDir, err = os.MkdirTemp("", "tracetab-report-test"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(tmpDir)
	os.Exit(code)
}

var (
	reportsMu sync.Mutex
	reports   = map[string]*builtReport{}
)

type builtReport struct {
	c    traceCase
	html string // the file
	gaps []byte // tracetab gaps --format json, once asked for
}

// gapsJSON is tracetab gaps --format json --top 200 (the gaps the page
// shades) of the case.
func (b *builtReport) gapsJSON(t testing.TB) []byte {
	reportsMu.Lock()
	defer reportsMu.Unlock()
	if b.gaps == nil {
		b.gaps = []byte(run(t, 0, "gaps", b.c.path, "--format", "json", "--top", "200"))
	}
	return b.gaps
}

// buildReport writes the report of a case once per test binary.
func buildReport(t testing.TB, c traceCase) *builtReport {
	t.Helper()
	reportsMu.Lock()
	defer reportsMu.Unlock()
	key := c.path + " " + strings.Join(c.args, " ")
	if b, ok := reports[key]; ok {
		return b
	}
	out := filepath.Join(tmpDir, c.name+".html")
	run(t, 0, append([]string{"report", c.path, "-o", out}, c.args...)...)
	b := &builtReport{c: c, html: out}
	reports[key] = b
	return b
}
