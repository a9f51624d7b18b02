package testenv

import (
	"path/filepath"
	"testing"
)

// WidthTraceName is a real trace that every text view has something to
// show for: six profiler steps, kernels and memcpys, recorded shapes and
// [memory] records (the TensorBoard plugin's resnet50 sample).
const WidthTraceName = "kineto__2021-06-11__tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"

// ModuleWidthTraceName is a real trace recorded with module frames and the
// kernels' efficiency args (TraceLens' BERT on an H100): the module view,
// and the kernel view with its TC, Blk/SM and Occ% columns.
const ModuleWidthTraceName = "TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz"

// WidthTrace is the shared trace named name as the width goldens read it:
// path, its absolute path (to open), and shown, the path the goldens print,
// as internal/cli's tests give it (relative to internal/cli:
// ../../../shared/traces/NAME). goldens reports whether the goldens hold on
// this machine: the shared folder sits beside the repository (elsewhere,
// TRACETAB_SHARED, only the widths are checked). It skips the test when
// the shared data is absent.
func WidthTrace(t testing.TB, name string) (path, shown string, goldens bool) {
	t.Helper()
	path, err := filepath.Abs(filepath.Join(Shared(t), "traces", name))
	if err != nil {
		t.Fatal(err)
	}
	beside, err := filepath.Abs(filepath.Join(Root(), "..", "shared", "traces", name))
	if err != nil {
		t.Fatal(err)
	}
	return path, filepath.Join("..", "..", "..", "shared", "traces", name), path == beside
}
