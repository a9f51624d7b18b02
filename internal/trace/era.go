package trace

// Era names the generation of the exporter that wrote the trace, guessed
// from what the file contains (see docs: torch-profiler-semantics §1.7).
type Era struct {
	Tag   string // legacy, K1, K2a, K2b-early, K2b, K3a, K3
	Torch string // the torch versions that write this form
	Notes string
}

// Era guesses the exporter generation.
func (t *Trace) Era() Era {
	has := func(c string) bool { return t.CatCounts[c] > 0 }
	switch {
	case t.LegacyExport:
		return Era{"legacy", "torch without Kineto (e.g. Debian 1.13)", "EventList exporter: integer us relative to the start, no categories, no args"}
	case (has("Operator") || has("Runtime") || has("Kernel")) && !has("cpu_op"):
		return Era{"K1", "1.8-1.9 (2021)", "capitalised categories; lower-case \"external id\" links launches to ops"}
	case t.LowerExtID || has("gpu_user_Annotation"):
		return Era{"K2a", "1.10-1.11", "cpu_op with capitalised device categories"}
	case t.HasBase || (t.FractionalTs && t.TraceStart < 1e17):
		return Era{"K3", ">= 2.4", "ns timestamps relative to baseTimeNanoseconds"}
	case t.FractionalTs:
		return Era{"K3a", ">= 2.4 (absolute form)", "epoch timestamps with ns decimals"}
	case t.EvIdx:
		return Era{"K2b", "1.13-2.3", "integer us timestamps; External id on kernels is the CUPTI correlation"}
	}
	return Era{"K2b-early", "1.12 or earlier", "integer us timestamps"}
}
