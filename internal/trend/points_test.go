package trend

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tracetab/tracetab/internal/changepoint"
)

// TestAllPointsIsTheLoopInOrder: the metrics' change points found on the
// cores at once are the ones the in-order loop finds, metric by metric,
// on a series with planted shifts (some metrics without any, some with
// NaN runs), and the planted shifts are found.
func TestAllPointsIsTheLoopInOrder(t *testing.T) {
	const nRuns, nMetrics = 60, 13
	r := rand.New(rand.NewPCG(4, 2))
	runs := make([]*Run, nRuns)
	for k := range runs {
		runs[k] = &Run{Path: fmt.Sprintf("night-%02d.json", k)}
	}
	metric := func(m int) Metric {
		x := Metric{Name: fmt.Sprintf("op:m%02d", m), Unit: UnitNs, Values: make([]float64, nRuns)}
		for k := range x.Values {
			v := 1000 + math.Round(r.NormFloat64()*10)
			if m%3 != 0 && k >= 20+m { // every metric but each third one shifts
				v += 200
			}
			if m%4 == 1 && k%7 == 0 {
				v = math.NaN() // a run without the metric
			}
			x.Values[k] = v
		}
		return x
	}
	var par, seq []Metric
	for m := range nMetrics {
		x := metric(m)
		par = append(par, x)
		y := x
		y.Values = append([]float64(nil), x.Values...)
		seq = append(seq, y)
	}
	o := withDefaults(changepoint.Options{})
	allPoints(par, runs, o)
	for k := range seq {
		points(&seq[k], runs, o)
	}
	shifted := 0
	for k := range seq {
		if got, want := fmt.Sprintf("%+v", par[k].Points), fmt.Sprintf("%+v", seq[k].Points); got != want {
			t.Errorf("%s: points %s, the loop in order gives %s", seq[k].Name, got, want)
		}
		if len(seq[k].Points) > 0 {
			shifted++
		}
	}
	if want := nMetrics - (nMetrics+2)/3; shifted != want {
		t.Errorf("%d metrics with change points, want the %d planted", shifted, want)
	}
}
