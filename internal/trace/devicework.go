package trace

// HasDeviceWork reports whether the trace holds any real device work: a
// kernel, memcpy or memset (Kind.IsDeviceWork), whatever lane or
// category spelling it came with.
func (t *Trace) HasDeviceWork() bool {
	for _, c := range t.Events.Chunks() {
		for k := range c {
			if c[k].Kind.IsDeviceWork() {
				return true
			}
		}
	}
	return false
}
