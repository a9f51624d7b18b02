//go:build !race

package gaps

const raceOn = false
