package layout

import (
	"path/filepath"
	"strings"
)

// DistinctPaths shortens file paths to the part that tells them apart:
// the base names (the whole paths when two base names are equal); when one
// is wider than 32 columns, the prefix and suffix they all share are cut at
// a separator (_ . - /) and marked by "...". One path is its base name.
// The result is for people; JSON keeps the paths as given.
func DistinctPaths(paths []string) []string {
	out := make([]string, len(paths))
	if len(paths) == 0 {
		return out
	}
	names := make([]string, len(paths))
	seen := map[string]bool{}
	dup := false
	for i, p := range paths {
		names[i] = filepath.Base(p)
		dup = dup || seen[names[i]]
		seen[names[i]] = true
	}
	if dup {
		copy(names, paths)
	}
	long := 0
	for _, n := range names {
		long = max(long, Width(n))
	}
	if len(names) == 1 || long <= shortPath {
		return names
	}
	pre, suf := names[0], names[0]
	for _, n := range names[1:] {
		pre = commonPrefix(pre, n)
		suf = commonSuffix(suf, n)
	}
	// cut at a separator, so that what is left reads as whole words
	p := strings.LastIndexAny(pre, sepChars) + 1
	for i, n := range names {
		s := len(n) - len(suf)
		if s < p {
			s = p // the prefix and the suffix overlap (one name is inside another)
		}
		if k := strings.IndexAny(n[s:], sepChars); k >= 0 {
			s += k
		} else {
			s = len(n)
		}
		if len(n)-s < 4 && s < len(n) {
			s = len(n) // a short suffix costs more in dots than it saves
		}
		if p < 4 {
			p = 0
		}
		v := n[p:s]
		if v == "" {
			v = n
		}
		if p > 0 && v != n {
			v = "..." + v
		}
		if s < len(n) && v != n {
			v += "..."
		}
		out[i] = v
	}
	return out
}

const (
	sepChars  = "_.-/"
	shortPath = 32
)

func commonPrefix(a, b string) string {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return a[:i]
}

func commonSuffix(a, b string) string {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return a[len(a)-i:]
}
