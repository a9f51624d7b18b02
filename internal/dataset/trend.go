package dataset

import (
	"fmt"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/trend"
)

// Trend are the trend.Run of every trace in the trend datasets under root,
// each Run's Path the path exported (trend orders them itself). A trace
// exported more than once (the same trace id) is read once, with a note.
type Trend struct {
	Runs  []*trend.Run
	Notes []string
}

// ReadTrend reads them (Reading{}.Trend).
func ReadTrend(root string) (*Trend, error) { return readTrend(root, Reading{}) }

func readTrend(root string, rd Reading) (*Trend, error) {
	files, err := Files(root, export.DatasetTrend)
	if err != nil {
		return nil, err
	}
	if len(files[export.DatasetTrend]) == 0 {
		return nil, &EmptyError{Root: root, Dataset: export.DatasetTrend}
	}
	out := &Trend{}
	seen := map[string]string{}
	err = eachFile(rd, files[export.DatasetTrend], export.DatasetTrend, func(path string, rows []export.TrendRow) error {
		for _, r := range rows {
			if o, dup := seen[r.TraceID]; dup {
				out.Notes = append(out.Notes, fmt.Sprintf("%s: trace %s (%s) is also in %s: read once", path, r.TraceID, r.Path, o))
				continue
			}
			seen[r.TraceID] = path
			run, err := RunOf(r)
			if err != nil {
				return &Error{Path: path, Msg: err.Error()}
			}
			out.Runs = append(out.Runs, run)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RunOf rebuilds the trend.Run the row was made of.
func RunOf(r export.TrendRow) (*trend.Run, error) {
	if len(r.Metric) != len(r.Unit) || len(r.Metric) != len(r.Value) {
		return nil, fmt.Errorf("trace %s has %d metrics, %d units and %d values: not written by tracetab export",
			r.TraceID, len(r.Metric), len(r.Unit), len(r.Value))
	}
	run := &trend.Run{Path: r.Path, StartNs: r.StartNs, HasClock: r.WallClock, Steps: int(r.Steps),
		Env: diff.Env{GPUModels: r.GPUModels, Devices: int(r.Devices), WorldSize: r.WorldSize, Rank: r.Rank,
			Era: r.Era, Steps: int(r.EnvSteps), Shapes: r.Shapes, Stacks: r.Stacks, Memory: r.Memory},
		Values: map[string]float64{}, Units: map[string]string{}}
	if len(run.Env.GPUModels) == 0 {
		run.Env.GPUModels = nil
	}
	for i, m := range r.Metric {
		run.Values[m], run.Units[m] = r.Value[i], r.Unit[i]
	}
	return run, nil
}
