package roofline

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
)

// TestGeneratedRooflineOps: tracegen -roofline writes ops whose FLOPs and
// bytes are worked out by hand (gen.RooflineOps); each is one row of the
// outermost modelled op of its chain with those figures per call, its
// kernels' time, and the rates and A100 shares that follow from them.
func TestGeneratedRooflineOps(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	const steps = 3
	facts, err := gen.Write(&buf, gen.Config{Steps: steps, Layers: 1, Roofline: true})
	if err != nil {
		t.Fatal(err)
	}
	if facts.RooflineCalls != steps*len(gen.RooflineOps) {
		t.Fatalf("%d roofline calls written", facts.RooflineCalls)
	}
	tr, err := parse.Read(bytes.NewReader(buf.Bytes()), "gen.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := Compute(tr, Options{})
	if len(res.Devices) != 1 || res.Devices[0].Peak == nil || res.Devices[0].Peak.Device != "A100 80GB SXM" {
		t.Fatalf("devices %+v", res.Devices)
	}
	for _, op := range gen.RooflineOps {
		outer := op.Chain[0]
		for _, r := range op.Chain {
			if modelOf(r.Name) != nil {
				outer = r
				break
			}
		}
		var row *Row
		for i := range res.Rows {
			if res.Rows[i].Name == outer.Name && res.Rows[i].Dims == strings.ReplaceAll(outer.Dims, " ", "") {
				if row != nil {
					t.Fatalf("%s: two rows", outer.Name)
				}
				row = &res.Rows[i]
			}
		}
		if row == nil || row.Est == nil {
			t.Fatalf("%s: no modelled row", outer.Name)
		}
		for _, r := range op.Chain {
			for i := range res.Rows {
				if r.Name != outer.Name && res.Rows[i].Name == r.Name {
					t.Errorf("%s has a row of its own inside %s", r.Name, outer.Name)
				}
			}
		}
		if row.Calls != steps || row.DeviceNs != steps*op.KernelNs {
			t.Errorf("%s: %d calls, %d ns; want %d, %d", outer.Name, row.Calls, row.DeviceNs, steps, steps*op.KernelNs)
		}
		if *row.FLOPsPerCall != op.FLOPs || *row.FLOPs != steps*op.FLOPs || *row.Bytes != steps*op.Bytes {
			t.Errorf("%s: FLOPs %d per call, %d bytes; want %d, %d", outer.Name, *row.FLOPsPerCall, *row.Bytes/steps, op.FLOPs, op.Bytes)
		}
		tflops := float64(op.FLOPs) / float64(op.KernelNs) / 1e3
		if math.Abs(*row.TFLOPs-tflops) > 1e-9 {
			t.Errorf("%s: %.4f TFLOP/s, want %.4f", outer.Name, *row.TFLOPs, tflops)
		}
		// A100: bf16 matrix 312 TFLOP/s, fp32 19.5, 2.039 TB/s
		peak := 312.0
		if !row.Est.Family.Matrix() {
			peak = 19.5
		}
		ai := float64(op.FLOPs) / float64(op.Bytes)
		wantBound, wantPct := "compute", tflops/peak*100
		if ai < peak/2.039 {
			wantBound, wantPct = "memory", float64(op.Bytes)/float64(op.KernelNs)/1e3/2.039*100
		}
		if row.Bound != wantBound || math.Abs(*row.PeakPct-wantPct) > 1e-9 {
			t.Errorf("%s: %s-bound at %.2f%%, want %s at %.2f%%", outer.Name, row.Bound, *row.PeakPct, wantBound, wantPct)
		}
	}
}
