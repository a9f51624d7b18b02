package gen

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

type kEv struct {
	Ph, Cat, Name string
	Pid, Tid      any
	Ts, Dur       json.Number
	Args          map[string]json.RawMessage
}

func writeKineto(t *testing.T, cfg Config) ([]byte, Facts) {
	t.Helper()
	var b bytes.Buffer
	f, err := Write(&b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), f
}

// us is a ts or dur as integer ns, from its decimal text.
func usNs(t *testing.T, n json.Number) int64 {
	t.Helper()
	s := string(n)
	m := regexp.MustCompile(`^(\d+)\.(\d{3})$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("%q is not microseconds with three decimals", s)
	}
	var v int64
	for _, c := range m[1] + m[2] {
		v = v*10 + int64(c-'0')
	}
	return v
}

// TestKinetoStyle checks the -kineto trace against its definition, from
// the raw JSON: absolute three-decimal timestamps and no base, four H100s,
// the four record_shapes args on every op with inputs (strides contiguous
// for the dims, as many entries in each), a four-deep op tree, memory
// records each inside an op of its thread whose running totals add up,
// and Kineto's layout (every event opens on its own "  {" line).
func TestKinetoStyle(t *testing.T) {
	data, facts := writeKineto(t, Config{Steps: 5, Layers: 3, Kineto: KinetoStyle()})
	var doc struct {
		TraceEvents      []kEv
		DeviceProperties []struct {
			ID   int
			Name string
		}
		BaseTimeNanoseconds *int64
		ProfileMemory       int `json:"profile_memory"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.BaseTimeNanoseconds != nil {
		t.Error("an absolute-timestamp trace has baseTimeNanoseconds")
	}
	if len(doc.DeviceProperties) != 4 || doc.ProfileMemory != 1 {
		t.Fatalf("%d devices, profile_memory %d", len(doc.DeviceProperties), doc.ProfileMemory)
	}
	for i, d := range doc.DeviceProperties {
		if d.ID != i || d.Name != "NVIDIA H100 80GB HBM3" {
			t.Errorf("device %d: %+v", i, d)
		}
	}
	opens := bytes.Count(data, []byte("\n  {\n"))
	if opens != len(doc.TraceEvents) {
		t.Errorf("%d events open on their own line, of %d", opens, len(doc.TraceEvents))
	}
	type span struct {
		tid      any
		s, e     int64
		name     string
		children int
	}
	var ops []span
	var mems []kEv
	shaped := 0
	for _, e := range doc.TraceEvents {
		if e.Ts == "" {
			t.Fatalf("an event without ts: %+v", e)
		}
		ts := usNs(t, e.Ts)
		if ts < base {
			t.Fatalf("ts %s is not absolute", e.Ts)
		}
		if e.Name == "[memory]" {
			mems = append(mems, e)
			continue
		}
		if e.Cat != "cpu_op" {
			continue
		}
		ops = append(ops, span{e.Tid, ts, ts + usNs(t, e.Dur), e.Name, 0})
		dims, ok := e.Args["Input Dims"]
		if !ok {
			continue
		}
		shaped++
		var d [][]any
		var typ, ci []string
		var st [][]any
		for k, v := range map[string]any{"Input Dims": &d, "Input type": &typ, "Concrete Inputs": &ci, "Input Strides": &st} {
			raw, ok := e.Args[k]
			if !ok {
				t.Fatalf("%s has Input Dims but no %s", e.Name, k)
			}
			if err := json.Unmarshal(raw, v); err != nil {
				t.Fatalf("%s %s: %v", e.Name, k, err)
			}
		}
		if len(d) != len(typ) || len(d) != len(ci) || len(d) != len(st) {
			t.Errorf("%s: %d dims, %d types, %d concrete, %d strides", e.Name, len(d), len(typ), len(ci), len(st))
			continue
		}
		for i := range d {
			sizes := flat(d[i])
			if sizes == nil {
				continue
			}
			strides := flat(st[i])
			if len(strides) != len(sizes) {
				t.Errorf("%s input %d: dims %s, strides %v", e.Name, i, dims, st[i])
				continue
			}
			want := 1.0
			for j := len(sizes) - 1; j >= 0; j-- {
				if strides[j] != want {
					t.Errorf("%s input %d: stride %v, want %v (dims %s)", e.Name, i, strides[j], want, dims)
				}
				want *= sizes[j]
			}
			if strings.HasPrefix(typ[i], "Scalar") != (ci[i] != "") {
				t.Errorf("%s input %d: type %s, concrete %q", e.Name, i, typ[i], ci[i])
			}
		}
	}
	if shaped == 0 || len(mems) == 0 {
		t.Fatalf("%d shaped ops, %d memory records", shaped, len(mems))
	}
	// the deepest nesting of cpu_ops on one thread
	deep := 0
	for _, o := range ops {
		d := 1
		for _, p := range ops {
			if p.tid == o.tid && p.s <= o.s && p.e >= o.e && p != o {
				d++
			}
		}
		deep = max(deep, d)
	}
	if deep < 4 {
		t.Errorf("cpu_op trees are %d deep, want 4", deep)
	}
	if facts.MemoryRecords != len(mems) {
		t.Errorf("Facts.MemoryRecords %d, the trace has %d", facts.MemoryRecords, len(mems))
	}
	total := map[string]int64{}
	allocs, frees := 0, 0
	for _, m := range mems {
		ts := usNs(t, m.Ts)
		inside := false
		for _, o := range ops {
			if o.tid == m.Tid && o.s <= ts && ts <= o.e {
				inside = true
				break
			}
		}
		if !inside {
			t.Errorf("memory record at %s lies outside every op of its thread", m.Ts)
		}
		var a struct {
			Bytes, Total int64
			Dev          int64
		}
		json.Unmarshal(m.Args["Bytes"], &a.Bytes)
		json.Unmarshal(m.Args["Total Allocated"], &a.Total)
		json.Unmarshal(m.Args["Device Type"], &a.Dev)
		k := string(m.Args["Device Type"])
		total[k] += a.Bytes
		if total[k] != a.Total {
			t.Errorf("at %s: Total Allocated %d, the records add up to %d", m.Ts, a.Total, total[k])
		}
		if a.Bytes > 0 {
			allocs++
		} else {
			frees++
		}
	}
	if frees == 0 || allocs <= frees {
		t.Errorf("%d allocations, %d frees", allocs, frees)
	}
	if total["0"] != 0 {
		t.Errorf("CPU buffers left allocated: %d bytes", total["0"])
	}
}

func flat(v any) []float64 {
	l, ok := v.([]any)
	if !ok {
		return nil
	}
	out := []float64{}
	for _, x := range l {
		f, ok := x.(float64)
		if !ok {
			return nil
		}
		out = append(out, f)
	}
	return out
}

// TestKinetoKnobsApart: each knob alone changes only its part; the
// default trace keeps its relative timestamps and base.
func TestKinetoKnobsApart(t *testing.T) {
	plain, _ := writeKineto(t, Config{Steps: 2, Layers: 1})
	shapes, _ := writeKineto(t, Config{Steps: 2, Layers: 1, Kineto: Kineto{Shapes: true}})
	mem, fm := writeKineto(t, Config{Steps: 2, Layers: 1, Kineto: Kineto{Memory: true}})
	dev, _ := writeKineto(t, Config{Steps: 2, Layers: 1, Kineto: Kineto{Devices: 2}})
	if !bytes.Contains(plain, []byte(`"baseTimeNanoseconds"`)) || bytes.Contains(plain, []byte("Input Strides")) || bytes.Contains(plain, []byte("[memory]")) {
		t.Error("the default trace changed style")
	}
	if !bytes.Contains(shapes, []byte(`"Input Strides"`)) || bytes.Contains(shapes, []byte("[memory]")) || !bytes.Contains(shapes, []byte(`"baseTimeNanoseconds"`)) {
		t.Error("Shapes alone")
	}
	if fm.MemoryRecords == 0 || bytes.Count(mem, []byte(`"[memory]"`)) != fm.MemoryRecords || bytes.Contains(mem, []byte("Input Strides")) {
		t.Error("Memory alone")
	}
	if strings.Count(string(dev), "NVIDIA H100") != 2 || bytes.Contains(dev, []byte("A100")) {
		t.Error("Devices alone")
	}
	if (Kineto{Devices: -1}).Validate() == nil {
		t.Error("-devices -1 accepted")
	}
}
