package gaps

import (
	"cmp"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// addLaunchLatency fills the launch latency of the streams' linked device
// ops (an op's start less its launch call's start), overall and by op name
// (most ops first, ties by name), counts the ops without a launch call,
// and sets the lane offset: the latency of the op whose launch call came
// first (the first stream's, on a tie). The latencies are grouped by op
// name in one flat array (event order within a name); each group is
// sorted once and the sorted groups merge into the sorted whole.
func addLaunchLatency(r *Report, t *trace.Trace, streams []stream) {
	group := make([]int32, len(t.Strings)) // name -> its group + 1
	var gNames []trace.StrID
	var gCount []int
	var firstLaunch int64
	nLat := 0
	for _, s := range streams {
		for k, x := range s.ops {
			if x.call < 0 {
				r.UnlinkedOps++
				continue
			}
			name := s.names[k]
			if group[name] == 0 {
				gNames, gCount = append(gNames, name), append(gCount, 0)
				group[name] = int32(len(gNames))
			}
			gCount[group[name]-1]++
			nLat++
			if d := x.s - x.launch; !r.HasLaneOffset || x.launch < firstLaunch {
				firstLaunch, r.LaneOffsetNs, r.HasLaneOffset = x.launch, d, true
			}
		}
	}
	if nLat == 0 {
		return
	}
	ends := make([]int, len(gNames))
	next := make([]int, len(gNames))
	at := 0
	for g, n := range gCount {
		next[g] = at
		at += n
		ends[g] = at
	}
	lat := make([]int64, nLat)
	for _, s := range streams {
		for k, x := range s.ops {
			if x.call >= 0 {
				g := group[s.names[k]] - 1
				lat[next[g]] = x.s - x.launch
				next[g]++
			}
		}
	}
	for g := range gNames {
		r.LatencyByName = append(r.LatencyByName, stats(t.Str(gNames[g]), lat[ends[g]-gCount[g]:ends[g]]))
	}
	r.Latency = stats("all device ops", mergeRuns(lat, ends, cmp.Compare[int64]))
	slices.SortFunc(r.LatencyByName, func(a, b LatencyStats) int {
		if a.Count != b.Count {
			return cmp.Compare(b.Count, a.Count)
		}
		return cmp.Compare(a.Name, b.Name)
	})
}
