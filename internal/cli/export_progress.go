package cli

import (
	"fmt"
	"io"
	"time"
)

// exportLinesMax is the most traces export lists a line each for at a
// terminal; over more (a job's 1,024 ranks would scroll 3,000 lines past
// at 80 columns) a progress line on stderr counts them and the total
// follows. Piped or redirected, and with --format json, every trace is
// listed.
const exportLinesMax = 20

// exportProgress is the line "exporting: N of M traces" on a terminal's
// stderr, redrawn at most every 100 ms and at the last trace, and cleared
// before a warning is written and at the end.
type exportProgress struct {
	w             io.Writer
	total         int
	done, skipped int
	last          time.Time
	shown         bool
}

func (p *exportProgress) add(skipped bool) {
	p.done++
	if skipped {
		p.skipped++
	}
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond || p.done == p.total {
		p.last = now
		p.draw()
	}
}

func (p *exportProgress) draw() {
	s := fmt.Sprintf("exporting: %d of %d traces", p.done, p.total)
	if p.skipped > 0 {
		s += fmt.Sprintf(" (%d skipped)", p.skipped)
	}
	fmt.Fprint(p.w, "\r\033[K"+s)
	p.shown = true
}

// clear takes the line away (before a warning, and at the end).
func (p *exportProgress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
