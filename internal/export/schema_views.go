package export

// The datasets of schema 4: the views table --by module, --by category
// and --by sequence give, and each stream's launch queue (gaps JSON
// streams[].queue).
const (
	DatasetModules    = "modules"
	DatasetCategories = "categories"
	DatasetSequences  = "sequences"
	DatasetQueues     = "queues"
)

// ModuleRow is one node of the module tree (table --by module, every
// level): one module at one path. The device figures are null for a
// trace without device work (as in the view's JSON).
type ModuleRow struct {
	TraceID       string  `parquet:"trace_id,dict"`
	Rank          *int64  `parquet:"rank,optional"`
	Node          int32   `parquet:"node"` // its place in tree order (each node before its subtree), from 0
	Path          string  `parquet:"path,dict"`
	Name          string  `parquet:"name,dict"`
	Parent        *string `parquet:"parent,optional,dict"` // the parent's path; null at the top
	Depth         int32   `parquet:"depth"`                // 1 at the top
	Occurrences   int64   `parquet:"occurrences"`
	HostTotalNs   int64   `parquet:"host_total_ns"`
	HostSelfNs    int64   `parquet:"host_self_ns"`
	DeviceTotalNs *int64  `parquet:"device_total_ns,optional"`
	DeviceSelfNs  *int64  `parquet:"device_self_ns,optional"`
	DeviceOps     int64   `parquet:"device_ops"`
}

// CategoryRow is one category's device work (table --by category) over
// the whole trace (step null) or one step: every category, in the view's
// order, zero rows included.
type CategoryRow struct {
	TraceID  string   `parquet:"trace_id,dict"`
	Rank     *int64   `parquet:"rank,optional"`
	Step     *int64   `parquet:"step,optional"`
	Category string   `parquet:"category,dict"`
	DeviceNs int64    `parquet:"device_ns"`
	Pct      *float64 `parquet:"pct,optional"` // of the trace's (or step's) device time; null when it has none
	Kernels  int64    `parquet:"kernels"`
}

// SequenceRow is one of the top sequences of device ops (table --by
// sequence with its defaults: roots the top-level ops, at least
// SequenceMinLen device ops, by device time, the first SequenceTop).
type SequenceRow struct {
	TraceID  string   `parquet:"trace_id,dict"`
	Rank     *int64   `parquet:"rank,optional"`
	Seq      int32    `parquet:"sequence"` // 1 for the first
	Op       string   `parquet:"op,dict"`
	Device   int32    `parquet:"device"`
	Stream   int64    `parquet:"stream"`
	Kernels  []string `parquet:"kernels,list"` // the device ops' full names, in time order
	Ops      int32    `parquet:"ops"`
	Count    int64    `parquet:"count"`
	DeviceNs int64    `parquet:"device_ns"`
	MeanNs   int64    `parquet:"mean_ns"`
	HostNs   int64    `parquet:"host_ns"`
}

// SequenceMinLen and SequenceTop are table --by sequence's defaults
// (--min-len, --top), which the sequences dataset keeps.
const (
	SequenceMinLen = 3
	SequenceTop    = 10
)

// QueueRow is the launch queue of one stream whose ops have their launch
// calls in the trace (gaps --format json, streams[].queue where not
// null). Times are offsets from the trace's origin.
type QueueRow struct {
	TraceID     string `parquet:"trace_id,dict"`
	Rank        *int64 `parquet:"rank,optional"`
	Device      int32  `parquet:"device"`
	Stream      int64  `parquet:"stream"`
	Ops         int64  `parquet:"ops"`
	StartNs     int64  `parquet:"start_ns"`
	EndNs       int64  `parquet:"end_ns"`
	MaxLen      int64  `parquet:"max_length_ops"`
	MedianLen   int64  `parquet:"median_length_ops"`
	MinLen      int64  `parquet:"min_length_ops"`
	TimeAtMaxNs int64  `parquet:"time_at_max_ns"`
	MaxAtNs     int64  `parquet:"max_at_ns"`
	Limit       int64  `parquet:"limit_ops"`
	FullNs      int64  `parquet:"full_ns"`
	EarlyOps    int64  `parquet:"early_ops"`
}
