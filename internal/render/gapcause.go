package render

import "github.com/tracetab/tracetab/internal/gaps"

// GapCause is a gap's cause as the gaps text prints it: "input 99.73%,
// inside: zoom_shift 82.88%" (the report labels its shaded gaps with it).
func GapCause(g gaps.Gap) string { return causeText(g) }

// GapSteps says where a gap lies by the launch-call clock, as the gaps
// text prints it: "3", "between 3 and 4", "-".
func GapSteps(g gaps.Gap) string { return gapSteps(g) }
