//go:build !race

package dataset

const raceOn = false
