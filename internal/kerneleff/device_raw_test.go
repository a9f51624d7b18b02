package kerneleff_test

import (
	"math/big"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/kerneleff"
)

// TestDevicesRaw: on every shared trace whose kernels carry the args, each
// device's GPU utilization, est. SM efficiency and est. achieved occupancy
// over the window (the plugin's steps span, itself checked against the
// plugin's Overview in internal/gaps) equal exact rational arithmetic over
// the raw kernel events of that pid: the union of kernels clipped to the
// window; the capped sum of blocks per SM (values > 0) over each stretch
// between two kernel endpoints; the clipped-duration-weighted occupancy of
// the kernels that carry it.
func TestDevicesRaw(t *testing.T) {
	t.Parallel() // reads the cached raw events and parsed traces only
	if testing.Short() {
		t.Skip("decodes every shared trace with encoding/json")
	}
	checked, devices := 0, 0
	for _, path := range sharedTraces(t) {
		raw := readKernels(t, path)
		hasArgs := false
		for _, k := range raw {
			hasArgs = hasArgs || k.blocks != nil || k.occ != nil
		}
		if !hasArgs {
			continue
		}
		tr := open(t, path)
		w := gaps.EffWindow(tr, gaps.PluginSteps(tr, nil))
		byPid := map[string][]rawKernel{}
		for _, k := range raw {
			byPid[k.pid] = append(byPid[k.pid], k)
		}
		devs := kerneleff.Devices(tr, w, nil)
		if len(devs) != len(byPid) {
			t.Errorf("%s: %d devices, raw kernels on %d pids", filepath.Base(path), len(devs), len(byPid))
		}
		for _, d := range devs {
			ks := byPid[strconv.Itoa(d.Device)]
			if len(ks) != d.Kernels {
				t.Errorf("%s: device %d: %d kernels, raw pid has %d", filepath.Base(path), d.Device, d.Kernels, len(ks))
				continue
			}
			util, sm, occ, hasSM, hasOcc := rawDevice(ks, w.StartNs, w.EndNs)
			name := filepath.Base(path) + " device " + strconv.Itoa(d.Device)
			if !close(d.UtilizationPct, util) {
				t.Errorf("%s: utilization %.6f, raw %s", name, d.UtilizationPct, util.FloatString(6))
			}
			if d.HasSMEfficiency != hasSM || (hasSM && !close(d.SMEfficiencyPct, sm)) {
				t.Errorf("%s: SM efficiency %.6f (%v), raw %s (%v)", name, d.SMEfficiencyPct, d.HasSMEfficiency, sm.FloatString(6), hasSM)
			}
			if d.HasOccupancy != hasOcc || (hasOcc && !close(d.OccupancyPct, occ)) {
				t.Errorf("%s: occupancy %.6f (%v), raw %s (%v)", name, d.OccupancyPct, d.HasOccupancy, occ.FloatString(6), hasOcc)
			}
			t.Logf("%s (window of %s): utilization %.2f%%, SM efficiency %.2f%%, occupancy %.2f%%", name, w.Of, d.UtilizationPct, d.SMEfficiencyPct, d.OccupancyPct)
			devices++
		}
		checked++
	}
	if checked < 10 || devices < checked {
		t.Errorf("checked %d traces, %d devices (want >= 10 traces with the args)", checked, devices)
	}
}

// rawDevice computes the three metrics in percent from the raw kernels of
// one device over [ws, we), over the elementary stretches between
// consecutive distinct kernel endpoints.
func rawDevice(ks []rawKernel, ws, we int64) (util, sm, occ *big.Rat, hasSM, hasOcc bool) {
	var pts []int64
	for _, k := range ks {
		pts = append(pts, k.ts, k.ts+k.dur)
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	clip := func(s, e int64) int64 { return max(0, min(e, we)-max(s, ws)) }
	// kernels by start; a running set swept over the stretches
	order := slices.Clone(ks)
	slices.SortFunc(order, func(a, b rawKernel) int { return int(a.ts - b.ts) })
	busy, smSum := new(big.Rat), new(big.Rat)
	one := big.NewRat(1, 1)
	var active []rawKernel
	next := 0
	for i := 0; i+1 < len(pts); i++ {
		s, e := pts[i], pts[i+1]
		for next < len(order) && order[next].ts <= s {
			active = append(active, order[next])
			next++
		}
		active = slices.DeleteFunc(active, func(k rawKernel) bool { return k.ts+k.dur <= s })
		c := clip(s, e)
		if c == 0 {
			continue
		}
		running, blocks := false, new(big.Rat)
		for _, k := range active {
			if k.ts+k.dur > s {
				running = true
				if k.blocks != nil && k.blocks.Sign() > 0 {
					blocks.Add(blocks, k.blocks)
				}
			}
		}
		cr := new(big.Rat).SetInt64(c)
		if running {
			busy.Add(busy, cr)
		}
		if blocks.Sign() > 0 {
			hasSM = true
			if blocks.Cmp(one) > 0 {
				blocks.Set(one)
			}
			smSum.Add(smSum, blocks.Mul(blocks, cr))
		}
	}
	win := new(big.Rat).SetInt64(we - ws)
	hundred := big.NewRat(100, 1)
	util = new(big.Rat).Mul(new(big.Rat).Quo(busy, win), hundred)
	sm = new(big.Rat).Mul(new(big.Rat).Quo(smSum, win), hundred)
	occW, occNs := new(big.Rat), new(big.Rat)
	for _, k := range ks {
		if k.occ == nil || k.occ.Sign() < 0 {
			continue
		}
		if c := clip(k.ts, k.ts+k.dur); c > 0 {
			cr := new(big.Rat).SetInt64(c)
			occW.Add(occW, new(big.Rat).Mul(k.occ, cr))
			occNs.Add(occNs, cr)
		}
	}
	occ = new(big.Rat)
	if occNs.Sign() > 0 {
		hasOcc = true
		occ.Quo(occW, occNs)
	}
	return
}
