package gen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

type rawEv struct {
	Ph, Cat, Name string
	Dur           json.Number
}

func kernels(t *testing.T, cfg Config) []rawEv {
	t.Helper()
	var b bytes.Buffer
	if _, err := Write(&b, cfg); err != nil {
		t.Fatal(err)
	}
	var doc struct{ TraceEvents []rawEv }
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var out []rawEv
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" && (e.Cat == "kernel" || e.Cat == "gpu_memcpy" || e.Cat == "gpu_memset") {
			out = append(out, e)
		}
	}
	return out
}

func ns(t *testing.T, d json.Number) float64 {
	f, err := d.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return f * 1000
}

// TestNoise: jitter keeps every device op within +-F of its plain duration
// and varies it; -slow scales only the matching names; a seed repeats.
func TestNoise(t *testing.T) {
	plain := kernels(t, Config{Steps: 6, Layers: 2})
	jit := kernels(t, Config{Steps: 6, Layers: 2, Noise: Noise{Seed: 5, Jitter: 0.05}})
	again := kernels(t, Config{Steps: 6, Layers: 2, Noise: Noise{Seed: 5, Jitter: 0.05}})
	slow, err := ParseSlow("gemm:1.3")
	if err != nil {
		t.Fatal(err)
	}
	sl := kernels(t, Config{Steps: 6, Layers: 2, Noise: Noise{Slow: []Slow{slow}}})
	if len(plain) != len(jit) || len(plain) != len(sl) {
		t.Fatalf("%d %d %d device ops", len(plain), len(jit), len(sl))
	}
	changed := 0
	for i := range plain {
		p, j := ns(t, plain[i].Dur), ns(t, jit[i].Dur)
		if j < p*0.95-1 || j > p*1.05+1 {
			t.Errorf("%s: %v ns jittered to %v", plain[i].Name, p, j)
		}
		if j != p {
			changed++
		}
		if jit[i].Dur != again[i].Dur {
			t.Errorf("seed 5 does not repeat at %d", i)
		}
		want := p
		if strings.Contains(plain[i].Name, "gemm") {
			want = float64(int64(p*1.3 + 0.5))
		}
		if got := ns(t, sl[i].Dur); got != want {
			t.Errorf("%s: slow %v, want %v", plain[i].Name, got, want)
		}
	}
	if changed < len(plain)/2 {
		t.Errorf("jitter changed %d of %d", changed, len(plain))
	}
	for _, bad := range []string{"gemm", "gemm:0", "(:2", ":1.3"} {
		if _, err := ParseSlow(bad); err == nil {
			t.Errorf("ParseSlow(%q) accepted", bad)
		}
	}
	if (Noise{Jitter: 0.5}).Validate() == nil {
		t.Error("jitter 0.5 accepted")
	}
}
