package chain

import (
	"errors"
	"sort"
	"strings"
	"testing"
)

// rawLaunches maps a correlation id to the first launch call (runtime or
// driver) that carries it, in file order.
func rawLaunches(evs []rawEv) map[int64]rawEv {
	m := map[int64]rawEv{}
	for _, e := range evs {
		if rawIsLaunchCat(e.Cat) && e.HasCorr {
			if _, ok := m[e.Corr]; !ok {
				m[e.Corr] = e
			}
		}
	}
	return m
}

// absStart is an item's start as the file wrote it.
func absStart(s *Selection, it Item) int64 { return it.StartNs + s.w.t.TraceStart }

// TestRealTracesUp walks up from every device op of real traces: the first
// frame is the launch call that carries the device op's correlation id
// (found in the raw JSON), and for the first 300 device ops every frame
// above it is the next event of the launch call's thread that contains it.
func TestRealTracesUp(t *testing.T) {
	for _, name := range []string{
		"HTA__triton_example__triton_example.json.gz",                                 // torch.compile, Triton via cuLaunchKernel
		"TraceLens__torch_compile_triton__trace.json.gz",                              // torch.compile, Triton
		"HTA__negative_queue_length_values_check__rank0.json.gz",                      // cudaGraphLaunch
		"TraceLens__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz", // hipGraphLaunch
		"TraceLens__mi300__gaunernst_bert-small-uncased__1016001.json.gz",             // ROCm
		"kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz",
	} {
		t.Run(name, func(t *testing.T) {
			path := shared(t, name)
			raw := readRaw(t, path)
			launch := rawLaunches(raw)
			type key struct {
				name string
				ts   int64
				corr int64
			}
			want := map[key]rawEv{} // device op -> its raw launch call
			devices := 0
			for _, e := range raw {
				if rawIsDevice(e.Cat) {
					devices++
					if l, ok := launch[e.Corr]; ok && e.HasCorr {
						want[key{e.Name, e.Ts, e.Corr}] = l
					}
				}
			}
			tr := openTrace(t, path)
			r := walk(t, tr, Query{Match: regex(t, "."), Dir: Up, All: true}, Options{})
			if len(r.chains) != devices {
				t.Fatalf("%d chains, %d device ops in the raw JSON", len(r.chains), devices)
			}
			linked, checked := 0, 0
			for k, c := range r.chains {
				d := c.Device
				l, ok := want[key{d.Name, d.StartNs + tr.TraceStart, d.Corr}]
				if c.Unlinked {
					if ok {
						t.Fatalf("%s: unlinked, but launch call %s has its correlation %d", d.Name, l.Name, d.Corr)
					}
					continue
				}
				linked++
				f := r.items[k]
				if !ok || f[0].Name != l.Name || absStart(r.sel, f[0]) != l.Ts {
					t.Fatalf("%s corr %d: first frame %s at %d, raw launch %+v", d.Name, d.Corr, f[0].Name, absStart(r.sel, f[0]), l)
				}
				if checked < 300 {
					checked++
					anc := rawAncestors(raw, l)
					var frames []Item
					for _, it := range f[1:] {
						if it.Kind == ItemEvent {
							frames = append(frames, it)
						}
					}
					if len(frames) != len(anc) {
						t.Fatalf("%s: %d frames above the launch, raw JSON has %d enclosing events", d.Name, len(frames), len(anc))
					}
					for j := range anc {
						if frames[j].Name != anc[j].Name || absStart(r.sel, frames[j]) != anc[j].Ts {
							t.Fatalf("%s: frame %d is %s, raw %s", d.Name, j+1, frames[j].Name, anc[j].Name)
						}
					}
				}
			}
			if linked != len(want) || linked == 0 {
				t.Fatalf("%d linked chains, raw JSON links %d device ops", linked, len(want))
			}
			t.Logf("%d device ops, %d reach their launch call, %d frame lists checked", devices, linked, checked)
		})
	}
}

// TestTritonKernelUp: in the torch.compile trace a Triton kernel shares its
// name with its CPU op; without a direction that is a usage error, and --up
// walks from the kernel to its launch call and the ops around it.
func TestTritonKernelUp(t *testing.T) {
	path := shared(t, "TraceLens__torch_compile_triton__trace.json.gz")
	raw := readRaw(t, path)
	cpuN, devN := map[string]int{}, map[string]int{}
	var both string
	for _, e := range raw {
		if rawIsDevice(e.Cat) {
			devN[e.Name]++
		} else if e.Cat == "cpu_op" {
			cpuN[e.Name]++
		}
	}
	for _, e := range raw {
		if rawIsDevice(e.Cat) && cpuN[e.Name] > 0 && strings.HasPrefix(e.Name, "triton") {
			both = e.Name
			break
		}
	}
	if both == "" {
		t.Fatal("no Triton kernel named like a CPU op in the raw JSON")
	}
	tr := openTrace(t, path)
	_, err := Select(tr, Query{Match: exact(t, both)})
	var am *Ambiguous
	if !errors.As(err, &am) || am.CPU != cpuN[both] || am.Device != devN[both] {
		t.Fatalf("%s: %v, want an ambiguity of %d CPU ops and %d kernels", both, err, cpuN[both], devN[both])
	}
	r := walk(t, tr, Query{Match: exact(t, both), Dir: Up}, Options{})
	// the first kernel by launch time, from the raw JSON
	launch := rawLaunches(raw)
	var first rawEv
	var firstLaunch rawEv
	found := false
	for _, e := range raw {
		if rawIsDevice(e.Cat) && e.Name == both {
			l := launch[e.Corr]
			if !found || l.Ts < firstLaunch.Ts {
				first, firstLaunch, found = e, l, true
			}
		}
	}
	c := r.chains[0]
	if r.sel.Total != devN[both] || c.Device == nil || c.Device.Corr != first.Corr || c.Device.StartNs+tr.TraceStart != first.Ts {
		t.Fatalf("instance 1: %+v, raw kernel %+v", c.Device, first)
	}
	anc := append([]rawEv{firstLaunch}, rawAncestors(raw, firstLaunch)...)
	f := events(r.items[0])
	if len(f) != len(anc) {
		t.Fatalf("%d frames, raw %d", len(f), len(anc))
	}
	for j := range anc {
		if f[j].Name != anc[j].Name || absStart(r.sel, f[j]) != anc[j].Ts {
			t.Fatalf("frame %d %s, raw %s", j, f[j].Name, anc[j].Name)
		}
	}
	if f[1].Name != both || f[1].EvKind.String() != "cpu_op" {
		t.Errorf("the launch call's parent is %s (%v), want the Triton CPU op", f[1].Name, f[1].EvKind)
	}
	// --down walks the CPU op instead
	d := walk(t, tr, Query{Match: exact(t, both), Dir: Down}, Options{})
	if d.chains[0].Root.EvKind.String() != "cpu_op" || d.sel.Total != cpuN[both] {
		t.Errorf("--down: %+v", d.chains[0].Root)
	}
}

// TestNamesWithParentheses: in the vLLM trace names carry parentheses;
// an exact name takes exactly the events of that name, which the same
// text as a regular expression does not.
func TestNamesWithParentheses(t *testing.T) {
	path := shared(t, "TraceLens__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz")
	raw := readRaw(t, path)
	var ann rawEv
	kernels := map[string]int{}
	for _, e := range raw {
		if e.Cat == "user_annotation" && strings.Contains(e.Name, "(") && ann.Name == "" {
			ann = e
		}
		if rawIsDevice(e.Cat) && strings.Contains(e.Name, "(") {
			kernels[e.Name]++
		}
	}
	var kern string
	for n, c := range kernels {
		if kern == "" || c > kernels[kern] || (c == kernels[kern] && n < kern) {
			kern = n
		}
	}
	if ann.Name == "" || kern == "" {
		t.Fatal("no annotation or kernel with parentheses in the raw JSON")
	}
	tr := openTrace(t, path)
	r := walk(t, tr, Query{Match: exact(t, ann.Name)}, Options{MaxLines: 5})
	if r.sel.Total != 1 || r.chains[0].Root.Name != ann.Name || absStart(r.sel, *r.chains[0].Root) != ann.Ts {
		t.Fatalf("annotation %q: %d instances, root %+v", ann.Name, r.sel.Total, r.chains[0].Root)
	}
	k := walk(t, tr, Query{Match: exact(t, kern)}, Options{MaxLines: 5})
	if k.sel.Dir != Up || k.sel.Total != kernels[kern] {
		t.Fatalf("kernel %q: %d instances, raw %d", kern, k.sel.Total, kernels[kern])
	}
	if regex(t, kern).Match(kern) || regex(t, ann.Name).Match(ann.Name) {
		t.Error("as regular expressions these names do not match themselves; the exact default is what makes them usable")
	}
}

// rawTopLevel lists the CPU events with no enclosing event on their thread.
func rawTopLevel(raw []rawEv) []rawEv {
	var out []rawEv
	for _, e := range raw {
		if rawIsCPU(e.Cat) && len(rawAncestors(raw, e)) == 0 {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ts < out[j].Ts })
	return out
}

// TestNoStepDefault: without ProfilerStep the default chain is the first
// top-level event that launched GPU work (or, when none did, the first
// top-level event), never an empty output.
func TestNoStepDefault(t *testing.T) {
	for _, name := range []string{"TraceLens__torch_compile_triton__trace.json.gz", "zoology__trace.json.gz"} {
		t.Run(name, func(t *testing.T) {
			path := shared(t, name)
			raw := readRaw(t, path)
			devCorr := map[int64]bool{}
			for _, e := range raw {
				if strings.HasPrefix(e.Name, "ProfilerStep#") {
					t.Fatal("the trace has steps")
				}
				if rawIsDevice(e.Cat) && e.HasCorr {
					devCorr[e.Corr] = true
				}
			}
			top := rawTopLevel(raw)
			var want []rawEv
			for _, e := range top {
				for _, c := range raw {
					if c.thread() == e.thread() && rawIsLaunchCat(c.Cat) && c.HasCorr && devCorr[c.Corr] && c.Ts >= e.Ts && c.End() <= e.End() {
						want = append(want, e)
						break
					}
				}
			}
			mode := ModeTopGPU
			if len(want) == 0 {
				want, mode = top, ModeTopLevel
			}
			tr := openTrace(t, path)
			r := walk(t, tr, Query{}, Options{MaxLines: 50})
			root := r.chains[0].Root
			if r.sel.Mode != mode || len(r.sel.Instances) != len(want) || root.Name != want[0].Name || absStart(r.sel, *root) != want[0].Ts {
				t.Fatalf("mode %s, %d candidates, root %s at %d; raw: %s, %d, %s at %d", r.sel.Mode, len(r.sel.Instances), root.Name,
					absStart(r.sel, *root), mode, len(want), want[0].Name, want[0].Ts)
			}
			if len(r.items[0]) == 0 {
				t.Fatal("empty chain")
			}
		})
	}
}

// TestCrossThreadHop: an annotation with no child on its own thread hops to
// the top-level events other threads ran inside its window; walking up, a
// step annotation on another thread is found by time.
func TestCrossThreadHop(t *testing.T) {
	path := shared(t, "HTA__call_stack__backward_thread.json")
	raw := readRaw(t, path)
	top := rawTopLevel(raw)
	var want []string
	for _, a := range raw {
		if a.Cat != "user_annotation" || a.Dur == 0 {
			continue
		}
		alone := true
		for _, c := range raw {
			if c.Idx != a.Idx && c.thread() == a.thread() && c.Ts >= a.Ts && c.End() <= a.End() {
				alone = false
			}
		}
		if !alone {
			continue
		}
		for _, e := range top {
			if e.thread() != a.thread() && e.Ts >= a.Ts && e.End() <= a.End() {
				want = append(want, a.Name+" ~> "+e.Name+"@"+e.Tid)
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("no annotation without children on its thread in the raw JSON")
	}
	tr := openTrace(t, path)
	r := walk(t, tr, Query{}, Options{})
	var got []string
	byID := map[int]Item{}
	hops := 0
	for _, it := range r.items[0] {
		if it.Kind == ItemEvent {
			byID[it.ID] = it
			if it.CrossThread {
				got = append(got, byID[it.Parent].Name+" ~> "+it.Name+"@"+it.Thread.Tid.String())
			}
		}
		if it.Kind == ItemHop {
			hops++
		}
	}
	if strings.Join(got, ";") != strings.Join(want, ";") || hops == 0 {
		t.Fatalf("hops %q (%d hop lines), raw %q", got, hops, want)
	}

	// up: the Triton kernel's launch thread holds no step; the step is on another thread
	path = shared(t, "HTA__triton_example__triton_example.json.gz")
	raw = readRaw(t, path)
	launch := rawLaunches(raw)
	var kern, step rawEv
	for _, e := range raw {
		if rawIsDevice(e.Cat) {
			kern = e
		}
	}
	l := launch[kern.Corr]
	for _, e := range raw {
		if strings.HasPrefix(e.Name, "ProfilerStep#") && e.Ts <= l.Ts && l.Ts < e.End() {
			step = e
		}
	}
	if step.thread() == l.thread() {
		t.Fatal("the step is on the launch thread")
	}
	tr = openTrace(t, path)
	u := walk(t, tr, Query{Match: exact(t, kern.Name), Dir: Up}, Options{})
	f := u.items[0]
	h := f[len(f)-1]
	if h.Kind != ItemHop || !h.ByTime || !h.OtherThread || h.Name != step.Name || absStart(u.sel, h) != step.Ts || h.Thread.Tid.String() != step.Tid {
		t.Fatalf("last frame %+v, raw step %+v", h, step)
	}
}
