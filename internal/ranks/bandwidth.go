package ranks

import (
	"cmp"
	"regexp"
	"slices"

	"github.com/tracetab/tracetab/internal/stats"
)

// BWGroup is the communication kernels of one rank that moved the same
// collective of the same size: their count, time and bandwidth.
type BWGroup struct {
	Index     int    // the summary (Report.Ranks) index
	Coll      string // "Collective name" as the trace writes it
	Kind      string // KindAllReduce, ...; "" when unknown
	Dtype     string
	Bytes     int64 // nccl-tests' S of one collective
	GroupSize int64 // -1 when not recorded
	Count     int
	TotalNs   int64 // the sum of the kernels' durations
	MedianNs  int64 // the median kernel duration
	// AlgBW is Count*Bytes/TotalNs in GB/s (1e9 bytes/s); BusBW applies
	// nccl-tests' factor for GroupSize ranks (-1 when unknown). A rank's own
	// kernel lasts from its arrival to the end, waits included: these are
	// lower bounds (the per-collective table divides by the shortest kernel).
	AlgBW, BusBW float64
	// NominalGBps is the nominal per-direction NVLink bandwidth of the
	// rank's device (-1 when tracetab does not know the device); LinkPct is
	// BusBW as a share of it (-1 when either is unknown).
	NominalGBps, LinkPct float64
}

// links are nominal NVLink bandwidths per direction of data-centre GPUs, by
// deviceProperties name: the peak a busbw can be held to within one node.
var links = []struct {
	name *regexp.Regexp
	gbps float64
}{
	{regexp.MustCompile(`V100-SXM`), 150},             // NVLink 2: 6 links x 25 GB/s
	{regexp.MustCompile(`A100-SXM`), 300},             // NVLink 3: 12 x 25 GB/s
	{regexp.MustCompile(`H100 (80GB HBM3|SXM)`), 450}, // NVLink 4: 18 x 25 GB/s
	{regexp.MustCompile(`H200`), 450},                 // NVLink 4
	{regexp.MustCompile(`B200|GB200`), 900},           // NVLink 5: 18 x 50 GB/s
}

// NominalLink is the nominal per-direction NVLink bandwidth (GB/s) of a
// device by its deviceProperties name; ok is false for a device tracetab
// has no figure for (PCIe cards, AMD, unknown boards).
func NominalLink(device string) (float64, bool) {
	for _, l := range links {
		if l.name.MatchString(device) {
			return l.gbps, true
		}
	}
	return 0, false
}

// bandwidth groups each rank's sized communication kernels.
func (r *Report) bandwidth() {
	type key struct {
		i            int
		coll, dtype  string
		bytes, group int64
	}
	durs := map[key][]int64{}
	var order []key
	for i, s := range r.Ranks {
		for _, c := range s.Colls {
			b := c.Size.Bytes()
			if b < 0 {
				continue
			}
			k := key{i, c.Size.Coll, c.Size.Dtype, b, c.Size.GroupSize}
			if durs[k] == nil {
				order = append(order, k)
			}
			durs[k] = append(durs[k], c.Dur)
		}
	}
	for _, k := range order {
		g := BWGroup{Index: k.i, Coll: k.coll, Kind: KindOf(k.coll), Dtype: k.dtype, Bytes: k.bytes, GroupSize: k.group,
			Count: len(durs[k]), MedianNs: stats.MedianNs(durs[k]), AlgBW: -1, BusBW: -1, NominalGBps: -1, LinkPct: -1}
		for _, d := range durs[k] {
			g.TotalNs += d
		}
		if g.TotalNs > 0 {
			g.AlgBW = float64(g.Bytes) * float64(g.Count) / float64(g.TotalNs)
			if f, ok := BusFactor(g.Kind, g.GroupSize); ok {
				g.BusBW = g.AlgBW * f
			}
		}
		if n, ok := NominalLink(r.Ranks[k.i].Device); ok {
			g.NominalGBps = n
			if g.BusBW >= 0 {
				g.LinkPct = 100 * g.BusBW / n
			}
		}
		r.Bandwidth = append(r.Bandwidth, g)
	}
	slices.SortStableFunc(r.Bandwidth, func(a, b BWGroup) int {
		if c := cmp.Compare(a.Index, b.Index); c != 0 {
			return c
		}
		return cmp.Compare(b.TotalNs, a.TotalNs)
	})
}
