//go:build race

package gaps

// raceOn: the race detector's instrumentation allocates on its own, so the
// allocation bounds do not hold under it.
const raceOn = true
