package export

// Schema names the version of every dataset's columns (docs/schema.md).
// It is written in each file's key-value metadata (key "tracetab.schema"),
// in the traces dataset and in DIR/_tracetab_export.json; a column renamed,
// removed or changing meaning bumps it, and an export refuses to add files
// of another version to a directory.
const Schema = "tracetab.parquet/4"

// SchemaVersion is Schema's number. 4 added the modules, categories,
// sequences and queues datasets and the kernels' efficiency columns; the
// columns of every dataset of 3 are unchanged but the kernels', so a
// reader takes files of ReadableSchemas whose columns are its own.
const SchemaVersion = 4

// The datasets, one directory each under the export's DIR.
const (
	DatasetEvents  = "events"
	DatasetOps     = "ops"
	DatasetKernels = "kernels"
	DatasetSteps   = "steps"
	DatasetGaps    = "gaps"
	DatasetMemory  = "memory"
	DatasetTraces  = "traces"
	// DatasetRanks and DatasetCollectives are tracetab ranks' summary of
	// each trace (one row) and its communication kernels (schema 2).
	DatasetRanks       = "ranks"
	DatasetCollectives = "collectives"
)

// Datasets lists them in the order they are written (traces last: a trace
// listed there has all its other files).
var Datasets = []string{DatasetEvents, DatasetOps, DatasetKernels, DatasetSteps, DatasetGaps, DatasetMemory, DatasetCollectives, DatasetRanks, DatasetTrend,
	DatasetModules, DatasetCategories, DatasetSequences, DatasetQueues, DatasetTraces}

// ReadableSchemas are the versions whose files ranks --dataset and trend
// --dataset read (internal/dataset, which still checks each file's
// columns): this one, and 3, whose ranks, collectives and trend columns
// are those of 4.
var ReadableSchemas = []string{Schema, "tracetab.parquet/3"}

// EventRow is one complete ("ph":"X") event. Times are ns; start_ns is an
// offset from the trace's origin (the profiler's Trace event, else the
// earliest event), as every offset tracetab prints.
type EventRow struct {
	TraceID    string  `parquet:"trace_id,dict"`
	Rank       *int64  `parquet:"rank,optional"`
	Event      int64   `parquet:"event,delta"`
	Category   string  `parquet:"category,dict"`
	Name       string  `parquet:"name,dict"`
	Pid        *int64  `parquet:"pid,optional"`
	PidText    *string `parquet:"pid_text,optional,dict"`
	Tid        *int64  `parquet:"tid,optional"`
	TidText    *string `parquet:"tid_text,optional,dict"`
	Device     *int32  `parquet:"device,optional"`
	Stream     *int64  `parquet:"stream,optional"`
	StartNs    int64   `parquet:"start_ns"`
	DurNs      int64   `parquet:"dur_ns"`
	Corr       *int64  `parquet:"correlation,optional"`
	ExternalID *int64  `parquet:"external_id,optional"`
	Step       *int64  `parquet:"step,optional"`
	Parent     *int64  `parquet:"parent,optional"`
	LaunchCall *int64  `parquet:"launch_call,optional"`
	LaunchOp   *int64  `parquet:"launch_op,optional"`
	Unfinished bool    `parquet:"unfinished"`
	InputDims  *string `parquet:"input_dims,optional,dict"`
	InputTypes *string `parquet:"input_types,optional,dict"`
	CallStack  *string `parquet:"call_stack,optional,dict"`
	GridX      *int32  `parquet:"grid_x,optional"`
	GridY      *int32  `parquet:"grid_y,optional"`
	GridZ      *int32  `parquet:"grid_z,optional"`
	BlockX     *int32  `parquet:"block_x,optional"`
	BlockY     *int32  `parquet:"block_y,optional"`
	BlockZ     *int32  `parquet:"block_z,optional"`
	Registers  *int32  `parquet:"registers_per_thread,optional"`
	SharedMem  *int64  `parquet:"shared_memory_bytes,optional"`
	Bytes      *int64  `parquet:"bytes,optional"`
	PG         *string `parquet:"process_group,optional,dict"`
	Seq        *int64  `parquet:"seq,optional"`
}

// OpRow is one row of torch's key_averages() table (tracetab table, by the
// recording torch's rules), over the whole trace (step null) or one step.
// Times are torch's float microsecond sums rounded once to ns, as
// tracetab table --format json gives them.
type OpRow struct {
	TraceID          string   `parquet:"trace_id,dict"`
	Rank             *int64   `parquet:"rank,optional"`
	Step             *int64   `parquet:"step,optional"`
	Row              int32    `parquet:"table_row"`
	Torch            string   `parquet:"torch,dict"`
	Name             string   `parquet:"name,dict"`
	DeviceOp         bool     `parquet:"device_op"`
	UserAnnotation   bool     `parquet:"user_annotation"`
	TopLevel         bool     `parquet:"top_level"`
	Calls            int64    `parquet:"calls"`
	SelfCPUNs        int64    `parquet:"self_cpu_ns"`
	CPUTotalNs       int64    `parquet:"cpu_total_ns"`
	CPUAvgNs         int64    `parquet:"cpu_avg_ns"`
	SelfCUDANs       int64    `parquet:"self_cuda_ns"`
	CUDATotalNs      int64    `parquet:"cuda_total_ns"`
	CUDAAvgNs        int64    `parquet:"cuda_avg_ns"`
	SelfCPUPct       *float64 `parquet:"self_cpu_pct,optional"`
	SelfCUDAPct      *float64 `parquet:"self_cuda_pct,optional"`
	CPUMemBytes      *int64   `parquet:"cpu_mem_bytes,optional"`
	SelfCPUMemBytes  *int64   `parquet:"self_cpu_mem_bytes,optional"`
	CUDAMemBytes     *int64   `parquet:"cuda_mem_bytes,optional"`
	SelfCUDAMemBytes *int64   `parquet:"self_cuda_mem_bytes,optional"`
}

// KernelRow is one device op name of tracetab table --by kernel, over the
// whole trace (step null) or the device ops launched in one step. The
// efficiency columns (schema 4) are those of the view's JSON: null for a
// memcpy or memset, a mean null when no call carries its arg.
type KernelRow struct {
	TraceID  string  `parquet:"trace_id,dict"`
	Rank     *int64  `parquet:"rank,optional"`
	Step     *int64  `parquet:"step,optional"`
	Name     string  `parquet:"name,dict"`
	Category string  `parquet:"category,dict"`
	Class    string  `parquet:"class,dict"`
	Calls    int64   `parquet:"calls"`
	TotalNs  int64   `parquet:"total_ns"`
	MinNs    int64   `parquet:"min_ns"`
	MaxNs    int64   `parquet:"max_ns"`
	MeanNs   float64 `parquet:"mean_ns"`
	MedianNs int64   `parquet:"median_ns"`
	StddevNs float64 `parquet:"stddev_ns"`
	GPUPct   float64 `parquet:"gpu_time_pct"`
	// kernels only (kerneleff)
	TensorCores       *bool    `parquet:"tensor_cores_used,optional"`
	MeanBlocksPerSM   *float64 `parquet:"mean_blocks_per_sm,optional"`
	MeanOccupancyPct  *float64 `parquet:"mean_est_achieved_occupancy_pct,optional"`
	LaunchOpCalls     *int64   `parquet:"launch_op_calls,optional"`
	TCEligibleOpCalls *int64   `parquet:"tc_eligible_op_calls,optional"`
}

// StepRow is one ProfilerStep#N: its windows, the device work launched in
// it, and the step-time breakdown of the TensorBoard plugin's Overview
// (null where the breakdown leaves the step out).
type StepRow struct {
	TraceID        string `parquet:"trace_id,dict"`
	Rank           *int64 `parquet:"rank,optional"`
	Step           int64  `parquet:"step"`
	StartNs        int64  `parquet:"start_ns"`
	CPUNs          int64  `parquet:"cpu_ns"`
	Kernels        int64  `parquet:"kernels"`
	DeviceOps      int64  `parquet:"device_ops"`
	GPUBusyNs      int64  `parquet:"gpu_busy_ns"`
	GPUWindowNs    int64  `parquet:"gpu_window_ns"`
	GPUIdleNs      int64  `parquet:"gpu_idle_ns"`
	LargestGapNs   int64  `parquet:"largest_gap_ns"`
	Cold           bool   `parquet:"cold"`
	BdStartNs      *int64 `parquet:"breakdown_start_ns,optional"`
	BdTotalNs      *int64 `parquet:"breakdown_total_ns,optional"`
	BdExtendedByNs *int64 `parquet:"extended_by_ns,optional"`
	KernelNs       *int64 `parquet:"kernel_ns,optional"`
	MemcpyNs       *int64 `parquet:"memcpy_ns,optional"`
	MemsetNs       *int64 `parquet:"memset_ns,optional"`
	RuntimeNs      *int64 `parquet:"runtime_ns,optional"`
	DataLoaderNs   *int64 `parquet:"dataloader_ns,optional"`
	CPUExecNs      *int64 `parquet:"cpu_exec_ns,optional"`
	OtherNs        *int64 `parquet:"other_ns,optional"`
}

// GapRow is one idle stretch of a GPU (tracetab gaps, every gap listed).
type GapRow struct {
	TraceID     string   `parquet:"trace_id,dict"`
	Rank        *int64   `parquet:"rank,optional"`
	Device      int32    `parquet:"device"`
	StartNs     int64    `parquet:"start_ns"`
	LengthNs    int64    `parquet:"length_ns"`
	Edge        string   `parquet:"edge,dict"`
	IdleKind    *string  `parquet:"idle_kind,optional,dict"`
	StepBefore  *int64   `parquet:"step_before,optional"`
	StepAfter   *int64   `parquet:"step_after,optional"`
	Before      *string  `parquet:"before,optional,dict"`
	After       *string  `parquet:"after,optional,dict"`
	Cause       string   `parquet:"cause,dict"`
	CausePct    float64  `parquet:"cause_pct"`
	Activity    *string  `parquet:"activity,optional,dict"`
	ActivityPct *float64 `parquet:"activity_pct,optional"`
	Note        *string  `parquet:"note,optional,dict"`
	LaunchLagNs int64    `parquet:"launch_lag_ns"`
	InputNs     int64    `parquet:"input_ns"`
	CPUNs       int64    `parquet:"cpu_ns"`
	SyncNs      int64    `parquet:"sync_ns"`
	LaunchNs    int64    `parquet:"launch_ns"`
	ProfilerNs  int64    `parquet:"profiler_ns"`
	UntracedNs  int64    `parquet:"untraced_ns"`
	DependNs    int64    `parquet:"dependency_ns"`
	DispatchNs  int64    `parquet:"dispatch_ns"`
	QueuedNs    int64    `parquet:"queued_ns"`
	StartupNs   int64    `parquet:"startup_ns"`
	// The next op's launch call and whether it was running when the GPU
	// went idle (a blocking launch).
	LaunchCall     *string `parquet:"launch_call,optional,dict"`
	LaunchCallNs   *int64  `parquet:"launch_call_ns,optional"`
	BlockingLaunch bool    `parquet:"blocking_launch"`
}

// MemoryRow is one [memory] or [OutOfMemory] record (profile_memory=True).
type MemoryRow struct {
	TraceID       string  `parquet:"trace_id,dict"`
	Rank          *int64  `parquet:"rank,optional"`
	Record        int64   `parquet:"record,delta"`
	StartNs       int64   `parquet:"start_ns,delta"`
	Pid           *int64  `parquet:"pid,optional"`
	Tid           *int64  `parquet:"tid,optional"`
	DeviceType    int32   `parquet:"device_type"`
	DeviceKind    string  `parquet:"device_kind,dict"`
	DeviceID      int32   `parquet:"device_id"`
	Addr          *int64  `parquet:"addr,optional"`
	Bytes         int64   `parquet:"bytes"`
	TotalAlloc    int64   `parquet:"total_allocated_bytes,delta"`
	TotalReserved *int64  `parquet:"total_reserved_bytes,optional"`
	OOM           bool    `parquet:"out_of_memory"`
	Step          *int64  `parquet:"step,optional"`
	Op            *int64  `parquet:"op,optional"`
	OpName        *string `parquet:"op_name,optional,dict"`
}

// TraceRow is one input file.
type TraceRow struct {
	TraceID       string   `parquet:"trace_id"`
	Path          string   `parquet:"path"`
	FileBytes     int64    `parquet:"file_bytes"`
	JSONBytes     int64    `parquet:"json_bytes"`
	Gzip          bool     `parquet:"gzip"`
	SHA256        string   `parquet:"sha256"`
	Rank          *int64   `parquet:"rank,optional"`
	WorldSize     *int64   `parquet:"world_size,optional"`
	Backend       *string  `parquet:"backend,optional"`
	Devices       []string `parquet:"devices,list"`
	Era           string   `parquet:"era"`
	TorchHint     string   `parquet:"torch_hint"`
	TorchAssumed  string   `parquet:"torch_assumed"`
	Origin        string   `parquet:"origin"`
	OriginUnixNs  *int64   `parquet:"origin_unix_ns,optional"`
	Date          *string  `parquet:"date,optional"`
	SpanNs        int64    `parquet:"span_ns"`
	Events        int64    `parquet:"events"`
	Steps         int64    `parquet:"steps"`
	DeviceOps     int64    `parquet:"device_ops"`
	MemoryRecords int64    `parquet:"memory_records"`
	Warnings      []string `parquet:"warnings,list"`
	SchemaVersion int32    `parquet:"schema_version"`
	Tracetab      string   `parquet:"tracetab_version"`
}
