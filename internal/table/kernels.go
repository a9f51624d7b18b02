package table

import (
	"math"
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
)

// KernelRow is one device op name in the kernel view (like nsys's
// cuda_gpu_kern_sum): its spread, not only its mean. Times in ns.
type KernelRow struct {
	Name     string
	Kind     trace.Kind
	Count    int64
	TotalNs  int64
	MinNs    int64
	MaxNs    int64
	MedianNs float64
	MeanNs   float64
	StdDevNs float64 // population standard deviation
	Pct      float64 // share of all device op time
}

// KernelView groups kernels, memcpys and memsets by name, largest total
// first. keep, when set, selects which device ops count.
func KernelView(t *trace.Trace, keep func(i int) bool) (rows []KernelRow, totalNs int64) {
	durs := map[trace.StrID][]int64{}
	kinds := map[trace.StrID]trace.Kind{}
	var order []trace.StrID
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() || (keep != nil && !keep(i)) {
			continue
		}
		if _, ok := durs[e.Name]; !ok {
			order = append(order, e.Name)
			kinds[e.Name] = e.Kind
		}
		durs[e.Name] = append(durs[e.Name], e.Dur)
		totalNs += e.Dur
	}
	for _, name := range order {
		d := durs[name]
		slices.Sort(d)
		r := KernelRow{Name: t.Str(name), Kind: kinds[name], Count: int64(len(d)), MinNs: d[0], MaxNs: d[len(d)-1]}
		for _, x := range d {
			r.TotalNs += x
		}
		r.MeanNs = float64(r.TotalNs) / float64(len(d))
		if len(d)%2 == 1 {
			r.MedianNs = float64(d[len(d)/2])
		} else {
			r.MedianNs = float64(d[len(d)/2-1]+d[len(d)/2]) / 2
		}
		var ss float64
		for _, x := range d {
			dx := float64(x) - r.MeanNs
			ss += dx * dx
		}
		r.StdDevNs = math.Sqrt(ss / float64(len(d)))
		if totalNs > 0 {
			r.Pct = float64(r.TotalNs) * 100 / float64(totalNs)
		}
		rows = append(rows, r)
	}
	slices.SortStableFunc(rows, func(a, b KernelRow) int {
		switch {
		case a.TotalNs > b.TotalNs:
			return -1
		case a.TotalNs < b.TotalNs:
			return 1
		}
		return 0
	})
	return rows, totalNs
}
