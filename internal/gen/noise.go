package gen

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
)

// Noise makes traces of the same workload differ the way real runs do:
// Jitter scales every device op's duration and every launch call's CPU
// duration by a random factor in [1-Jitter, 1+Jitter] (drawn from Seed), and
// Slow scales the device ops whose name matches a pattern. Jitter is kept at
// or below 0.2 so launch calls stay inside their ops.
type Noise struct {
	Seed   uint64
	Jitter float64
	Slow   []Slow
}

// Slow multiplies the duration of device ops whose name matches Pattern.
type Slow struct {
	Pattern *regexp.Regexp
	Factor  float64
}

// ParseSlow reads PATTERN:FACTOR, e.g. gemm:1.3.
func ParseSlow(s string) (Slow, error) {
	i := strings.LastIndex(s, ":")
	if i <= 0 {
		return Slow{}, fmt.Errorf("-slow %q: want PATTERN:FACTOR, e.g. gemm:1.3", s)
	}
	re, err := regexp.Compile(s[:i])
	if err != nil {
		return Slow{}, fmt.Errorf("-slow %q: %v", s, err)
	}
	f, err := strconv.ParseFloat(s[i+1:], 64)
	if err != nil || !(f > 0) {
		return Slow{}, fmt.Errorf("-slow %q: the factor must be a positive number", s)
	}
	return Slow{re, f}, nil
}

// Validate checks the knobs.
func (n Noise) Validate() error {
	if n.Jitter < 0 || n.Jitter > 0.2 {
		return fmt.Errorf("-jitter %v: want 0 to 0.2", n.Jitter)
	}
	return nil
}

type noiser struct {
	n   Noise
	rng *rand.Rand
}

func newNoiser(n Noise) *noiser {
	return &noiser{n: n, rng: rand.New(rand.NewPCG(n.Seed, n.Seed^0x9e3779b97f4a7c15))}
}

func (z *noiser) factor() float64 {
	if z.n.Jitter == 0 {
		return 1
	}
	return 1 + z.n.Jitter*(2*z.rng.Float64()-1)
}

// device returns the duration of a device op after Slow and Jitter.
func (z *noiser) device(name string, dur int64) int64 {
	f := z.factor()
	for _, s := range z.n.Slow {
		if s.Pattern.MatchString(name) {
			f *= s.Factor
		}
	}
	return scale(dur, f)
}

// cpu returns a launch call's CPU duration after Jitter.
func (z *noiser) cpu(dur int64) int64 { return scale(dur, z.factor()) }

func scale(d int64, f float64) int64 {
	if f == 1 {
		return d
	}
	return max(1, int64(float64(d)*f+0.5))
}
