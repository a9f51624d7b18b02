package categoryview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/categories"
	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// steps is a trace of n steps: step k launches an addmm's kernel of
// 10+k us and an add's kernel of 5 us.
func steps(t *testing.T, n int) *categories.Result {
	t.Helper()
	var ev []string
	for k := 0; k < n; k++ {
		ts := k * 100
		ev = append(ev,
			fmt.Sprintf(`{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,"ts":%d,"dur":100}`, k, ts),
			fmt.Sprintf(`{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":%d,"dur":10}`, ts+1),
			fmt.Sprintf(`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":1,"args":{"correlation":%d}}`, ts+2, 2*k+1),
			fmt.Sprintf(`{"ph":"X","cat":"kernel","name":"gemm_kernel","pid":0,"tid":7,"ts":%d,"dur":%d,"args":{"correlation":%d}}`, 10000+ts, 10+k, 2*k+1),
			fmt.Sprintf(`{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":%d,"dur":10}`, ts+20),
			fmt.Sprintf(`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":1,"args":{"correlation":%d}}`, ts+21, 2*k+2),
			fmt.Sprintf(`{"ph":"X","cat":"kernel","name":"vectorized_elementwise_kernel","pid":0,"tid":7,"ts":%d,"dur":5,"args":{"correlation":%d}}`, 10050+ts, 2*k+2))
	}
	src := `{"schemaVersion":1,"traceEvents":[` + strings.Join(ev, ",") + `]}`
	tr, err := parse.Read(bytes.NewReader([]byte(src)), "steps", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return categories.Build(tr, nil)
}

func write(t *testing.T, format string, r *categories.Result, o Options) string {
	t.Helper()
	var b strings.Builder
	if err := Write(&b, format, "t.json", r, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestText(t *testing.T) {
	got := write(t, "text", steps(t, 2), Options{Width: 80})
	// 10+11 us of GEMM and 2x5 us elementwise: 21 of 31 us = 67.74%
	want := ` Category        Device time       %  Kernels  Share
-------------------------------------------------------------
 gemm               21.000us   67.74        2  ##############
 attention           0.000us    0.00        0
 conv                0.000us    0.00        0
 elementwise        10.000us   32.26        2  ######
 reduction/norm      0.000us    0.00        0
 communication       0.000us    0.00        0
 memcpy/memset       0.000us    0.00        0
 other               0.000us    0.00        0
 total              31.000us  100.00        4

Device time is the summed duration of the kernels, memcpys and memsets
(overlapping ops count each); 4 device ops.

Per step: its device time and each category's share of it (%)

 Step  Device time  gemm %  elem %
----------------------------------
    0     15.000us   66.67   33.33
    1     16.000us   68.75   31.25
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestManySteps: more than MaxSteps steps give each category's spread;
// AllSteps lists them all.
func TestManySteps(t *testing.T) {
	r := steps(t, MaxSteps+2)
	got := write(t, "text", r, Options{Width: 80})
	// GEMM's share: 10/15 = 66.67% in step 0 up to 23/28 = 82.14% in step
	// 13; the median of 14 steps is between steps 6 (16/21) and 7 (17/22):
	// (76.19 + 77.27) / 2 = 76.73
	for _, w := range []string{"over 14 steps: the least, the median and the\nmost (--all lists every step)",
		" gemm         66.67     76.73  82.14", " elementwise  17.86     23.27  33.33"} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
	all := write(t, "text", r, Options{Width: 80, AllSteps: true})
	if !strings.Contains(all, "\n   13     28.000us   82.14   17.86\n") || strings.Contains(all, "Median") {
		t.Errorf("--all:\n%s", all)
	}
}

func TestJSONAndCSV(t *testing.T) {
	var doc struct {
		Schema     string `json:"schema"`
		DeviceNs   int64  `json:"device_ns"`
		Categories []struct {
			Category string   `json:"category"`
			DeviceNs int64    `json:"device_ns"`
			Pct      *float64 `json:"pct"`
			Kernels  int      `json:"kernels"`
		} `json:"categories"`
		Steps []struct {
			Step       int64 `json:"step"`
			DeviceNs   int64 `json:"device_ns"`
			Categories []struct {
				Category string `json:"category"`
				DeviceNs int64  `json:"device_ns"`
			} `json:"categories"`
		} `json:"steps"`
		Outside *struct {
			DeviceNs int64 `json:"device_ns"`
		} `json:"outside_steps"`
	}
	if err := json.Unmarshal([]byte(write(t, "json", steps(t, 2), Options{})), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != Schema || doc.DeviceNs != 31000 || len(doc.Categories) != 8 || doc.Categories[0].Category != "gemm" ||
		doc.Categories[0].DeviceNs != 21000 || *doc.Categories[0].Pct != 67.74 || doc.Categories[0].Kernels != 2 {
		t.Errorf("totals: %+v", doc)
	}
	if len(doc.Steps) != 2 || doc.Steps[1].Step != 1 || doc.Steps[1].DeviceNs != 16000 || doc.Steps[1].Categories[3].DeviceNs != 5000 ||
		doc.Outside == nil || doc.Outside.DeviceNs != 0 {
		t.Errorf("steps: %+v", doc.Steps)
	}
	csv := write(t, "csv", steps(t, 2), Options{})
	if !strings.HasPrefix(csv, "scope,step,category,device_ns,pct,kernels\ntrace,,gemm,21000,") ||
		!strings.Contains(csv, "\nstep,1,elementwise,5000,31.25,1\n") || strings.Count(csv, "\n") != 1+8*3 {
		t.Errorf("csv:\n%s", csv)
	}
}

// TestSharedTraces: goldens of the view on shared traces, and every text
// line within the width asked for.
func TestSharedTraces(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "traces")
	for _, c := range []struct {
		file, format string
		width        int
		all          bool
	}{
		{"TraceLens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", "text", 80, false},
		{"HTA__negative_queue_length_values_check__rank0.json.gz", "text", 80, false},
		{"HTA__negative_queue_length_values_check__rank0.json.gz", "text", 50, false},
		{"HTA__negative_queue_length_values_check__rank0.json.gz", "md", 0, false},
		{"TraceLens__mi210__gpu_only_trace__gpu_only_trace.json.gz", "text", 0, false},
	} {
		tr, _, err := testcache.Open(filepath.Join(dir, c.file), parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := write(t, c.format, categories.Build(tr, nil), Options{Width: c.width, AllSteps: c.all})
		name := fmt.Sprintf("categories.%s.%s.%d.golden", strings.TrimSuffix(c.file, ".json.gz"), c.format, c.width)
		golden.Check(t, ".", name, got)
		for _, l := range strings.Split(got, "\n") {
			if c.format == "text" && c.width > 0 && layout.Width(l) > c.width {
				t.Errorf("%s at %d: %q", c.file, c.width, l)
			}
		}
	}
}
