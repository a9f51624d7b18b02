package roofline

import (
	"strings"
	"testing"
)

// modelCase is one hand-computed call: the op, its recorded Input Dims,
// Input type and Concrete Inputs as the trace writes them, and the FLOPs
// and bytes worked out by hand (bytes -1: not computable; err: the reason
// there is no model contains it).
type modelCase struct {
	name, op            string
	dims, types, values string
	flops, bytes        int64
	prec                Precision
	err                 string
}

func runCases(t *testing.T, fam Family, cases []modelCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := Model(c.op, c.dims, c.types, c.values)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("%s: got %+v, %v; want no model (%q)", c.op, e, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", c.op, err)
			}
			if e.Family != fam {
				t.Errorf("family %q, want %q", e.Family, fam)
			}
			if e.FLOPs != c.flops {
				t.Errorf("FLOPs %d, want %d", e.FLOPs, c.flops)
			}
			switch {
			case c.bytes < 0 && e.HasBytes:
				t.Errorf("bytes %d, want none (a dtype or size is not recorded)", e.Bytes)
			case c.bytes >= 0 && (!e.HasBytes || e.Bytes != c.bytes):
				t.Errorf("bytes %d (known %v), want %d", e.Bytes, e.HasBytes, c.bytes)
			}
			if c.prec != "" && e.Precision() != c.prec {
				t.Errorf("precision %q, want %q", e.Precision(), c.prec)
			}
		})
	}
}
