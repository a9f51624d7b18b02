//go:build !race

package diff

const raceOn = false
