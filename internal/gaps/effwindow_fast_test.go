package gaps

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/kerneleff"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// effAgrees asserts that devicesEff over the collected device lanes gives
// kerneleff.Devices' figures, floats bit for bit, over the steps' window
// and over the trace's; it reports whether it took the lanes (no two
// kernels of a device starting at one instant).
func effAgrees(t *testing.T, name string, tr *trace.Trace) bool {
	t.Helper()
	l := tr.Links()
	_, devices := collect(tr, l, func(int, *trace.Event) bool { return true })
	took := true
	for _, w := range []kerneleff.Window{EffWindow(tr, PluginSteps(tr, nil)), EffWindow(tr, nil)} {
		got, ok := devicesEff(tr, w, devices)
		if !ok {
			took = false
			continue
		}
		if want := kerneleff.Devices(tr, w, nil); !reflect.DeepEqual(got, want) {
			t.Errorf("%s over %+v: devicesEff\n%+v\nkerneleff.Devices\n%+v", name, w, got, want)
		}
	}
	return took
}

// TestDevicesEffIsKerneleffs: on every shared trace, the benchmark shapes
// and generated traces with several devices and streams, the efficiency
// read from the device lanes is kerneleff's.
func TestDevicesEffIsKerneleffs(t *testing.T) {
	t.Run("shared", func(t *testing.T) {
		took := 0
		for _, p := range testenv.SharedTraces(t) {
			tr, err := openCached(p)
			if err != nil {
				continue
			}
			if effAgrees(t, filepath.Base(p), tr) {
				took++
			}
		}
		t.Logf("%d shared traces took the device lanes", took)
	})
	eachVariant(t, func(name string, tr *trace.Trace) {
		if !effAgrees(t, name, tr) {
			t.Errorf("%s: two kernels of a device start at one instant in a generated trace", name)
		}
	})
}

// eachVariant calls check with each generated variant the fast paths'
// tests compare on (a GPU-bound run, a rank of a job, the three bench
// shapes at 20 steps), read without extras.
func eachVariant(t *testing.T, check func(name string, tr *trace.Trace)) {
	t.Helper()
	cfgs := map[string]gen.Config{
		"gpubound": {Steps: 3, Layers: 2, GPUBound: true, Noise: gen.Noise{Seed: 2, Jitter: 0.1}},
		"rank":     {Steps: 3, World: 4, Rank: 1, Straggler: 1, StragglerDelay: 2_000_000},
	}
	for _, sh := range gen.BenchShapes() {
		c := sh.Cfg
		c.Steps = 20
		cfgs[sh.Name] = c
	}
	for name, cfg := range cfgs {
		var buf bytes.Buffer
		if _, err := gen.Write(&buf, cfg); err != nil {
			t.Fatal(err)
		}
		tr, err := parse.Read(bytes.NewReader(buf.Bytes()), name, parse.Options{NoExtras: true})
		if err != nil {
			t.Fatal(err)
		}
		check(name, tr)
	}
}
