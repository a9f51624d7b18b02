package table

import "testing"

func TestPyShapes(t *testing.T) {
	for _, c := range []struct{ dims, types, want string }{
		{`[[256,256],[256,256]]`, `["float","float"]`, "[[256, 256], [256, 256]]"},
		{`[[256,256],[256,256],[]]`, `["float","float","Scalar"]`, "[[256, 256], [256, 256], []]"},
		{`[[[512,512]],[],[]]`, `["TensorList","Object","Int"]`, "[[], [], []]"}, // TensorList is [] in memory
		{`[[1,[2]],[-1,3]]`, ``, "[[], [-1, 3]]"},                                // not a flat int list
		{`[]`, ``, "[]"},
	} {
		if got := pyShapes(c.dims, c.types); got != c.want {
			t.Errorf("%s: %q, want %q", c.dims, got, c.want)
		}
	}
}

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]Version{"2.14.1": {2, 14}, "1.13.1+debian": {1, 13}, "2.6": {2, 6}, "2.6.0a0": {2, 6}} {
		if v, err := ParseVersion(in); err != nil || v != want {
			t.Errorf("%s: %v %v", in, v, err)
		}
	}
	for _, bad := range []string{"", "2", "x.y", "1.7", "9.1"} {
		if _, err := ParseVersion(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestSortKeys(t *testing.T) {
	for _, k := range []string{"none", "", "self_cuda_time_total", "self_device_time_total", "self_xpu_time_total", "cpu_time", "count", "cuda_memory_usage"} {
		if !ValidSort(k) {
			t.Errorf("%q refused", k)
		}
	}
	if ValidSort("fastest") {
		t.Error("unknown key accepted")
	}
}

func TestSplitStack(t *testing.T) {
	got := splitStack("a.py(1): f; torch/autograd/__init__.py(9): backward;b.py(2): g")
	if len(got) != 2 || got[0] != "a.py(1): f" || got[1] != "b.py(2): g" {
		t.Fatalf("%q", got)
	}
}
