package export

// RankRow is one trace as tracetab ranks reduces it (ranks.Summary): its
// place in the job, its steps, and its device lane's figures. With the
// trace's collectives rows it is all that ranks --dataset needs to give
// the JSON that ranks gives over the trace itself. Times are ns; origin_ns
// is the trace's origin on its own clock (absolute: Unix ns when the
// trace has wall-clock times), every other time an offset from it.
type RankRow struct {
	TraceID   string  `parquet:"trace_id"`
	Rank      *int64  `parquet:"rank,optional"` // distributedInfo's rank; null when the trace names none
	Path      string  `parquet:"path"`
	WorldSize *int64  `parquet:"world_size,optional"`
	Backend   *string `parquet:"backend,optional"`
	Device    *string `parquet:"device_name,optional"`
	OriginNs  int64   `parquet:"origin_ns"`
	// WallClock: the times are wall-clock times, comparable across hosts.
	WallClock    bool    `parquet:"wall_clock"`
	Steps        []int64 `parquet:"steps,list"`
	StepStartNs  []int64 `parquet:"step_start_ns,list"`
	StepCPUNs    []int64 `parquet:"step_cpu_ns,list"`
	MedianStepNs *int64  `parquet:"median_step_ns,optional"`
	GPU          bool    `parquet:"gpu"`
	// Window and the figures after it are null without a GPU lane.
	Window           *string `parquet:"window,optional"`
	WindowNs         *int64  `parquet:"window_ns,optional"`
	ComputeNs        *int64  `parquet:"compute_ns,optional"`
	CommNs           *int64  `parquet:"communication_ns,optional"`
	ExposedCommNs    *int64  `parquet:"exposed_communication_ns,optional"`
	IdleNs           *int64  `parquet:"idle_ns,optional"`
	OverlapNs        *int64  `parquet:"comm_overlap_ns,optional"`
	CommKernels      int64   `parquet:"communication_kernels"`
	SizedOps         int64   `parquet:"sized_ops"`
	SizedOpsNoKernel int64   `parquet:"sized_ops_without_kernel"`
}

// CollectiveRow is one communication kernel of a trace (every kernel
// tracetab ranks matches across ranks), in start order. Times are ns from
// the trace's origin (RankRow.OriginNs), on the rank's own clock.
type CollectiveRow struct {
	TraceID string `parquet:"trace_id,dict"`
	Rank    *int64 `parquet:"rank,optional"`
	Kernel  int64  `parquet:"kernel"` // its place among the trace's communication kernels, in start order, from 0
	Step    *int64 `parquet:"step,optional"`
	// Occurrence is the k-th kernel of this name in its process group (a
	// missing one is a group) and step (or the whole trace), from 1.
	Occurrence int64   `parquet:"occurrence"`
	Name       string  `parquet:"name,dict"`
	PG         *string `parquet:"process_group,optional,dict"`
	Seq        *int64  `parquet:"seq,optional"`
	LaunchNs   *int64  `parquet:"launch_ns,optional"`
	StartNs    int64   `parquet:"start_ns"`
	EndNs      int64   `parquet:"end_ns"`
	DurNs      int64   `parquet:"dur_ns"`
	Collective *string `parquet:"collective,optional,dict"` // "Collective name" as torch writes it
	Kind       *string `parquet:"kind,optional,dict"`       // all-reduce, all-gather, ... (nccl-tests' kinds)
	Dtype      *string `parquet:"dtype,optional,dict"`
	InNelems   *int64  `parquet:"in_nelems,optional"`
	OutNelems  *int64  `parquet:"out_nelems,optional"`
	GroupSize  *int64  `parquet:"group_size,optional"`
	Bytes      *int64  `parquet:"bytes,optional"` // nccl-tests' size S; null when the trace lacks it
}
