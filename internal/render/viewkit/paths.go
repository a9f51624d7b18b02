package viewkit

import (
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/names"
)

// CutPath fits a slash-separated path (a module path) into width columns
// by leaving out its leading parts ("..." in their place): the tail names
// the module; the last name is cut in the middle when it alone is too
// long. width <= 0: no cut.
func CutPath(p string, width int) string {
	if width <= 0 || layout.Width(p) <= width {
		return p
	}
	const dots = ".../"
	for rest := p; ; {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			if width >= len(dots)+12 {
				return dots + names.Truncate(rest, width-len(dots))
			}
			return names.Truncate(rest, width)
		}
		rest = rest[i+1:]
		if layout.Width(dots)+layout.Width(rest) <= width {
			return dots + rest
		}
	}
}

// FitPaths cuts each path to width (CutPath); paths cut to the same tail
// stay apart: the later ones get #2, #3. width <= 0: the paths as they are.
func FitPaths(paths []string, width int) []string {
	out := make([]string, len(paths))
	taken := map[string]bool{}
	for i, p := range paths {
		c := CutPath(p, width)
		if width > 0 {
			for k := 2; taken[c]; k++ {
				suf := "#" + strconv.Itoa(k)
				c = CutPath(p, width-len(suf)) + suf
			}
			taken[c] = true
		}
		out[i] = c
	}
	return out
}
