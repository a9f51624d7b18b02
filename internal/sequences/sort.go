package sequences

import (
	"cmp"
	"slices"
	"strings"
)

// Key is what the sequences are sorted by.
type Key uint8

// The sort keys.
const (
	KeyDevice Key = iota // total device time, most first (the default)
	KeyCount             // occurrences, most first (HTA's order)
)

var keyNames = []string{"device", "count"}

func (k Key) String() string { return keyNames[k] }

// SortKeys lists the --sort values of table --by sequence.
func SortKeys() []string { return slices.Clone(keyNames) }

// ParseKey reads a --sort value; "" is KeyDevice.
func ParseKey(s string) (Key, bool) {
	if s == "" {
		return KeyDevice, true
	}
	i := slices.Index(keyNames, s)
	return Key(max(i, 0)), i >= 0
}

// sortSequences orders by the key, then by the other figure, then by the
// pattern text (root name and kernel names, HTA's tie-break), then by
// device and stream, so the order is total.
func sortSequences(s []Sequence, k Key) {
	slices.SortStableFunc(s, func(a, b Sequence) int {
		first, second := cmp.Compare(b.DeviceNs, a.DeviceNs), cmp.Compare(b.Count, a.Count)
		if k == KeyCount {
			first, second = second, first
		}
		if first != 0 {
			return first
		}
		if second != 0 {
			return second
		}
		if c := strings.Compare(a.Pattern(), b.Pattern()); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Device, b.Device); c != 0 {
			return c
		}
		return cmp.Compare(a.Stream, b.Stream)
	})
}

// Pattern is HTA's text of a sequence: the root name and the device op
// names joined by "|".
func (s *Sequence) Pattern() string {
	return s.Op + "|" + strings.Join(s.Kernels, "|")
}
