package kerneleff

import "github.com/tracetab/tracetab/internal/trace"

// Means accumulates one kernel name's duration-weighted means of blocks
// per SM and estimated achieved occupancy over its calls. A call without
// the arg counts as 0, as in the plugin; a name none of whose calls
// carries an arg has no mean of it.
type Means struct {
	durNs          int64
	blocksW, occW  float64 // sum of value x duration
	hasBlk, hasOcc bool
}

// Add counts one call of dur ns with its Aux (nil: no args).
func (m *Means) Add(durNs int64, a *trace.Aux) {
	m.durNs += durNs
	if a == nil {
		return
	}
	if a.BlocksPerSM != trace.NoValue {
		m.hasBlk = true
		m.blocksW += float64(a.BlocksPerSM) / trace.Nano * float64(durNs)
	}
	if a.OccupancyPct != trace.NoValue {
		m.hasOcc = true
		m.occW += float64(a.OccupancyPct) / trace.Nano * float64(durNs)
	}
}

// BlocksPerSM is the weighted mean blocks per SM; ok is false when no
// call carried the arg. Calls that all last 0 ns give 0 (the plugin's
// answer to a zero weight).
func (m *Means) BlocksPerSM() (v float64, ok bool) { return m.mean(m.blocksW, m.hasBlk) }

// OccupancyPct is the weighted mean estimated achieved occupancy in
// percent; ok as for BlocksPerSM.
func (m *Means) OccupancyPct() (v float64, ok bool) { return m.mean(m.occW, m.hasOcc) }

func (m *Means) mean(w float64, has bool) (float64, bool) {
	if !has {
		return 0, false
	}
	if m.durNs == 0 {
		return 0, true
	}
	return w / float64(m.durNs), true
}

// HasArgs reports whether any kernel of t carries either arg.
func HasArgs(t *trace.Trace) bool {
	for i := 0; i < t.Aux.Len(); i++ {
		if a := t.Aux.At(i); a.BlocksPerSM != trace.NoValue || a.OccupancyPct != trace.NoValue {
			return true
		}
	}
	return false
}
