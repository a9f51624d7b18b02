// Package bitset is a set of small non-negative integers (event indices,
// record indices, string ids) as one bit each: what the analyses keep per
// event where a map of them was most of their time.
package bitset

import "math/bits"

// Set holds the integers below its size (New).
type Set []uint64

// New is an empty set for the integers 0 to n-1.
func New(n int) Set { return make(Set, (n+63)/64) }

// Add adds i.
func (s Set) Add(i int) { s[i>>6] |= 1 << (i & 63) }

// Has reports whether i is in s.
func (s Set) Has(i int) bool { return s[i>>6]&(1<<(i&63)) != 0 }

// Union adds to s every integer of o (a set of the same size).
func (s Set) Union(o Set) {
	for w := range s {
		s[w] |= o[w]
	}
}

// Len is how many integers s holds.
func (s Set) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}
