package trace

// NewestTorch is the newest torch (major, minor) whose rules tracetab
// knows; traces of the ns era may come from any torch up to it.
var NewestTorch = [2]int{2, 14}

// Era names the generation of the exporter that wrote the trace, judged
// from what the file contains (docs: torch-profiler-semantics §1.7), and the
// range of torch versions that write that form.
type Era struct {
	Tag   string // legacy, K1, K2a, K2b-early, K2, K2b, K3a, K3
	Torch string // the torch versions that write this form, in plain words
	Notes string // what in the file shows it
	// Oldest and Newest bound the torch (major, minor) that recorded the
	// trace. Default is the version tracetab assumes when --torch is not
	// given: the newest of the range.
	Oldest, Newest [2]int
}

// Era judges the exporter generation. The order of the checks matters:
// the strongest evidence first.
func (t *Trace) Era() Era {
	has := func(c string) bool { return t.CatCounts[c] > 0 }
	capitalised := has("Operator") || has("Runtime") || has("Kernel") || has("Memcpy") || has("Memset")
	switch {
	case t.LegacyExport:
		return Era{"legacy", "any torch built without Kineto, e.g. Debian's 1.13",
			"EventList exporter: integer us relative to the start, no categories, no args", [2]int{1, 8}, NewestTorch}
	case t.HasBase:
		return Era{"K3", "torch 2.4 or later", "ns timestamps relative to baseTimeNanoseconds", [2]int{2, 4}, NewestTorch}
	case t.FractionalTs && t.TraceStart < 1e17:
		return Era{"K3", "torch 2.4 or later", "timestamps with ns decimals, relative to a base", [2]int{2, 4}, NewestTorch}
	case t.FractionalTs:
		return Era{"K3a", "torch 2.4 or later", "epoch timestamps with ns decimals (absolute form)", [2]int{2, 4}, NewestTorch}
	case capitalised && !has("cpu_op"):
		return Era{"K1", "torch 1.8 or 1.9, in 2021", "capitalised categories; lower-case \"external id\" links launches to ops", [2]int{1, 8}, [2]int{1, 9}}
	case t.LowerExtID || has("gpu_user_Annotation"):
		return Era{"K2a", "torch 1.10 or 1.11", "cpu_op with capitalised device categories or lower-case \"external id\"", [2]int{1, 10}, [2]int{1, 11}}
	case t.EvIdx:
		return Era{"K2b", "torch 1.13 to 2.3", "integer us timestamps; ops carry \"Ev Idx\"; External id on kernels is the CUPTI correlation", [2]int{1, 13}, [2]int{2, 3}}
	case has("cpu_op"):
		return Era{"K2b-early", "torch 1.10 to 1.12", "integer us timestamps; ops without \"Ev Idx\" (added in 1.13)", [2]int{1, 10}, [2]int{1, 12}}
	}
	return Era{"K2", "torch 1.10 to 2.3", "integer us timestamps and no ops to tell 1.12 from 1.13", [2]int{1, 10}, [2]int{2, 3}}
}
