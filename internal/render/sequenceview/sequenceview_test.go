package sequenceview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/sequences"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// small is 3 x aten::linear launching gemm > bias > relu on stream 7
// (10, 2, 3 us; the op lasts 20 us) and 2 x aten::add launching three
// elementwise kernels told apart by their functor (1 us each; 10 us).
func small(t *testing.T) *sequences.Result {
	t.Helper()
	var ev []string
	corr, ts, gpu := 0, 0, 1000
	op := func(name string, dur int, ks ...string) {
		ev = append(ev, fmt.Sprintf(`{"ph":"X","cat":"cpu_op","name":%q,"pid":1,"tid":1,"ts":%d,"dur":%d}`, name, ts, dur))
		for i, k := range ks {
			corr++
			d := map[int]int{0: 10, 1: 2, 2: 3}[i]
			if name == "aten::add" {
				d = 1
			}
			ev = append(ev, fmt.Sprintf(`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":1,"args":{"correlation":%d}}`, ts+1+2*i, corr),
				fmt.Sprintf(`{"ph":"X","cat":"kernel","name":%q,"pid":0,"tid":7,"ts":%d,"dur":%d,"args":{"correlation":%d}}`, k, gpu, d, corr))
			gpu += d + 1
		}
		ts += dur + 5
	}
	for range 3 {
		op("aten::linear", 20, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", "void at::native::bias_kernel<float>(float*)", "void at::native::vectorized_elementwise_kernel<4, at::native::ReluFunctor<float>, at::detail::Array<char*, 2> >(int, at::native::ReluFunctor<float>, at::detail::Array<char*, 2>)")
	}
	for range 2 {
		op("aten::add", 10, "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, at::detail::Array<char*, 3>)",
			"void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>, at::detail::Array<char*, 3> >(int, at::native::MulFunctor<float>, at::detail::Array<char*, 3>)",
			"void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, at::detail::Array<char*, 3>)")
	}
	src := `{"schemaVersion":1,"traceEvents":[` + strings.Join(ev, ",") + `]}`
	tr, err := parse.Read(bytes.NewReader([]byte(src)), "s", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sequences.Build(tr, sequences.Options{MinLen: 3})
}

func write(t *testing.T, format string, r *sequences.Result, o Options) string {
	t.Helper()
	var b strings.Builder
	if err := Write(&b, format, "s.json", r, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestText(t *testing.T) {
	got := write(t, "text", small(t), Options{})
	want := ` #  Op            Stream  Count  Device time      Mean  Host time  Ops  Kernels
----------------------------------------------------------------------------------------------------------------------
 1  aten::linear       7      3     45.000us  15.000us   60.000us    3  sm90_gemm_bf16bf16_bf16f32_f32_tn_n_128x128x64
                                                                        bias_kernel
                                                                        vectorized_elementwise_kernel<Relu>
 2  aten::add          7      2      6.000us   3.000us   20.000us    3  vectorized_elementwise_kernel<Add>
                                                                        vectorized_elementwise_kernel<Mul>
                                                                        vectorized_elementwise_kernel<Add>

2 sequences of at least 3 device ops from 5 occurrences of top-level ops; device time in them: 51.000us of 51.000us (100.00%)
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = write(t, "text", small(t), Options{Top: 1})
	if !strings.Contains(got, "1 more sequence not shown (--top 0 shows all)") || strings.Contains(got, "aten::add") {
		t.Errorf("--top 1:\n%s", got)
	}
}

// At every width each line fits; columns go in their order.
func TestTextWidth(t *testing.T) {
	for _, w := range []int{40, 60, 80, 100} {
		got := write(t, "text", small(t), Options{Width: w})
		for _, l := range strings.Split(got, "\n") {
			if layout.Width(l) > w {
				t.Errorf("width %d: %d columns: %q", w, layout.Width(l), l)
			}
		}
		if w == 80 && !strings.Contains(got, "left out: Host time") {
			t.Errorf("width 80:\n%s", got)
		}
	}
}

func TestJSONAndCSV(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal([]byte(write(t, "json", small(t), Options{Top: 10})), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema"] != Schema || doc["sort_by"] != "device" || doc["roots"] != "top-level" || doc["op_text"] != nil || doc["min_ops"] != 3.0 ||
		doc["device_ns"] != 51000.0 || doc["in_sequences_ns"] != 51000.0 || doc["top"] != 10.0 || doc["root_occurrences"] != 5.0 {
		t.Errorf("header: %v", doc)
	}
	first := doc["sequences"].([]any)[0].(map[string]any)
	if first["op"] != "aten::linear" || first["stream"] != 7.0 || first["count"] != 3.0 || first["device_ns"] != 45000.0 ||
		first["mean_ns"] != 15000.0 || first["host_ns"] != 60000.0 || len(first["kernels"].([]any)) != 3 ||
		first["labels"].([]any)[2] != "vectorized_elementwise_kernel<Relu>" || first["kernels"].([]any)[1] != "void at::native::bias_kernel<float>(float*)" {
		t.Errorf("first: %v", first)
	}
	csv := write(t, "csv", small(t), Options{})
	if !strings.HasPrefix(csv, "rank,op,device,stream,ops,count,device_ns,mean_ns,host_ns,kernels,labels\n") ||
		!strings.Contains(csv, "\n2,aten::add,0,7,3,2,6000,3000,20000,") {
		t.Errorf("csv:\n%s", csv)
	}
	md := write(t, "md", small(t), Options{})
	if !strings.Contains(md, "`aten::linear`") || strings.Contains(md, " \n") {
		t.Errorf("md:\n%s", md)
	}
}

// TestSharedGolden: the view of the DLRM trace at no width limit and at
// 80 columns, and in Markdown.
func TestSharedGolden(t *testing.T) {
	p := filepath.Join(testenv.Shared(t), "traces", "param__et_replay__tests__inputs__dlrm_kineto.tar.gz__worker0_step_12.1694128201545.pt.trace.json.gz")
	tr, _, err := testcache.Open(p, parse.Options{NoExtras: true, NoMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	r := sequences.Build(tr, sequences.Options{MinLen: 3})
	for _, c := range []struct {
		name, format string
		o            Options
	}{{"sequences.dlrm.0", "text", Options{Top: 10}}, {"sequences.dlrm.80", "text", Options{Top: 10, Width: 80}}, {"sequences.dlrm.md", "md", Options{Top: 5}}} {
		got := write(t, c.format, r, c.o)
		if c.o.Width > 0 {
			for _, l := range strings.Split(got, "\n") {
				if layout.Width(l) > c.o.Width {
					t.Errorf("%s: %d columns: %q", c.name, layout.Width(l), l)
				}
			}
		}
		golden.Check(t, ".", c.name+".golden", got)
	}
}
