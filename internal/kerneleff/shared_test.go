package kerneleff_test

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"math/big"
	"os"
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
// trace file with encoding/json, apart from the parser.
func readKernels(t *testing.T, path string) []rawKernel {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var top any
	if err := dec.Decode(&top); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var evs []any
	switch x := top.(type) {
	case []any:
		evs = x
	case map[string]any:
		evs, _ = x["traceEvents"].([]any)
	}
	rat := func(v any) *big.Rat {
		n, ok := v.(json.Number)
		if !ok {
			return nil
		}
		q, ok := new(big.Rat).SetString(n.String())
		if !ok {
			t.Fatalf("%s: bad number %q", path, n)
		}
		return q
	}
	var out []rawKernel
	for _, v := range evs {
		m, _ := v.(map[string]any)
		if m == nil || m["ph"] != "X" {
			continue
		}
		if c, _ := m["cat"].(string); strings.ToLower(c) != "kernel" {
			continue
		}
		k := rawKernel{pid: rawjson.ID(m["pid"])}
		k.name, _ = m["name"].(string)
		var err error
		if k.ts, err = rawjson.Ns(m["ts"]); err != nil {
			t.Fatal(err)
		}
		if k.dur, err = rawjson.Ns(m["dur"]); err != nil {
			t.Fatal(err)
		}
		if a, ok := m["args"].(map[string]any); ok {
			k.blocks, k.occ = rat(a["blocks per SM"]), rat(a["est. achieved occupancy %"])
		}
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
