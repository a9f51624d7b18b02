package diffview

import (
	"strings"

	"github.com/tracetab/tracetab/internal/names"
)

// devicePrefix marks a device row's key (diff.opKey).
const devicePrefix = "[device] "

// rowLabels labels the name column of a diff table: a device row's key
// is its kernel's or memcpy's name behind devicePrefix, which the one
// labelling rule (names.Labels) read as a name that is not C++ and cut in
// the middle ("[device] ...orkElem)"); the names behind the prefix are
// labelled together, as a table view labels its kernels, and keep the
// prefix, the others are labelled as they are. The two groups cannot
// read the same: only one has the prefix.
func rowLabels(cells []string, width int) []string {
	var dev, other []string
	for _, c := range cells {
		if rest, ok := strings.CutPrefix(c, devicePrefix); ok {
			dev = append(dev, rest)
		} else {
			other = append(other, c)
		}
	}
	if len(dev) == 0 {
		return names.Labels(cells, width)
	}
	devWidth := width
	if width > 0 {
		devWidth = max(1, width-len(devicePrefix))
	}
	dl, ol := names.Labels(dev, devWidth), names.Labels(other, width)
	out := make([]string, len(cells))
	for i, c := range cells {
		if strings.HasPrefix(c, devicePrefix) {
			out[i], dl = devicePrefix+dl[0], dl[1:]
		} else {
			out[i], ol = ol[0], ol[1:]
		}
	}
	return out
}
