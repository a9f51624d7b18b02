package export

import (
	"slices"

	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/trend"
)

// DatasetTrend is tracetab trend's reduction of each trace (one row).
const DatasetTrend = "trend"

// TrendRow is one trace as tracetab trend reduces it (trend.Run): its
// wall-clock start, the environment that decides which runs are
// comparable, and every metric value trend follows (metric, unit and
// value are parallel lists, sorted by metric). With it trend --dataset
// gives the JSON trend gives over the trace itself.
type TrendRow struct {
	TraceID   string    `parquet:"trace_id"`
	Path      string    `parquet:"path"`
	StartNs   int64     `parquet:"start_ns"`   // Unix ns; 0 when wall_clock is false
	WallClock bool      `parquet:"wall_clock"` // the trace's times are on the wall clock
	GPUModels []string  `parquet:"gpu_models,list"`
	Devices   int64     `parquet:"devices"`
	WorldSize int64     `parquet:"world_size"` // -1: no distributedInfo
	Rank      int64     `parquet:"rank"`       // -1: no distributedInfo
	Era       string    `parquet:"era"`
	EnvSteps  int64     `parquet:"env_steps"`
	Shapes    bool      `parquet:"shapes"`
	Stacks    bool      `parquet:"stacks"`
	Memory    bool      `parquet:"memory"`
	Steps     int64     `parquet:"steps"`
	Metric    []string  `parquet:"metric,list"`
	Unit      []string  `parquet:"unit,list"`
	Value     []float64 `parquet:"value,list"`
}

// trendRow reduces t as trend does, taking what u holds as computed.
func trendRow(c *common, t *trace.Trace, path string, u *trend.Reuse) (TrendRow, error) {
	r, err := trend.SummarizeReusing(t, path, u)
	if err != nil {
		return TrendRow{}, err
	}
	row := TrendRow{TraceID: c.id, Path: path, StartNs: r.StartNs, WallClock: r.HasClock,
		GPUModels: append([]string{}, r.Env.GPUModels...), Devices: int64(r.Env.Devices), WorldSize: r.Env.WorldSize,
		Rank: r.Env.Rank, Era: r.Env.Era, EnvSteps: int64(r.Env.Steps), Shapes: r.Env.Shapes, Stacks: r.Env.Stacks,
		Memory: r.Env.Memory, Steps: int64(r.Steps), Metric: []string{}, Unit: []string{}, Value: []float64{}}
	names := make([]string, 0, len(r.Values))
	for k := range r.Values {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		row.Metric = append(row.Metric, k)
		row.Unit = append(row.Unit, r.Units[k])
		row.Value = append(row.Value, r.Values[k])
	}
	return row, nil
}
