package table

import (
	"bytes"
	"io"
	"path/filepath"
	"sort"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/rawjson"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// textHolds reports whether the trace's text (gzip or not) holds s.
func textHolds(t *testing.T, path, s string) bool {
	t.Helper()
	r, err := parse.OpenText(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Contains(b, []byte(s))
}

// rawMemoryTotals adds up, from the raw JSON, each cpu_op name's CPU and
// device memory as torch 2.10+ does: every [memory] record whose ns time
// lies in the op's [ts, ts+dur], both ends included, on any thread; CPU
// device types 0, 2, 5, CUDA-like 1, 6, 20. It also counts each name's ops.
func rawMemoryTotals(t *testing.T, evs []rawjson.Event) (cpu, dev map[string]int64, calls map[string]int64, records int) {
	t.Helper()
	type rec struct{ ns, cpu, dev int64 }
	var recs []rec
	type op struct {
		name   string
		lo, hi int64
	}
	var ops []op
	for _, e := range evs {
		if !e.HasTs {
			continue
		}
		ts := e.Ts
		switch {
		case e.Ph == "i" && e.Name == "[memory]":
			b, _ := e.ArgInt("Bytes")
			r := rec{ns: ts}
			switch e.ArgText("Device Type") {
			case "0", "2", "5":
				r.cpu = b
			case "1", "6", "20":
				r.dev = b
			}
			recs = append(recs, r)
		case e.Ph == "X" && (e.Cat == "cpu_op" || e.Cat == "Operator"):
			ops = append(ops, op{e.Name, ts, ts + max(e.Dur, 0)})
		}
	}
	sort.Slice(recs, func(a, b int) bool { return recs[a].ns < recs[b].ns })
	cpu, dev, calls = map[string]int64{}, map[string]int64{}, map[string]int64{}
	for _, o := range ops {
		calls[o.name]++
		k := sort.Search(len(recs), func(k int) bool { return recs[k].ns >= o.lo })
		for ; k < len(recs) && recs[k].ns <= o.hi; k++ {
			cpu[o.name] += recs[k].cpu
			dev[o.name] += recs[k].dev
		}
	}
	return cpu, dev, calls, len(recs)
}

// TestMemoryTotalsFromRawJSON: each op row's CPU Mem and CUDA Mem (torch
// 2.14's rules) equal the sums computed from the raw JSON, on every shared
// trace with [memory] records and on the Kineto benchmark shape; every
// row whose calls are all the trace's cpu_ops of its name is checked.
func TestMemoryTotalsFromRawJSON(t *testing.T) {
	t.Parallel()
	type input struct {
		name string
		evs  []rawjson.Event
		tr   *trace.Trace
	}
	var ins []input
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Steps: 20, Layers: 4, Kineto: gen.KinetoStyle()}); err != nil {
		t.Fatal(err)
	}
	gt, err := parse.Read(bytes.NewReader(buf.Bytes()), "kineto", parse.Options{NoExtras: true})
	if err != nil {
		t.Fatal(err)
	}
	gevs, err := rawjson.Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	ins = append(ins, input{"generated kineto", gevs, gt})
	if dir, ok := testenv.SharedDir(); ok {
		files, _ := filepath.Glob(filepath.Join(dir, "traces", "*.json*"))
		for _, f := range files {
			if !textHolds(t, f, `"[memory]"`) {
				continue
			}
			tr, _, err := testcache.Open(f, parse.Options{NoExtras: true})
			if err != nil {
				t.Fatalf("%s: %v", filepath.Base(f), err)
			}
			if tr.MemRecords == 0 {
				continue
			}
			ins = append(ins, input{filepath.Base(f), rawjson.MustReadArgs(t, f), tr})
		}
		if len(ins) < 2 {
			t.Errorf("no shared trace with [memory] records was checked; the shared set holds some (TraceLens h100 bert-small)")
		}
	}
	v := Version{2, 14}
	for _, in := range ins {
		cpu, dev, calls, records := rawMemoryTotals(t, in.evs)
		if records == 0 {
			t.Fatalf("%s: no [memory] records in the raw JSON", in.name)
		}
		res, err := Compute(in.tr, Options{Torch: v})
		if err != nil {
			t.Fatal(err)
		}
		checked, withMem := 0, 0
		for _, r := range res.Rows {
			if r.Device || r.UserAnn || calls[r.Name] != r.Count {
				continue
			}
			checked++
			if cpu[r.Name] != 0 || dev[r.Name] != 0 {
				withMem++
			}
			if r.CPUMem != cpu[r.Name] || r.DevMem != dev[r.Name] {
				t.Errorf("%s: %s: CPU Mem %d, CUDA Mem %d; the raw JSON gives %d, %d", in.name, r.Name, r.CPUMem, r.DevMem, cpu[r.Name], dev[r.Name])
			}
		}
		t.Logf("%s: %d records, %d op rows checked, %d with memory", in.name, records, checked, withMem)
		if checked == 0 || withMem == 0 {
			t.Errorf("%s: %d rows checked, %d with memory", in.name, checked, withMem)
		}
	}
}
