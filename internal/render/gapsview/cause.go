package gapsview

import (
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/units"
)

// causeText is a gap's cause with its share and, where the trace names
// it, the event covering most of the cause with its share of it.
func causeText(g gaps.Gap) string {
	s := g.Cause.String() + " " + units.Pct(g.CausePct) + "%"
	if g.Activity != "" {
		s += ", inside: " + g.Activity + " " + units.Pct(g.ActivityPct) + "%"
	}
	return s
}

// Cause is a gap's cause as the gaps text prints it: "input 99.73%,
// inside: zoom_shift 82.88%" (the report labels its shaded gaps with it).
func Cause(g gaps.Gap) string { return causeText(g) }

// Steps says where a gap lies by the launch-call clock, as the gaps
// text prints it: "3", "between 3 and 4", "-".
func Steps(g gaps.Gap) string { return gapSteps(g) }
