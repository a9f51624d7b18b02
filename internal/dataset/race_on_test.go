//go:build race

package dataset

// raceOn: the race detector allocates on its own; allocation bounds are
// not checked under it.
const raceOn = true
