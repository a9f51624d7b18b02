// Package editdist measures how far apart two names are, for the "did you
// mean" suggestions: the optimal-string-alignment distance (Levenshtein
// where a swap of two adjacent runes counts one edit, so "srot" is 1 from
// "sort"), over runes.
package editdist

// Distance is the edit distance of a and b.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	return within(ra, rb, max(len(ra), len(rb)))
}

// Within is the edit distance of a and b, or limit+1 when it exceeds
// limit: only a band of width 2*limit+1 around the diagonal is computed,
// so it takes O(len*limit).
func Within(a, b string, limit int) int {
	return within([]rune(a), []rune(b), max(limit, 0))
}

func within(a, b []rune, limit int) int {
	if abs(len(a)-len(b)) > limit {
		return limit + 1
	}
	const inf = 1 << 30
	n := len(b)
	// rows i-2, i-1 and i of the table; cells outside the band are inf
	pp, prev, cur := make([]int, n+1), make([]int, n+1), make([]int, n+1)
	for j := range prev {
		pp[j] = inf
		prev[j] = j
		if j > limit {
			prev[j] = inf
		}
	}
	bestPrev := 0 // the least cell of row i-1
	for i := 1; i <= len(a); i++ {
		for j := range cur {
			cur[j] = inf
		}
		if i <= limit {
			cur[0] = i
		}
		best := cur[0]
		for j := max(1, i-limit); j <= min(n, i+limit); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c = min(c, pp[j-2]+1)
			}
			cur[j] = c
			best = min(best, c)
		}
		// a cell is at least the least of the row above or, by a swap,
		// one more than the least of the row above that: once two rows
		// in a row exceed limit, every later one does
		if best > limit && bestPrev > limit {
			return limit + 1
		}
		bestPrev = best
		pp, prev, cur = prev, cur, pp
	}
	if prev[n] > limit {
		return limit + 1
	}
	return prev[n]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
