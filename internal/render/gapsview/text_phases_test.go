package gapsview

import (
	"testing"

	"github.com/tracetab/tracetab/internal/gaps"
)

// TestGapTextGridDeviceColumn: with one device the Device column is
// dropped and the columns that give way first shift left by one; with two
// it stays.
func TestGapTextGridDeviceColumn(t *testing.T) {
	r := &gaps.Report{Devices: []gaps.Lane{{Device: 0}}, Gaps: []gaps.Gap{{Device: 0, LenNs: 10, StepBefore: -1, StepAfter: -1}}}
	g, opt := gapTextGrid(r, kitFor(false))
	if g.Headers[0] == "Device" || len(g.Rows[0]) != len(g.Headers) {
		t.Errorf("one device: headers %q, row of %d, want no Device column", g.Headers, len(g.Rows[0]))
	}
	if g.Headers[opt[0]] != "Previous op" || g.Headers[opt[3]] != "Steps" {
		t.Errorf("one device: optional %v name %q and %q, want Previous op and Steps", opt, g.Headers[opt[0]], g.Headers[opt[3]])
	}
	r.Devices = append(r.Devices, gaps.Lane{Device: 1})
	g, opt = gapTextGrid(r, kitFor(false))
	if g.Headers[0] != "Device" || g.Headers[opt[0]] != "Previous op" || g.Headers[opt[1]] != "Kind" {
		t.Errorf("two devices: headers %q optional %v, want Device first and the optional columns unshifted", g.Headers, opt)
	}
}
