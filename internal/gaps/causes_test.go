package gaps

import (
	"fmt"
	"testing"

	"github.com/tracetab/tracetab/internal/testtrace"
	"github.com/tracetab/tracetab/internal/trace"
)

// mini is testtrace.Mini: "cat|name|tid|ts|dur[|corr]", us.
func mini(t *testing.T, rows ...string) *trace.Trace { return testtrace.Mini(t, rows...) }

func TestSplitThread(t *testing.T) {
	tr := mini(t,
		"user_annotation|ProfilerStep#3|1|0|1000",
		"user_annotation|enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__|1|100|400",
		"python_function|<built-in function zoom_shift>|1|150|300",
		"cuda_runtime|cudaStreamSynchronize|1|460|20",
		"cpu_op|aten::nonzero|1|600|100",
		"cuda_runtime|cudaLaunchKernel|1|650|10",
		"cuda_runtime|cudaMalloc|1|750|10",
	)
	c := newCauser(tr, tr.Links())
	sp := c.splitThread(tr.Ev(0).Track, 0, 1000_000, 1000_000)
	want := map[Cause]int64{
		CauseInput:    380_000, // the loader and zoom_shift, less the sync inside
		CauseSync:     20_000,
		CauseCPU:      100_000, // aten::nonzero less its launch, and cudaMalloc
		CauseLaunch:   10_000,
		CauseUntraced: 490_000, // ProfilerStep#3's own time: nothing recorded
	}
	for cause, ns := range want {
		if sp.ns[cause] != ns {
			t.Errorf("%s: %d ns, want %d", cause, sp.ns[cause], ns)
		}
	}
	var sum int64
	for _, ns := range sp.ns {
		sum += ns
	}
	if sum != 1000_000 {
		t.Errorf("shares sum to %d", sum)
	}
	// Over [100us, 500us) zoom_shift covers 75%: the innermost event over half.
	sp = c.splitThread(tr.Ev(0).Track, 100_000, 500_000, 400_000)
	// Its 300us are all input (the sync comes after it).
	if sp.inside < 0 || tr.NameOf(int(sp.inside)) != "<built-in function zoom_shift>" || sp.insideBy[CauseInput] != 300_000 || sp.insideBy[CauseSync] != 0 {
		t.Errorf("inside %d %v", sp.inside, sp.insideBy)
	}
	// A window opening inside the sync notes the drained pipeline.
	sp = c.splitThread(tr.Ev(0).Track, 470_000, 600_000, 130_000)
	if sp.drained < 0 || tr.NameOf(int(sp.drained)) != "cudaStreamSynchronize" {
		t.Errorf("drained %d", sp.drained)
	}
}

func TestClassOfDeepNesting(t *testing.T) {
	// 10,000 nested frames under a DataLoader frame: classified iteratively.
	rows := []string{"user_annotation|enumerate(DataLoader)#x.__next__|1|0|100000"}
	for k := 1; k <= 10_000; k++ {
		rows = append(rows, fmt.Sprintf("python_function|f%d|1|%d|%d", k, k, 100000-2*k))
	}
	tr := mini(t, rows...)
	c := newCauser(tr, tr.Links())
	if got := c.classOf(int32(len(rows) - 1)); got != clsInput {
		t.Errorf("class %d", got)
	}
}
