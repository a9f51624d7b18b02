package roofline

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Override is --peak: compute peaks (one for every precision, or per
// precision) and a memory bandwidth that replace the peak table's.
type Override struct {
	All    float64 // tflops=: every precision, 0 unset
	TFLOPs map[Precision]float64
	TBps   float64 // 0 unset
}

// ParseOverride reads "tflops=989,tbps=3.35" (also fp32=, tf32=, fp16=,
// bf16=, fp8= for one precision). Values are positive numbers.
func ParseOverride(s string) (*Override, error) {
	o := &Override{TFLOPs: map[Precision]float64{}}
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty: want e.g. tflops=989,tbps=3.35")
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return nil, fmt.Errorf("%q: want KEY=VALUE, e.g. tflops=989 or tbps=3.35", part)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
			return nil, fmt.Errorf("%s=%s: want a positive number", k, v)
		}
		k = strings.ToLower(strings.TrimSpace(k))
		switch {
		case k == "tflops":
			o.All = x
		case k == "tbps":
			o.TBps = x
		case slices.Contains(Precisions, Precision(k)):
			o.TFLOPs[Precision(k)] = x
		default:
			return nil, fmt.Errorf("unknown key %q: use tflops, tbps, or one of fp32, tf32, fp16, bf16, fp8", k)
		}
	}
	return o, nil
}

// apply returns p with the override's figures in place (p may be nil).
func (o *Override) apply(p *Peak) *Peak {
	out := Peak{TFLOPs: map[Precision]float64{}, Source: "--peak"}
	if p != nil {
		out.Device, out.TBps, out.Source = p.Device, p.TBps, p.Source+", --peak"
		for k, v := range p.TFLOPs {
			out.TFLOPs[k] = v
		}
	}
	if o.All > 0 {
		for _, k := range Precisions {
			out.TFLOPs[k] = o.All
		}
	}
	for k, v := range o.TFLOPs {
		out.TFLOPs[k] = v
	}
	if o.TBps > 0 {
		out.TBps = o.TBps
	}
	return &out
}

// resolveDevices names the devices that ran work and finds their peaks.
func resolveDevices(t *trace.Trace, used map[int]bool, o *Override) []Device {
	var out []Device
	for idx := range used {
		d := Device{Index: idx, PropsID: -1}
		for _, dp := range t.Devices {
			if dp.ID == idx {
				d.Name, d.TotalMem, d.PropsID = dp.Name, dp.TotalMem, dp.ID
			}
		}
		if d.PropsID < 0 && len(t.Devices) == 1 && len(used) == 1 {
			// one visible device: ROCm writes the system's device index
			// on the device ops and the process's (0) in deviceProperties
			dp := t.Devices[0]
			d.Name, d.TotalMem, d.PropsID = dp.Name, dp.TotalMem, dp.ID
		}
		if p, ok := LookupPeak(d.Name, d.TotalMem); ok {
			d.Peak, d.Known = &p, true
		}
		if o != nil {
			d.Peak = o.apply(d.Peak)
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b Device) int { return a.Index - b.Index })
	return out
}

func ptr[T any](v T) *T { return &v }

// figures computes a row's totals and rates against its device's peaks.
func figures(r *Row, p *Peak) Figures {
	var f Figures
	e := r.Est
	if e == nil {
		return f
	}
	flops, ok := mul(e.FLOPs, r.Calls)
	if !ok {
		return f
	}
	f.FLOPs, f.FLOPsPerCall = &flops, ptr(e.FLOPs)
	if e.HasBytes {
		if b, ok := mul(e.Bytes, r.Calls); ok {
			f.Bytes = &b
			if b > 0 {
				f.Intensity = ptr(float64(flops) / float64(b))
			}
		}
	}
	f.Precision = e.Precision()
	if f.Precision == FP32 && r.TF32 && e.Family.Matrix() {
		f.Precision = TF32
	}
	if r.DeviceNs <= 0 {
		return f
	}
	ns := float64(r.DeviceNs)
	// FLOPs per ns are GFLOP/s; bytes per ns GB/s
	f.TFLOPs = ptr(float64(flops) / ns / 1e3)
	if f.Bytes != nil {
		f.TBps = ptr(float64(*f.Bytes) / ns / 1e3)
	}
	if p == nil {
		return f
	}
	if pk := p.TFLOPs[f.Precision]; pk > 0 && f.Precision != "" {
		f.PeakTFLOPs = ptr(pk)
		f.ComputePct = ptr(*f.TFLOPs / pk * 100)
	}
	if p.TBps > 0 && f.TBps != nil {
		f.MemoryPct = ptr(*f.TBps / p.TBps * 100)
	}
	if f.PeakTFLOPs != nil && p.TBps > 0 && f.Bytes != nil && *f.Bytes > 0 {
		ridge := *f.PeakTFLOPs / p.TBps // FLOPs per byte where the roofs meet
		ai := float64(flops) / float64(*f.Bytes)
		if ai >= ridge {
			f.Bound, f.PeakPct = "compute", f.ComputePct
		} else {
			f.Bound, f.PeakPct = "memory", f.MemoryPct
		}
		eff := min(*f.PeakPct/100, 1)
		f.LostNs = ptr(int64(math.Round(ns * (1 - eff))))
	}
	return f
}
