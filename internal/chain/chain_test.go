package chain

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// rec is a Sink that keeps everything.
type rec struct {
	sel     *Selection
	chains  []*ChainInfo
	items   [][]Item
	summary *Summary
	footer  *Footer
}

func (r *rec) Begin(s *Selection) error { r.sel = s; return nil }
func (r *rec) BeginChain(c *ChainInfo) error {
	r.chains = append(r.chains, c)
	r.items = append(r.items, nil)
	return nil
}
func (r *rec) Item(it *Item) error {
	r.items[len(r.items)-1] = append(r.items[len(r.items)-1], *it)
	return nil
}
func (r *rec) EndChain(*ChainInfo) error         { return nil }
func (r *rec) Summary(s *Summary) error          { r.summary = s; return nil }
func (r *rec) End(_ *Selection, f *Footer) error { r.footer = f; return nil }

func generated(t *testing.T, cfg gen.Config) *trace.Trace {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, cfg); err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Read(&b, "gen", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func exact(t *testing.T, p string) *Matcher {
	m, err := NewMatcher(p, false)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func regex(t *testing.T, p string) *Matcher {
	m, err := NewMatcher(p, true)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// walk selects and runs q with o.
func walk(t *testing.T, tr *trace.Trace, q Query, o Options) *rec {
	t.Helper()
	s, err := Select(tr, q)
	if err != nil {
		t.Fatalf("select: %v", err)
	}
	r := &rec{}
	if _, err := Run(s, o, r); err != nil {
		t.Fatal(err)
	}
	return r
}

// shape renders the first chain's events as "name(child,child)" with
// launched device ops as "=>kind", so a test states a tree in one string.
func shape(items []Item) string {
	type node struct {
		s    string
		kids []*node
	}
	var nodes []*node
	var last *node
	var root *node
	for _, it := range items {
		switch it.Kind {
		case ItemEvent:
			n := &node{s: it.Name}
			nodes = append(nodes, n)
			if it.Parent >= 0 {
				nodes[it.Parent].kids = append(nodes[it.Parent].kids, n)
			} else {
				root = n
			}
			last = n
		case ItemDevice:
			last.kids = append(last.kids, &node{s: "=>" + it.Dev.Kind.String()})
		}
	}
	var f func(n *node) string
	f = func(n *node) string {
		if len(n.kids) == 0 {
			return n.s
		}
		var p []string
		for _, k := range n.kids {
			p = append(p, f(k))
		}
		return n.s + "(" + strings.Join(p, ",") + ")"
	}
	if root == nil {
		return ""
	}
	return f(root)
}

func events(items []Item) []Item {
	var out []Item
	for _, it := range items {
		if it.Kind == ItemEvent {
			out = append(out, it)
		}
	}
	return out
}

// TestEagerMatmulAdd: the blog's eager chain.
func TestEagerMatmulAdd(t *testing.T) {
	tr := generated(t, gen.Config{Steps: 3})
	r := walk(t, tr, Query{Match: exact(t, "matmul_add")}, Options{})
	want := "matmul_add(aten::matmul(aten::mm(cudaOccupancyMaxActiveBlocksPerMultiprocessor,cudaLaunchKernel(=>kernel))),aten::add(cudaLaunchKernel(=>kernel)))"
	if got := shape(r.items[0]); got != want {
		t.Fatalf("chain\n got %s\nwant %s", got, want)
	}
	ev := events(r.items[0])
	if !strings.Contains(strings.Join(ev[3].Marks, ";"), "occupancy query") || !strings.Contains(strings.Join(ev[4].Marks, ";"), "after an occupancy") {
		t.Errorf("occupancy query not marked: %v / %v", ev[3].Marks, ev[4].Marks)
	}
	var k *DeviceOp
	for _, it := range r.items[0] {
		if it.Kind == ItemDevice {
			k = it.Dev
			break
		}
	}
	if k.Grid == nil || k.Grid[0] != 16 || k.Regs != 90 || !k.HasLaunch || k.QueueNs <= 0 || k.Stream != 7 {
		t.Errorf("launch parameters: %+v", k)
	}
	if r.chains[0].Step != 2 || ev[1].OffsetNs != 228_000 {
		t.Errorf("step %d, matmul offset %d (the cold step's dead window)", r.chains[0].Step, ev[1].OffsetNs)
	}
	// walking up from the GEMM reaches the step through the same ops
	up := walk(t, tr, Query{Match: regex(t, "sgemm")}, Options{})
	var names []string
	for _, it := range up.items[0] {
		names = append(names, it.Name)
	}
	if got := strings.Join(names, " < "); got != "cudaLaunchKernel < aten::mm < aten::matmul < matmul_add < ProfilerStep#2" {
		t.Errorf("up: %s", got)
	}
	if up.sel.Dir != Up {
		t.Errorf("a kernel pattern walks up by default, got %v", up.sel.Dir)
	}
}

func TestBatchedMatmul(t *testing.T) {
	r := walk(t, generated(t, gen.Config{Steps: 2, Variant: "bmm"}), Query{Match: exact(t, "aten::matmul")}, Options{})
	if got := shape(r.items[0]); got != "aten::matmul(aten::bmm(cudaOccupancyMaxActiveBlocksPerMultiprocessor,cudaLaunchKernel(=>kernel)))" {
		t.Fatalf("chain %s", got)
	}
}

func TestCompiledRegion(t *testing.T) {
	r := walk(t, generated(t, gen.Config{Steps: 2, Variant: "compiled"}), Query{Match: exact(t, "matmul_add")}, Options{})
	want := "matmul_add(TorchDynamo Cache Lookup,Torch-Compiled Region: 0/0(aten::addmm(cudaMemcpyAsync(=>gpu_memcpy),cudaLaunchKernel(=>kernel))))"
	if got := shape(r.items[0]); got != want {
		t.Fatalf("chain\n got %s\nwant %s", got, want)
	}
	cp := events(r.items[0])[4]
	if cp.Name != "cudaMemcpyAsync" || !strings.Contains(strings.Join(cp.Marks, ";"), "did not write") {
		t.Errorf("hidden copy not marked: %+v", cp)
	}
}

func TestBackwardOf(t *testing.T) {
	r := walk(t, generated(t, gen.Config{Steps: 2, Layers: 1}), Query{Match: regex(t, "^autograd::engine::evaluate_function")}, Options{})
	if b := events(r.items[0])[0].BackwardOf; b != "aten::addmm" {
		t.Fatalf("backward of %q", b)
	}
}

func TestSummaryDown(t *testing.T) {
	var b bytes.Buffer
	facts, _ := gen.Write(&b, gen.Config{Steps: 5})
	tr, _ := parse.Read(&b, "gen", parse.Options{})
	s, err := Select(tr, Query{Match: exact(t, "aten::mm")})
	if err != nil {
		t.Fatal(err)
	}
	sum := Summarize(s)
	if sum.Calls != 5 || sum.Nested != 0 || len(sum.Rows) != 1 || sum.Rows[0].PerCall != 1 || sum.Rows[0].MedDurNs != facts.GEMMDurNs {
		t.Fatalf("%+v", sum)
	}
}

func TestUnlinkedKernel(t *testing.T) {
	tr, err := parse.Open(filepath.Join(testenv.Root(), "testdata", "quirks", "k1_bare_array.json"), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := walk(t, tr, Query{Match: exact(t, "early_kernel")}, Options{})
	if !r.chains[0].Unlinked || len(r.items[0]) != 0 {
		t.Fatalf("a kernel launched before the window must be reported unlinked: %+v %+v", r.chains[0], r.items[0])
	}
}

// TestMatcher: exact names by default, as table prints them.
func TestMatcher(t *testing.T) {
	m := exact(t, "aten::zeros")
	if !m.Match("aten::zeros") || m.Match("aten::zeros_like") {
		t.Error("an exact name takes only itself")
	}
	p := exact(t, "execute_32_context_0(sq0sk0)")
	if !p.Match("execute_32_context_0(sq0sk0)") {
		t.Error("parentheses are part of the name")
	}
	if !exact(t, "ProfilerStep*").Match("ProfilerStep#12") || exact(t, "ProfilerStep*").Match("ProfilerStep") {
		t.Error("ProfilerStep* is every step")
	}
	if !exact(t, "void at::native::vectorized...").Match("void at::native::vectorized_elementwise_kernel<4>") {
		t.Error("a name cut with ... takes its head")
	}
	if !regex(t, "^aten::zeros").Match("aten::zeros_like") {
		t.Error("--regex is a regular expression")
	}
}
