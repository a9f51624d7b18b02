package gaps

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomStack is one CPU thread (tid 1) of n events with random, often
// overlapping and badly nested intervals (whole us in [0, 300)), of the
// kinds a gap's window meets, and a few kernels on stream 7 launched from
// it.
func randomStack(rng *rand.Rand, n int) []string {
	kinds := []string{
		"python_function|train.py(10): step",
		"python_function|torch/autograd/profiler.py(757): __exit__",
		"python_function|train.py(88): preprocess_images",
		"cpu_op|aten::mm",
		"user_annotation|enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
		"user_annotation|ProfilerStep#3",
		"cuda_runtime|cudaStreamSynchronize",
		"cuda_runtime|cudaMemsetAsync",
		"overhead|Activity Buffer Request",
	}
	var rows []string
	for k := 0; k < n; k++ {
		a := rng.IntN(280)
		d := 1 + rng.IntN(60)
		if rng.IntN(5) == 0 {
			d = 1 + rng.IntN(250)
		}
		kind := kinds[rng.IntN(len(kinds))]
		rows = append(rows, fmt.Sprintf("%s|1|%d|%d", kind, a, d))
	}
	// kernels with their launch calls (correlation ids 900+)
	at := 0
	for k := 0; k < 4; k++ {
		at += 10 + rng.IntN(70)
		c := 900 + k
		rows = append(rows, fmt.Sprintf("cuda_runtime|cudaLaunchKernel|1|%d|%d|%d", at, 1+rng.IntN(8), c))
		rows = append(rows, fmt.Sprintf("kernel|k%d|0|%d|%d|%d", k, at+5+rng.IntN(30), 1+rng.IntN(20), c))
	}
	return rows
}

// TestSweepCountsEachInstantOnce: over random badly nested stacks and
// random windows, splitThread gives each microsecond to the event that
// started last (the track's order) among those covering it, found here by
// looking at every event for every microsecond; its shares sum to the
// window and none is negative.
func TestSweepCountsEachInstantOnce(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(20, 19))
	for round := 0; round < 200; round++ {
		tr := mini(t, randomStack(rng, 2+rng.IntN(25))...)
		l := tr.Links()
		c := newCauser(tr, l)
		track := int32(-1)
		for i := 0; i < tr.NumEvents(); i++ {
			if tr.Ev(i).Kind.IsCPU() {
				track = tr.Ev(i).Track
				break
			}
		}
		ord := l.Order[l.TrackStart[track]:l.TrackStart[track+1]]
		for w := 0; w < 5; w++ {
			lo := int64(rng.IntN(300)) * 1000
			hi := lo + int64(1+rng.IntN(200))*1000
			sp := c.splitThread(track, lo, hi, hi-lo)
			var want [numCauses]int64
			for x := lo; x < hi; x += 1000 {
				owner := int32(-1)
				for _, i := range ord {
					e := tr.Ev(int(i))
					if e.Start <= x && x < e.End() && (owner < 0 || tr.CompareInTrack(owner, i) < 0) {
						owner = i
					}
				}
				if owner < 0 {
					want[CauseUntraced] += 1000
				} else {
					want[classCause[c.classOf(owner)]] += 1000
				}
			}
			var sum int64
			for _, ns := range sp.ns {
				if ns < 0 {
					t.Fatalf("round %d: a negative share %v", round, sp.ns)
				}
				sum += ns
			}
			if sp.ns != want || sum != hi-lo {
				t.Fatalf("round %d, window [%d, %d): shares %v, each instant once %v", round, lo, hi, sp.ns, want)
			}
			if sp.inside >= 0 {
				var in int64
				for _, ns := range sp.insideBy {
					in += ns
				}
				e := tr.Ev(int(sp.inside))
				if cl := min(e.End(), hi) - max(e.Start, lo); in != cl || 2*cl <= hi-lo {
					t.Fatalf("round %d: inside %d covers %d, its instants %d", round, sp.inside, cl, in)
				}
			}
		}
		// and the whole analysis keeps the share rules
		checkShares(t, fmt.Sprintf("round %d", round), Analyze(tr, Options{Device: -1, Stream: -1}))
	}
}
