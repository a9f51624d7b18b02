//go:build race

package diff

// raceOn: the race detector changes what allocates (make test's race
// stage runs this package again under it), so allocation bounds are not
// held there.
const raceOn = true
