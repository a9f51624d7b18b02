package rooflineview

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/roofline"
	"github.com/tracetab/tracetab/internal/units"
)

// Summary is the prose after the table: how much of the device time the
// models cover, how close GEMMs and attention come to the peak, where the
// most time is lost, and the peaks used.
func Summary(r *roofline.Result) []string {
	if r.DeviceNs == 0 {
		return []string{"no device time: the trace has no kernels, memcpys or memsets to measure"}
	}
	var out []string
	mp, _ := r.ModelledPct()
	out = append(out, fmt.Sprintf("modelled: %s%% of the device time (%s of %s, the sum of kernel, memcpy and memset durations); %s%% not modelled",
		units.Pct(mp), units.Dur(r.ModelledNs), units.Dur(r.DeviceNs), units.Pct(100-mp)))
	var fam []string
	for _, f := range r.Families {
		if f.DeviceNs == 0 || !f.Family.Matrix() {
			continue
		}
		share := float64(f.DeviceNs) * 100 / float64(r.DeviceNs)
		s := fmt.Sprintf("%s %s%% of the device time", f.Family, units.Pct(share))
		if f.PeakPct != nil {
			s += fmt.Sprintf(" at %s%% of peak", units.Pct(*f.PeakPct))
			if f.MeasuredNs < f.DeviceNs {
				s += fmt.Sprintf(" (over %s with a peak)", units.Dur(f.MeasuredNs))
			}
		} else {
			s += " (no peak: n/a)"
		}
		fam = append(fam, s)
	}
	if len(fam) > 0 {
		out = append(out, "time-weighted: "+strings.Join(fam, "; "))
	}
	if len(r.Lost) > 0 {
		var l []string
		for _, i := range r.Lost {
			x := &r.Rows[i]
			s := fmt.Sprintf("%s (%s) %s lost (%s%% of peak, %s-bound)", x.Name, shapes(x), units.Dur(*x.LostNs), units.Pct(*x.PeakPct), x.Bound)
			l = append(l, strings.TrimSpace(strings.ReplaceAll(s, "  ", " ")))
		}
		out = append(out, "most time lost to the peak (device time x (1 - share of peak)): "+strings.Join(l, "; "))
	}
	for _, d := range r.Devices {
		out = append(out, deviceLine(d))
	}
	return out
}

func deviceLine(d roofline.Device) string {
	name := d.Name
	if name == "" {
		name = "(no name)"
	}
	if d.Peak == nil {
		return fmt.Sprintf("device %d %s: not in the peak table; achieved figures only", d.Index, name)
	}
	var ps []string
	for _, p := range roofline.Precisions {
		if v, ok := d.Peak.TFLOPs[p]; ok {
			ps = append(ps, string(p)+" "+strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	as := ""
	if d.Peak.Device != "" {
		as = " as " + d.Peak.Device
	}
	bw := "no memory peak"
	if d.Peak.TBps > 0 {
		bw = strconv.FormatFloat(d.Peak.TBps, 'f', -1, 64) + " TB/s"
	}
	return fmt.Sprintf("device %d %s%s (%s): %s TFLOP/s dense, %s", d.Index, name, as, d.Peak.Source, strings.Join(ps, ", "), bw)
}
