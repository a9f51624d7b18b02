package table

import "github.com/tracetab/tracetab/internal/trace"

// KernelDurations lists, per device op name (as KernelView groups them:
// kernels, memcpys and memsets; keep, when set, selects which count), the
// durations in ns in file order: what a per-kernel histogram bins.
func KernelDurations(t *trace.Trace, keep func(i int) bool) map[string][]int64 {
	// a list per name, found by the name's string id (a map append per
	// device op was most of report's time here)
	slot := make([]int32, len(t.Strings))
	var ids []trace.StrID
	var lists [][]int64
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() || (keep != nil && !keep(i)) {
			continue
		}
		k := slot[e.Name] - 1
		if k < 0 {
			k = int32(len(lists))
			slot[e.Name] = k + 1
			ids = append(ids, e.Name)
			lists = append(lists, nil)
		}
		lists[k] = append(lists[k], e.Dur)
	}
	out := make(map[string][]int64, len(lists))
	for k, id := range ids {
		out[t.Str(id)] = lists[k]
	}
	return out
}

// StepKernelDurations lists, per profiler step number, the durations of
// the device ops (kernels, memcpys and memsets) launched inside it, the
// step each belongs to as the step view counts it (the step holding its
// launch call's start). Each op's step is found by a cursor over the
// steps (launches come mostly in time order) and its list by the step's
// slot (windows of one number share one).
func StepKernelDurations(t *trace.Trace) map[int64][]int64 {
	steps := t.StepWindows()
	slotOf := make([]int, len(steps)) // window -> list
	var nums []int64
	seen := map[int64]int{}
	for k, s := range steps {
		j, ok := seen[s.N]
		if !ok {
			j = len(nums)
			seen[s.N] = j
			nums = append(nums, s.N)
		}
		slotOf[k] = j
	}
	lists := make([][]int64, len(nums))
	cur := trace.StepCursor{Steps: steps}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		if !e.Kind.IsDeviceWork() {
			continue
		}
		if k := cur.At(t.LaunchTime(i)); k >= 0 {
			j := slotOf[k]
			lists[j] = append(lists[j], e.Dur)
		}
	}
	out := map[int64][]int64{}
	for j, d := range lists {
		if len(d) > 0 {
			out[nums[j]] = d
		}
	}
	return out
}
