package kerneleff_test

import (
	"encoding/json"
	"math/big"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// rawKernel is one kernel event as written: name, ts and dur in ns (exact
// decimal reading), device (pid), and its two args as exact rationals
// (nil when absent).
type rawKernel struct {
	name        string
	ts, dur     int64
	pid         string
	blocks, occ *big.Rat
}

// readKernels reads the "X" events of category kernel (any case) of a
// trace file through rawjson, apart from the parser.
func readKernels(t *testing.T, path string) []rawKernel {
	t.Helper()
	// an arg written as a JSON number, as an exact rational; nil otherwise
	rat := func(v json.RawMessage, ok bool) *big.Rat {
		if !ok || len(v) == 0 || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
			return nil
		}
		q, ok := new(big.Rat).SetString(string(v))
		if !ok {
			t.Fatalf("%s: bad number %q", path, v)
		}
		return q
	}
	var out []rawKernel
	for _, e := range rawjson.MustReadArgs(t, path) {
		if e.Ph != "X" || strings.ToLower(e.Cat) != "kernel" {
			continue
		}
		k := rawKernel{pid: e.Pid, name: e.Name, ts: e.Ts, dur: e.Dur}
		k.blocks = rat(e.Arg("blocks per SM"))
		k.occ = rat(e.Arg("est. achieved occupancy %"))
		out = append(out, k)
	}
	return out
}

// sharedTraces lists the shared trace files.
func sharedTraces(t *testing.T) []string { return testenv.SharedTraces(t) }

func open(t *testing.T, path string) *trace.Trace {
	t.Helper()
	tr, _, err := testcache.Open(path, parse.Options{NoExtras: true, NoMemory: true}) // as table --by kernel reads
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func close(a float64, b *big.Rat) bool {
	f, _ := b.Float64()
	d := a - f
	if d < 0 {
		d = -d
	}
	return d <= 1e-9*max(1, f, -f)
}

// TestKernelMeansRaw: on every shared trace whose kernels carry the args,
// each kernel row's mean blocks per SM and mean estimated achieved
// occupancy equal the duration-weighted means over the raw events (a
// missing value counted as 0), in exact decimal arithmetic; a row none of
// whose calls carries an arg has no mean; on a trace without the args no
// row has one.
func TestKernelMeansRaw(t *testing.T) {
	t.Parallel() // reads the cached raw events and parsed traces only
	if testing.Short() {
		t.Skip("decodes every shared trace with encoding/json")
	}
	withArgs, checked := 0, 0
	for _, path := range sharedTraces(t) {
		raw := readKernels(t, path)
		type sums struct {
			dur, bw, ow *big.Rat
			hasB, hasO  bool
		}
		truth := map[string]*sums{}
		any := false
		for _, k := range raw {
			s := truth[k.name]
			if s == nil {
				s = &sums{dur: new(big.Rat), bw: new(big.Rat), ow: new(big.Rat)}
				truth[k.name] = s
			}
			d := new(big.Rat).SetInt64(k.dur)
			s.dur.Add(s.dur, d)
			if k.blocks != nil {
				s.hasB, any = true, true
				s.bw.Add(s.bw, new(big.Rat).Mul(k.blocks, d))
			}
			if k.occ != nil {
				s.hasO, any = true, true
				s.ow.Add(s.ow, new(big.Rat).Mul(k.occ, d))
			}
		}
		if any {
			withArgs++
		}
		tr := open(t, path)
		rows, _ := table.KernelView(tr, nil)
		seen := 0
		for _, r := range rows {
			if r.Kind != trace.KindKernel {
				if r.HasBlocksPerSM || r.HasOccupancy {
					t.Errorf("%s: %s row %q has efficiency means", filepath.Base(path), r.Kind, r.Name)
				}
				continue
			}
			s := truth[r.Name]
			if s == nil {
				t.Errorf("%s: kernel %q is not in the raw events", filepath.Base(path), r.Name)
				continue
			}
			seen++
			mean := func(w *big.Rat) *big.Rat {
				if s.dur.Sign() == 0 {
					return new(big.Rat)
				}
				return new(big.Rat).Quo(w, s.dur)
			}
			if r.HasBlocksPerSM != s.hasB || (s.hasB && !close(r.BlocksPerSM, mean(s.bw))) {
				t.Errorf("%s: %q blocks per SM %v (%v), raw %s (%v)", filepath.Base(path), r.Name, r.BlocksPerSM, r.HasBlocksPerSM, mean(s.bw).FloatString(6), s.hasB)
			}
			if r.HasOccupancy != s.hasO || (s.hasO && !close(r.OccupancyPct, mean(s.ow))) {
				t.Errorf("%s: %q occupancy %v (%v), raw %s (%v)", filepath.Base(path), r.Name, r.OccupancyPct, r.HasOccupancy, mean(s.ow).FloatString(6), s.hasO)
			}
		}
		if seen != len(truth) {
			t.Errorf("%s: %d kernel rows, %d kernel names in the raw events", filepath.Base(path), seen, len(truth))
		}
		if any {
			checked++
			t.Logf("%s: %d kernel names checked", filepath.Base(path), seen)
		}
	}
	if withArgs < 10 || checked != withArgs {
		t.Errorf("checked %d traces with the args of %d that have them (want >= 10)", checked, withArgs)
	}
}
