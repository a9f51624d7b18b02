package moduleview

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/parse"
)

// tree is Model_0 > {EncoderWithAVeryLongClassName_0 > Linear_0, Linear_1}
// with two kernels, one in each Linear.
func tree(t *testing.T, withKernels bool) *modules.Tree {
	t.Helper()
	ev := []string{
		`{"ph":"X","cat":"python_function","name":"nn.Module: Model_0","pid":1,"tid":1,"ts":0,"dur":100}`,
		`{"ph":"X","cat":"python_function","name":"nn.Module: EncoderWithAVeryLongClassName_0","pid":1,"tid":1,"ts":10,"dur":50}`,
		`{"ph":"X","cat":"python_function","name":"nn.Module: Linear_0","pid":1,"tid":1,"ts":20,"dur":10}`,
		`{"ph":"X","cat":"python_function","name":"nn.Module: Linear_1","pid":1,"tid":1,"ts":70,"dur":10}`,
	}
	if withKernels {
		ev = append(ev,
			`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":21,"dur":1,"args":{"correlation":1}}`,
			`{"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":500,"dur":30,"args":{"correlation":1}}`,
			`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":71,"dur":1,"args":{"correlation":2}}`,
			`{"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":600,"dur":10,"args":{"correlation":2}}`)
	}
	src := `{"schemaVersion":1,"traceEvents":[` + strings.Join(ev, ",") + `]}`
	tr, err := parse.Read(bytes.NewReader([]byte(src)), "m", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return modules.Build(tr)
}

func write(t *testing.T, format string, tr *modules.Tree, o Options) string {
	t.Helper()
	var b strings.Builder
	if err := Write(&b, format, "m.json", tr, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestTextTree(t *testing.T) {
	got := write(t, "text", tree(t, true), Options{Limit: -1})
	want := ` Module                             Occurrences  Host total  Host self  Device total  Device self  Host %  Device %
-------------------------------------------------------------------------------------------------------------------
 Model_0                                      1   100.000us   40.000us      40.000us      0.000us  100.00    100.00
   EncoderWithAVeryLongClassName_0            1    50.000us   40.000us      30.000us      0.000us   50.00     75.00
     Linear_0                                 1    10.000us   10.000us      30.000us     30.000us   10.00     75.00
   Linear_1                                   1    10.000us   10.000us      10.000us     10.000us   10.00     25.00

4 module frames on 1 thread, 4 modules in the tree; device work launched inside modules: 40.000us of 40.000us (100.00%)
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// At a width every line fits, columns go in their order, names are cut
// in the middle with their indentation kept.
func TestTextWidth(t *testing.T) {
	for _, w := range []int{40, 60, 80, 100} {
		got := write(t, "text", tree(t, true), Options{Limit: -1, Width: w})
		for _, l := range strings.Split(got, "\n") {
			if layout.Width(l) > w {
				t.Errorf("width %d: %d columns: %q", w, layout.Width(l), l)
			}
		}
		if w == 60 && (!strings.Contains(got, "left out: Host %, Device %, Host self") || !strings.Contains(got, "\n     Linear_0 ")) {
			t.Errorf("width 60:\n%s", got)
		}
	}
	got := write(t, "text", tree(t, true), Options{Limit: -1, Width: 40, Sort: modules.KeyDeviceSelf})
	if !strings.Contains(got, "Module path") || !strings.Contains(got, ".../Linear_0") {
		t.Errorf("sorted at 40:\n%s", got)
	}
}

func TestDepthLimitAndNoDevice(t *testing.T) {
	got := write(t, "text", tree(t, false), Options{Limit: -1, Depth: 1})
	for _, w := range []string{"Model_0", "n/a", "3 modules below --depth 1 not shown", "the trace has no device work"} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
	if strings.Contains(got, "Linear") {
		t.Errorf("a module below --depth 1:\n%s", got)
	}
	got = write(t, "text", tree(t, true), Options{Limit: 2})
	if !strings.Contains(got, "2 more modules not shown (--limit -1 shows all)") {
		t.Errorf("limit:\n%s", got)
	}
}

func TestJSON(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal([]byte(write(t, "json", tree(t, true), Options{Limit: -1, Sort: modules.KeyHostSelf})), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema"] != Schema || doc["sort_by"] != "host_self" || doc["depth_limit"] != nil || doc["device_ns"] != 40000.0 {
		t.Errorf("header: %v", doc)
	}
	mods := doc["modules"].([]any)
	first := mods[0].(map[string]any) // host self 40us: Model_0 first, then the encoder
	if first["name"] != "Model_0" || first["parent"] != nil || first["depth"] != 1.0 || first["host_self_ns"] != 40000.0 {
		t.Errorf("first: %v", first)
	}
	var lin map[string]any
	for _, m := range mods {
		if m.(map[string]any)["name"] == "Linear_0" {
			lin = m.(map[string]any)
		}
	}
	if lin["path"] != "Model_0/EncoderWithAVeryLongClassName_0/Linear_0" || lin["parent"] != "Model_0/EncoderWithAVeryLongClassName_0" ||
		lin["depth"] != 3.0 || lin["device_total_ns"] != 30000.0 || lin["device_self_ns"] != 30000.0 || lin["device_total_pct"] != 75.0 {
		t.Errorf("Linear_0: %v", lin)
	}
	if err := json.Unmarshal([]byte(write(t, "json", tree(t, false), Options{Limit: -1})), &doc); err != nil {
		t.Fatal(err)
	}
	if m := doc["modules"].([]any)[0].(map[string]any); doc["device_ns"] != nil || m["device_total_ns"] != nil || m["device_total_pct"] != nil {
		t.Errorf("no device work: %v", doc)
	}
}

func TestCSVAndMarkdown(t *testing.T) {
	csv := write(t, "csv", tree(t, true), Options{Limit: -1})
	if !strings.HasPrefix(csv, "path,name,parent,depth,occurrences,host_total_ns,") ||
		!strings.Contains(csv, "Model_0/EncoderWithAVeryLongClassName_0/Linear_0,Linear_0,Model_0/EncoderWithAVeryLongClassName_0,3,1,10000,10000,30000,30000,1,10.00,75.00\n") {
		t.Errorf("csv:\n%s", csv)
	}
	md := write(t, "md", tree(t, true), Options{Limit: -1})
	if !strings.Contains(md, "| `\u00a0\u00a0\u00a0\u00a0Linear_0`") || strings.Contains(md, " \n") {
		t.Errorf("md:\n%s", md)
	}
}
