package diffview

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/textwidth"
)

// TestRowLabels: a device row keeps its prefix and its kernel is
// labelled as a table view labels it (the name behind the prefix labelled
// alone), ops are labelled as they are, every label fits, and different
// keys never read the same.
func TestRowLabels(t *testing.T) {
	kernels := []string{
		"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
		"void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, at::detail::Array<char*, 3>)",
		"ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
		"Memcpy HtoD (Pageable -> Device)",
	}
	ops := []string{"aten::copy_", "CompiledFunctionBackward", "autograd::engine::evaluate_function: AddmmBackward0"}
	var cells []string
	for _, k := range kernels {
		cells = append(cells, devicePrefix+k)
	}
	cells = append(cells, ops...)
	for _, width := range []int{24, 30, 40, 0} {
		got := rowLabels(cells, width)
		want := names.Labels(kernels, max(0, width-len(devicePrefix)))
		if width == 0 {
			want = names.Labels(kernels, 0)
		}
		seen := map[string]string{}
		for i, l := range got {
			if width > 0 && textwidth.Width(l) > width {
				t.Errorf("width %d: %q is %d wide", width, l, textwidth.Width(l))
			}
			if p, ok := seen[l]; ok {
				t.Errorf("width %d: %q and %q both read %q", width, p, cells[i], l)
			}
			seen[l] = cells[i]
			if i < len(kernels) {
				if l != devicePrefix+want[i] {
					t.Errorf("width %d: %q labelled %q, want %q", width, cells[i], l, devicePrefix+want[i])
				}
				if strings.HasPrefix(strings.TrimPrefix(l, devicePrefix), "...") {
					t.Errorf("width %d: %q labelled %q: the name is cut at its start", width, cells[i], l)
				}
			} else if wantOp := names.Labels(ops, width)[i-len(kernels)]; l != wantOp {
				t.Errorf("width %d: %q labelled %q, want %q", width, cells[i], l, wantOp)
			}
		}
	}
	if got := rowLabels(ops, 20); strings.Join(got, "|") != strings.Join(names.Labels(ops, 20), "|") {
		t.Errorf("without device rows: %q, want names.Labels' %q", got, names.Labels(ops, 20))
	}
}
