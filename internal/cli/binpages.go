package cli

import (
	"os"
	"sync"

	"github.com/tracetab/tracetab/internal/binpages"
)

// releaseMin is the size of trace from which tracetab lets go of the
// pages of its own executable that it will not read again (binpages):
// before the first such trace is read (what the packages' initialisation
// touched) and once it is read (the reading's code). Each release costs
// about 2.5 ms (smaps read, the code still in use mapped again): 12 -> 17
// ms a run on the 1 MB sample trace, no change on 200 MB; there it lowers
// every command's peak RSS by 6-9 MB (the 200 MB default-shape trace, 7
// alternating pairs: table 59.7 -> 52.4 MB with the first, 50.6 -> 48.9
// MiB with the second too; roofline 55.4 -> 53.7 MiB by the second).
const releaseMin = 64 << 20

var releases struct {
	before, after sync.Once
}

// release is binpages.Release (a test's counter in its tests).
var release = binpages.Release

// releaseBefore lets go of the initialisation's pages before the first
// trace of releaseMin bytes or more (its file size; stdin, "-": not known)
// is read.
func releaseBefore(path string) {
	if path == "-" {
		return
	}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() >= releaseMin {
		releases.before.Do(release)
	}
}

// releaseAfter lets go of the reading's pages once the first trace of
// releaseMin bytes of JSON or more is read (bytes is the JSON read).
func releaseAfter(bytes int64) {
	if bytes >= releaseMin {
		releases.after.Do(release)
	}
}
