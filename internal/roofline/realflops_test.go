package roofline

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// rawSizes reads Input Dims element by element: a flat list of integers,
// or nil.
func rawSizes(dims string) [][]int64 {
	var elems []json.RawMessage
	json.Unmarshal([]byte(dims), &elems)
	out := make([][]int64, len(elems))
	for i, e := range elems {
		var xs []int64
		if json.Unmarshal(e, &xs) == nil {
			out[i] = xs
		}
	}
	return out
}

// rawList reads a Concrete Inputs value such as "[1, 1]".
func rawList(s string) []int64 {
	s = strings.Trim(s, "[] ")
	if s == "" {
		return nil
	}
	var out []int64
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

func prod(xs ...int64) int64 {
	p := int64(1)
	for _, x := range xs {
		p *= x
	}
	return p
}

// testFLOPs is the test's own reading of a GEMM or convolution call: the
// textbook formulas over the raw Input Dims and Concrete Inputs; ok is
// false where the recorded arguments do not give them.
func testFLOPs(name, dims, values string) (int64, bool) {
	d := rawSizes(dims)
	var v []string
	json.Unmarshal([]byte(values), &v)
	val := func(i int) string {
		if i < len(v) {
			return v[i]
		}
		return ""
	}
	mat := func(a, b []int64) (int64, bool) { // [.., M, K] x [.., K, N]
		if len(a) < 2 || len(a) != len(b) || a[len(a)-1] != b[len(b)-2] {
			return 0, false
		}
		batch := prod(a[:len(a)-2]...)
		return 2 * batch * a[len(a)-2] * a[len(a)-1] * b[len(b)-1], true
	}
	at := func(i int) []int64 {
		if i < len(d) {
			return d[i]
		}
		return nil
	}
	// conv: N, K from the output (or grad_output), C/groups and kernel from weight
	conv := func(in, w []int64, stride, pad, dil []int64) (int64, bool) {
		s := len(w) - 2
		if len(in) != s+2 || len(stride) == 0 || len(pad) == 0 || len(dil) == 0 {
			return 0, false
		}
		f := 2 * in[0] * w[0] * w[1]
		for i := 0; i < s; i++ {
			pick := func(x []int64) int64 {
				if len(x) == 1 {
					return x[0]
				}
				return x[i]
			}
			o := (in[2+i]+2*pick(pad)-pick(dil)*(w[2+i]-1)-1)/pick(stride) + 1
			f *= w[2+i] * o
		}
		return f, true
	}
	switch name {
	case "aten::mm", "aten::bmm", "aten::_scaled_mm", "aten::_int_mm":
		return mat(at(0), at(1))
	case "aten::addmm", "aten::baddbmm", "aten::addbmm", "aten::_addmm_activation":
		return mat(at(1), at(2))
	case "aten::convolution", "aten::_convolution":
		if val(6) != "False" {
			return 0, false
		}
		return conv(at(0), at(1), rawList(val(3)), rawList(val(4)), rawList(val(5)))
	case "aten::cudnn_convolution":
		return conv(at(0), at(1), rawList(val(3)), rawList(val(2)), rawList(val(4)))
	case "aten::cudnn_convolution_backward_input":
		g, w := at(1), at(2) // grad_output [N, K, *O], weight [K, C/g, *R]
		if len(g) < 3 || len(w) != len(g) {
			return 0, false
		}
		return 2 * g[0] * g[1] * w[1] * prod(w[2:]...) * prod(g[2:]...), true
	case "aten::cudnn_convolution_backward_weight":
		g, w := at(1), rawList(val(0)) // weight_size as recorded
		if len(g) < 3 || len(w) != len(g) {
			return 0, false
		}
		return 2 * g[0] * g[1] * w[1] * prod(w[2:]...) * prod(g[2:]...), true
	case "aten::convolution_backward":
		g, w := at(0), at(2)
		if val(7) != "False" || len(g) < 3 || len(w) != len(g) {
			return 0, false
		}
		fwd := 2 * g[0] * g[1] * w[1] * prod(w[2:]...) * prod(g[2:]...)
		var f int64
		for k, m := range strings.Split(strings.Trim(val(10), "[]"), ",") {
			if strings.TrimSpace(m) != "True" {
				continue
			}
			if k < 2 {
				f += fwd
			} else {
				f += g[0] * g[1] * prod(g[2:]...)
			}
		}
		return f, val(10) != ""
	}
	return 0, false
}

// TestGEMMConvFLOPsFromRawDims: on every shared trace with shapes, every
// GEMM and convolution row's FLOPs are its calls times the test's own
// formula over the raw JSON's Input Dims (and Concrete Inputs) of that
// op; a row without a model is one whose arguments the test cannot read
// either.
func TestGEMMConvFLOPsFromRawDims(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, rt := range sharedWithShapes(t) {
		before := map[Family]int{}
		want := map[string]int64{}
		readable := map[string]bool{}
		for i := range rt.raw {
			e := &rt.raw[i]
			if !e.isOp() || (FamilyOf(e.Name) != GEMM && FamilyOf(e.Name) != Conv) {
				continue
			}
			key := e.Name + "\x00" + e.dims() + "\x00" + e.arg("Input type") + "\x00" + e.arg("Concrete Inputs")
			f, ok := testFLOPs(e.Name, e.dims(), e.arg("Concrete Inputs"))
			readable[key] = ok
			want[key] = f
		}
		for _, r := range rt.res.Rows {
			if r.DeviceOp || (FamilyOf(r.Name) != GEMM && FamilyOf(r.Name) != Conv) {
				continue
			}
			key := r.Name + "\x00" + r.Dims + "\x00" + r.Types + "\x00" + r.Values
			ok, seen := readable[key]
			switch {
			case !seen:
				t.Errorf("%s: row %s %s has arguments no raw event has", rt.name, r.Name, r.Dims)
			case !ok && r.FLOPs != nil:
				t.Errorf("%s: %s %s %s: modelled (%d FLOPs) though the test cannot read it", rt.name, r.Name, r.Dims, r.Values, *r.FLOPs)
			case ok && (r.FLOPs == nil || *r.FLOPs != want[key]*r.Calls):
				t.Errorf("%s: %s %s: FLOPs %v, want %d calls x %d", rt.name, r.Name, r.Dims, r.FLOPs, r.Calls, want[key])
			case ok:
				checked++
				before[FamilyOf(r.Name)]++
			}
		}
		if len(before) > 0 {
			t.Logf("%s: %d gemm and %d conv rows", rt.name, before[GEMM], before[Conv])
		}
	}
	if checked < 50 {
		t.Errorf("only %d GEMM and conv rows checked", checked)
	}
	t.Logf("%d GEMM and conv rows checked against the raw dims", checked)
}
