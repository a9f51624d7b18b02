package diff

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/trace"
)

// Env is what makes two traces comparable: the machine, the job's place in
// a distributed run, the exporter, and what was recorded.
type Env struct {
	GPUModels []string // distinct names of the devices that ran work (deviceProperties)
	Devices   int      // devices with a lane in the trace
	WorldSize int64    // -1 when the trace has no distributedInfo
	Rank      int64
	Era       string
	Steps     int
	Shapes    bool
	Stacks    bool
	Memory    bool
}

// EnvOf reads the environment of a trace.
func EnvOf(t *trace.Trace) Env {
	e := Env{WorldSize: -1, Rank: -1, Era: t.Era().Tag, Steps: len(t.StepWindows()),
		Shapes: table.HasShapes(t), Stacks: table.HasStacks(t), Memory: len(t.Mem) > 0}
	if t.Dist.Present {
		e.WorldSize, e.Rank = t.Dist.WorldSize, t.Dist.Rank
	}
	devs := map[int]bool{}
	for _, tr := range t.Tracks {
		if tr.Kind == trace.TrackDevice {
			devs[tr.Device] = true
		}
	}
	e.Devices = len(devs)
	for _, d := range t.Devices {
		if (len(devs) == 0 || devs[d.ID]) && d.Name != "" && !slices.Contains(e.GPUModels, d.Name) {
			e.GPUModels = append(e.GPUModels, d.Name)
		}
	}
	slices.Sort(e.GPUModels)
	return e
}

// Mismatch is one way two traces differ in environment.
type Mismatch struct {
	Field     string // gpu_model, devices, world_size, rank, era, steps, shapes, stacks, memory
	Base, New string // the values, as text
	BaseFile  string
	NewFile   string
}

func (e Env) fields() [][2]string {
	gpu := strings.Join(e.GPUModels, ", ")
	if gpu == "" {
		gpu = "none recorded"
	}
	num := func(v int64) string {
		if v < 0 {
			return "not recorded"
		}
		return strconv.FormatInt(v, 10)
	}
	yes := func(b bool) string {
		if b {
			return "recorded"
		}
		return "not recorded"
	}
	return [][2]string{{"gpu_model", gpu}, {"devices", strconv.Itoa(e.Devices)}, {"world_size", num(e.WorldSize)},
		{"rank", num(e.Rank)}, {"era", e.Era}, {"steps", strconv.Itoa(e.Steps)},
		{"shapes", yes(e.Shapes)}, {"stacks", yes(e.Stacks)}, {"memory", yes(e.Memory)}}
}

// CompareEnv lists how each trace differs from the first trace of base.
func CompareEnv(base, nw []TraceInfo) []Mismatch {
	if len(base) == 0 {
		return nil
	}
	ref := base[0]
	rf := ref.Env.fields()
	var out []Mismatch
	for _, o := range append(slices.Clone(base[1:]), nw...) {
		for k, f := range o.Env.fields() {
			if f[1] != rf[k][1] {
				out = append(out, Mismatch{Field: f[0], Base: rf[k][1], New: f[1], BaseFile: ref.File, NewFile: o.File})
			}
		}
	}
	return out
}

// MismatchLabel is a person's name for a mismatch field.
func MismatchLabel(field string) string {
	return map[string]string{"gpu_model": "GPU model", "devices": "device count", "world_size": "world size",
		"rank": "rank", "era": "exporter era", "steps": "step count", "shapes": "input shapes",
		"stacks": "call stacks", "memory": "memory events"}[field]
}
