package sequences

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/trace"
)

// genTrace writes Chrome trace JSON: ops on one CPU thread (pid 1, tid
// 1), each launch call a cudaLaunchKernel inside its op, kernels on the
// GPU streams of pid 0. Times in integer us.
type genTrace struct {
	events []string
	corr   int
	now    int64 // the CPU clock
	gpu    map[int]int64
}

func newGen() *genTrace { return &genTrace{gpu: map[int]int64{}, now: 1000} }

func (g *genTrace) add(format string, a ...any) {
	g.events = append(g.events, fmt.Sprintf(format, a...))
}

// op writes a cpu_op spanning what body writes inside it.
func (g *genTrace) op(cat, name string, body func()) {
	start := g.now
	g.now++
	body()
	g.now++
	g.add(`{"ph":"X","cat":%q,"name":%q,"pid":1,"tid":1,"ts":%d,"dur":%d}`, cat, name, start, g.now-start)
	g.now++
}

// launch writes a launch call and its kernel on stream s lasting dur us.
func (g *genTrace) launch(kernel string, s int, dur int64) {
	g.corr++
	g.add(`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":1,"args":{"correlation":%d}}`, g.now, g.corr)
	start := max(g.gpu[s], g.now+2)
	g.add(`{"ph":"X","cat":"kernel","name":%q,"pid":0,"tid":%d,"ts":%d,"dur":%d,"args":{"correlation":%d,"stream":%d,"device":0}}`, kernel, s, start, dur, g.corr, s)
	g.gpu[s] = start + dur
	g.now += 2
}

// orphan writes a kernel whose launch call is not in the trace.
func (g *genTrace) orphan(kernel string, s int) {
	g.corr++
	start := max(g.gpu[s], g.now)
	g.add(`{"ph":"X","cat":"kernel","name":%q,"pid":0,"tid":%d,"ts":%d,"dur":3,"args":{"correlation":%d}}`, kernel, s, start, g.corr)
	g.gpu[s] = start + 3
}

func (g *genTrace) json() []byte {
	return []byte(`{"schemaVersion":1,"traceEvents":[` + strings.Join(g.events, ",\n") + "]}")
}

// open parses the JSON through a file, as the command does.
func open(t *testing.T, data []byte) *trace.Trace {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gen.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Open(p, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// planted is a trace with known sequences; the comments give the answer.
func planted() *genTrace {
	g := newGen()
	linear := func() {
		g.launch("gemm", 7, 10)
		g.launch("bias", 7, 2)
		g.launch("relu", 7, 3)
	}
	// 5 x aten::linear: gemm > bias > relu on stream 7: count 5, 75 us
	for range 5 {
		g.op("cpu_op", "aten::linear", linear)
	}
	// 3 x aten::conv with 2 kernels: below --min-len 3
	for range 3 {
		g.op("cpu_op", "aten::conv", func() { g.launch("conv_a", 7, 4); g.launch("conv_b", 7, 4) })
	}
	// 2 x aten::attn: 4 kernels, 2 per stream: per stream 2, below 3
	for range 2 {
		g.op("cpu_op", "aten::attn", func() {
			g.launch("qk", 7, 5)
			g.launch("copy", 20, 1)
			g.launch("softmax", 7, 5)
			g.launch("copy", 20, 1)
		})
	}
	// 2 x an annotation around aten::block around aten::linear: the root is
	// the outermost cpu_op, aten::block: count 2, 30 us
	for range 2 {
		g.op("user_annotation", "Block", func() {
			g.op("cpu_op", "aten::block", func() { g.op("cpu_op", "aten::linear", linear) })
		})
	}
	// a launch outside every op, and a kernel without its launch call
	g.launch("stray", 7, 1)
	g.orphan("lost", 7)
	return g
}

// TestPlanted: the planted sequences come out with their counts and times.
func TestPlanted(t *testing.T) {
	tr := open(t, planted().json())
	r := Build(tr, Options{MinLen: 3})
	want := []string{
		"aten::linear | stream 7 | gemm > bias > relu: 5 75000 ns",
		"aten::block | stream 7 | gemm > bias > relu: 2 30000 ns",
	}
	var got []string
	for _, s := range r.Sequences {
		got = append(got, fmt.Sprintf("%s: %d %d ns", seqKey(s.Op, s.Stream, s.Kernels), s.Count, s.DeviceNs))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sequences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// 15+6+8+4 kernels launched in ops (3 + 2 x 4 + 6 + 8 ...), one stray, one lost
	if r.Unlinked != 1 || r.NoRoot != 1 || r.DeviceOps != 15+6+8+6+2 {
		t.Errorf("unlinked %d, no root %d, device ops %d", r.Unlinked, r.NoRoot, r.DeviceOps)
	}
	// roots that launched: 5 linear, 3 conv, 2 attn, 2 block; the short
	// runs: 3 conv, 2 attn x 2 streams
	if r.Roots != 12 || r.Short != 7 {
		t.Errorf("roots %d, short %d; want 12, 7", r.Roots, r.Short)
	}
	if m := r.Sequences[0].MeanNs(); m != 15000 {
		t.Errorf("mean %d ns, want 15000", m)
	}
	// --min-len 2: conv and the attn streams come in
	r2 := Build(tr, Options{MinLen: 2, Sort: KeyCount})
	var keys []string
	for _, s := range r2.Sequences {
		keys = append(keys, fmt.Sprintf("%d %s", s.Count, seqKey(s.Op, s.Stream, s.Kernels)))
	}
	wantCount := []string{
		"5 aten::linear | stream 7 | gemm > bias > relu",
		"3 aten::conv | stream 7 | conv_a > conv_b",
		"2 aten::block | stream 7 | gemm > bias > relu",
		"2 aten::attn | stream 7 | qk > softmax",
		"2 aten::attn | stream 20 | copy > copy",
	}
	if strings.Join(keys, "\n") != strings.Join(wantCount, "\n") {
		t.Errorf("--sort count --min-len 2:\n%s\nwant:\n%s", strings.Join(keys, "\n"), strings.Join(wantCount, "\n"))
	}
	// --op linear: the shallowest aten::linear are the 5 at depth 0; the
	// nested ones (depth 2) are not roots, and their block is no candidate
	r3 := Build(tr, Options{MinLen: 3, Op: "linear"})
	if len(r3.Sequences) != 1 || r3.Sequences[0].Count != 5 || r3.Candidates != 7 || r3.RootDepth != 0 || r3.NoRoot != 2*3+1+8+6 {
		t.Errorf("--op linear: %+v", r3)
	}
}

// randomTrace plants random sequences: ops from a small vocabulary, each
// launching a pattern of its own (sometimes a variant) on one or two
// streams, some nested in others or in annotations.
func randomTrace(rng *rand.Rand) *genTrace {
	g := newGen()
	kernels := []string{"k_a", "k_b", "k_c", "k_d", "void at::native::f<float>(int)", "void at::native::f<half>(int)"}
	ops := []string{"aten::linear", "aten::add", "aten::mm", "aten::layer_norm"}
	var body func(depth int)
	body = func(depth int) {
		n := rng.Intn(5)
		for range n {
			switch rng.Intn(6) {
			case 0:
				if depth < 3 {
					name := ops[rng.Intn(len(ops))]
					cat := "cpu_op"
					if rng.Intn(4) == 0 {
						cat = "user_annotation"
					}
					g.op(cat, name, func() { body(depth + 1) })
				}
			case 1:
				g.orphan(kernels[rng.Intn(len(kernels))], 7)
			default:
				g.launch(kernels[rng.Intn(len(kernels))], []int{7, 7, 20}[rng.Intn(3)], int64(1+rng.Intn(9)))
			}
		}
	}
	for range 60 {
		name := ops[rng.Intn(len(ops))]
		g.op("cpu_op", name, func() { body(1) })
		if rng.Intn(5) == 0 {
			body(0)
		}
	}
	return g
}

// TestRandomAgainstBruteForce: on random traces the model's sequences,
// for every min length and both rules (top-level ops, --op), equal the raw
// reading's brute force.
func TestRandomAgainstBruteForce(t *testing.T) {
	nonEmpty := 0
	for seed := int64(1); seed <= 30; seed++ {
		data := randomTrace(rand.New(rand.NewSource(seed))).json()
		evs := rawEvents(t, data)
		tr := open(t, data)
		name := fmt.Sprintf("seed %d", seed)
		for _, minLen := range []int{1, 2, 3} {
			want, _, _ := rawSequences(evs, minLen, topLevelRoot(evs))
			res := Build(tr, Options{MinLen: minLen})
			compareSeqs(t, name, modelSeqs(res), want)
			if len(want) > 0 && minLen == 3 {
				nonEmpty++
			}
			for _, op := range []string{"linear", "aten::", "norm"} {
				want, _, _ := rawSequences(evs, minLen, nameRoot(evs, op))
				compareSeqs(t, name+" --op "+op, modelSeqs(Build(tr, Options{MinLen: minLen, Op: op})), want)
			}
		}
	}
	if nonEmpty < 20 {
		t.Fatalf("only %d of 30 random traces have a sequence of 3: the generator plants too few", nonEmpty)
	}
}
