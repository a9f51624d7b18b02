// Package names makes op and kernel names fit a column and stay distinct:
// middle-ellipsis truncation that keeps the distinguishing tail, a #2
// suffix for names that still collide, and Itanium C++ demangling.
package names

import (
	"strconv"
	"strings"

	"github.com/ianlancetaylor/demangle"

	"github.com/tracetab/tracetab/internal/textwidth"
)

// Ellipsis marks the cut in a truncated name (ASCII, so every terminal and
// CSV reader shows it the same).
const Ellipsis = "..."

// Truncate fits s into width columns (display width) by cutting its middle: the head says
// what the name is, the tail often what tells two names apart (template
// arguments, tile sizes, a Triton kernel's number). width <= 0 means no
// limit; a width too small for head, ellipsis and tail cuts the end.
func Truncate(s string, width int) string {
	if width <= 0 || textwidth.Width(s) <= width {
		return s
	}
	if width < len(Ellipsis)+2 {
		return textwidth.Head(s, width)
	}
	// the head gets half the columns left for the name; a wide character
	// that does not fit in it leaves its column to the tail
	keep := width - len(Ellipsis)
	head := textwidth.Head(s, (keep+1)/2)
	return head + Ellipsis + textwidth.Tail(s, keep-textwidth.Width(head))
}

// Column returns the names as a column of width columns shows them: each
// truncated by Truncate, and where two different names would still look
// the same, the second and later get "#2", "#3", ... in place of the end of
// their tail (still within width). Equal inputs stay equal.
func Column(in []string, width int) []string {
	out := make([]string, len(in))
	taken := map[string]bool{}    // shown names in use
	byOrig := map[string]string{} // original -> shown, so repeats agree
	for i, s := range in {
		shown, ok := byOrig[s]
		if !ok {
			shown = Truncate(s, width)
			if taken[shown] {
				shown = suffixed(s, width, taken)
			}
			taken[shown] = true
			byOrig[s] = shown
		}
		out[i] = shown
	}
	return out
}

// suffixed is Truncate(s) with "#k" at its end, fitting width, for the
// smallest k from 2 whose result is not taken.
func suffixed(s string, width int, taken map[string]bool) string {
	for k := 2; ; k++ {
		suf := "#" + strconv.Itoa(k)
		w := width
		if w > 0 {
			w -= len(suf)
		}
		v := Truncate(s, w) + suf
		if w > 0 && w < len(Ellipsis)+2 {
			v = suf // a column too narrow for anything else
		}
		if !taken[v] {
			return v
		}
	}
}

// IsMangled reports whether s is an Itanium C++ mangled name that the
// demangler understands.
func IsMangled(s string) bool {
	if !strings.HasPrefix(s, "_Z") {
		return false
	}
	_, err := demangle.ToString(s)
	return err == nil
}

// Demangle returns the C++ name s stands for when s is an Itanium mangled
// name (_Z...), and s itself otherwise or when it cannot be demangled.
func Demangle(s string) string {
	if !strings.HasPrefix(s, "_Z") {
		return s
	}
	d, err := demangle.ToString(s)
	if err != nil {
		return s
	}
	return d
}

// DemangleAll maps Demangle over names, demangling each distinct name once.
func DemangleAll(in []string) []string {
	out := make([]string, len(in))
	memo := map[string]string{}
	for i, s := range in {
		d, ok := memo[s]
		if !ok {
			d = Demangle(s)
			memo[s] = d
		}
		out[i] = d
	}
	return out
}

// DemangledOrNil is for JSON, which keeps the raw name and gives the
// demangled one beside it: the demangled name, or nil (null) when s is not
// a mangled name.
func DemangledOrNil(s string) *string {
	if d := Demangle(s); d != s {
		return &d
	}
	return nil
}
