package chain

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

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

func follow(t *testing.T, tr *trace.Trace, pattern string) *Chain {
	t.Helper()
	res := Follow(tr, Options{Pattern: regexp.MustCompile(pattern), Instance: 1})
	if len(res.Chains) != 1 {
		t.Fatalf("%s: %d chains (%d matches)", pattern, len(res.Chains), res.Matches)
	}
	return res.Chains[0]
}

// shape renders a tree as "name(child,child)" with launched device ops as
// "=>kind", so a test states the whole chain in one string.
func shape(n *Node) string {
	var parts []string
	for _, d := range n.Launched {
		parts = append(parts, "=>"+d.Kind.String())
	}
	for _, c := range n.Children {
		parts = append(parts, shape(c))
	}
	if len(parts) == 0 {
		return n.Name
	}
	return n.Name + "(" + strings.Join(parts, ",") + ")"
}

// TestEagerMatmulAdd: the blog's eager chain.
func TestEagerMatmulAdd(t *testing.T) {
	tr := generated(t, gen.Config{Steps: 3})
	c := follow(t, tr, "^matmul_add$")
	want := "matmul_add(aten::matmul(aten::mm(cudaOccupancyMaxActiveBlocksPerMultiprocessor,cudaLaunchKernel(=>kernel))),aten::add(cudaLaunchKernel(=>kernel)))"
	if got := shape(c.Root); got != want {
		t.Fatalf("chain\n got %s\nwant %s", got, want)
	}
	mm := c.Root.Children[0].Children[0]
	launch := mm.Children[1]
	if len(mm.Children[0].Marks) == 0 || !strings.Contains(strings.Join(launch.Marks, ";"), "occupancy") {
		t.Errorf("occupancy query not marked: %v / %v", mm.Children[0].Marks, launch.Marks)
	}
	k := launch.Launched[0]
	if k.Grid == nil || k.Grid[0] != 16 || k.Regs != 90 || k.QueueNs <= 0 || k.Stream != 7 {
		t.Errorf("launch parameters: %+v", k)
	}
	if c.Step != 2 || c.Root.Children[0].OffsetNs != 228_000 {
		t.Errorf("step %d, matmul offset %d (the cold step's dead window)", c.Step, c.Root.Children[0].OffsetNs)
	}
	// walking up from the GEMM reaches the step through the same ops
	up := follow(t, tr, "sgemm")
	var names []string
	for _, n := range up.Up {
		names = append(names, n.Name)
	}
	if got := strings.Join(names, " < "); got != "cudaLaunchKernel < aten::mm < aten::matmul < matmul_add < ProfilerStep#2" {
		t.Errorf("up: %s", got)
	}
}

func TestBatchedMatmul(t *testing.T) {
	c := follow(t, generated(t, gen.Config{Steps: 2, Variant: "bmm"}), "^aten::matmul$")
	if got := shape(c.Root); got != "aten::matmul(aten::bmm(cudaOccupancyMaxActiveBlocksPerMultiprocessor,cudaLaunchKernel(=>kernel)))" {
		t.Fatalf("chain %s", got)
	}
}

func TestCompiledRegion(t *testing.T) {
	tr := generated(t, gen.Config{Steps: 2, Variant: "compiled"})
	c := follow(t, tr, "^matmul_add$")
	want := "matmul_add(TorchDynamo Cache Lookup,Torch-Compiled Region: 0/0(aten::addmm(cudaMemcpyAsync(=>gpu_memcpy),cudaLaunchKernel(=>kernel))))"
	if got := shape(c.Root); got != want {
		t.Fatalf("chain\n got %s\nwant %s", got, want)
	}
	cp := c.Root.Children[1].Children[0].Children[0]
	if !strings.Contains(strings.Join(cp.Marks, ";"), "did not write") || !strings.Contains(cp.Launched[0].Name, "DtoD") {
		t.Errorf("hidden copy not marked: %+v %+v", cp.Marks, cp.Launched[0])
	}
}

func TestBackwardOf(t *testing.T) {
	c := follow(t, generated(t, gen.Config{Steps: 2, Layers: 1}), "^autograd::engine::evaluate_function")
	if c.Root.BackwardOf != "aten::addmm" {
		t.Fatalf("backward of %q", c.Root.BackwardOf)
	}
}

func TestSummary(t *testing.T) {
	tr := generated(t, gen.Config{Steps: 5})
	s := Summarize(tr, Options{Pattern: regexp.MustCompile("^aten::mm$")})
	if s.Instances != 5 || len(s.Kernels) != 1 || s.Kernels[0].PerCall != 1 || s.Kernels[0].MedDurNs != 11_328 {
		t.Fatalf("%+v", s)
	}
}

func TestUnlinkedKernel(t *testing.T) {
	tr, err := parse.Open(filepath.Join(testenv.Root(), "testdata", "quirks", "k1_bare_array.json"), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := follow(t, tr, "early_kernel")
	if !c.Unlinked || c.Up != nil {
		t.Fatalf("a kernel launched before the window must be reported unlinked: %+v", c)
	}
}

// TestRealTracesUp walks up from every device op of real traces: whenever
// the trace links a device op to its launch call (same correlation id), the
// chain's first hop is that call, and the chain ends at a top-level event.
func TestRealTracesUp(t *testing.T) {
	shared := testenv.Shared(t)
	for _, name := range []string{
		"HTA__triton_example__triton_example.json.gz",                                 // torch.compile, Triton via cuLaunchKernel
		"TraceLens__torch_compile_triton__trace.json.gz",                              // torch.compile, Triton
		"HTA__negative_queue_length_values_check__rank0.json.gz",                      // cudaGraphLaunch
		"TraceLens__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz", // hipGraphLaunch
		"TraceLens__mi300__gaunernst_bert-small-uncased__1016001.json.gz",             // ROCm
		"kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	} {
		t.Run(name, func(t *testing.T) {
			tr, err := parse.Open(filepath.Join(shared, "traces", name), parse.Options{})
			if err != nil {
				t.Fatal(err)
			}
			w := newWalker(tr, 0)
			var linked, unlinked, graph int
			for i := 0; i < tr.NumEvents(); i++ {
				e := tr.Ev(i)
				if !e.Kind.IsDeviceWork() {
					continue
				}
				c := w.up(int32(i))
				if c.Unlinked {
					unlinked++
					continue
				}
				linked++
				r := tr.Ev(int(c.Up[0].Event))
				if !r.Kind.IsLaunch() || !r.Has(trace.FlagCorr) || r.Corr != e.Corr {
					t.Fatalf("%s: first hop %s (corr %d) is not its launch (corr %d)", tr.NameOf(i), c.Up[0].Name, r.Corr, e.Corr)
				}
				if top := c.Up[len(c.Up)-1].Event; tr.Links().Parent[top] >= 0 {
					t.Fatalf("chain of %s stops below the top", tr.NameOf(i))
				}
				if trace.IsGraphLaunch(c.Up[0].Name) && len(c.Up[0].Launched) > 1 {
					graph++
				}
			}
			if linked == 0 {
				t.Fatal("no linked device op")
			}
			if strings.Contains(name, "graph") || strings.Contains(name, "negative_queue") {
				if graph == 0 {
					t.Error("no graph launch with several kernels found")
				}
			}
			t.Logf("%d device ops reach their launch call, %d have none in the trace, %d launched by graph launches", linked, unlinked, graph)
		})
	}
}
