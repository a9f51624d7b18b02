package table

import (
	"fmt"
	"strings"

	"github.com/tracetab/tracetab/internal/units"
)

// rowNotes explain the rows a torch user finds strange. They describe
// torch's own behaviour, reproduced and not fixed. They are computed over
// all rows, before --match/--exclude and the row limit.
// negEvents is the number of events whose own Self CPU is negative.
func rowNotes(res *Result, grouped bool, negEvents int) []string {
	var notes []string
	for i := range res.Rows {
		r := &res.Rows[i]
		if r.Name == "ProfilerStep*" && r.Device && r.SelfDev > 0 {
			notes = append(notes, "the ProfilerStep* row with CUDA time and no CPU time is the GPU-side span of the ProfilerStep#N annotations (from the first to the last device op of each step, idle time included), not kernel time; the CPU ProfilerStep* row's CUDA total is the device time its steps launched")
			break
		}
	}
	if !grouped {
		seen := map[string]int{}
		var pairs []string
		for i := range res.Rows {
			seen[res.Rows[i].Name]++
			if seen[res.Rows[i].Name] == 2 {
				pairs = append(pairs, res.Rows[i].Name)
			}
		}
		if len(pairs) > 0 {
			notes = append(notes, fmt.Sprintf("%s two rows of the same name (%s): torch keys rows by name and by device (CPU op or annotation, device op)%s, so a record_function on the CPU and its GPU annotation span, or a Triton op and its kernel of the same name, are separate rows",
				units.Plural(len(pairs), "name has", "names have"), examples(pairs), userAnnKey(res.Torch)))
		}
	}
	if res.SumSelfDev > 0 {
		var over []string
		allAnn := true
		for i := range res.Rows {
			r := &res.Rows[i]
			if r.SelfDev*100/res.SumSelfDev > 100 {
				over = append(over, r.Name)
				allAnn = allAnn && r.Device && r.UserAnn
			}
		}
		if len(over) > 0 {
			why := "their device time is also counted in other rows (a span and the device ops inside it)"
			if allAnn && res.Torch.deviceTotalSkipsAnnotations() {
				why = "GPU annotation spans, which torch " + res.Torch.String() + " prints as rows but leaves out of the Self CUDA time total (from 2.5, pytorch#130730)"
				if len(over) == 1 {
					why = "it is one of the " + why
				} else {
					why = "they are " + why
				}
			}
			notes = append(notes, fmt.Sprintf("%s Self CUDA %% over 100%% (%s): %s", units.Plural(len(over), "row has", "rows have"), examples(over), why))
		}
	}
	if negEvents > 0 {
		var neg []string
		for i := range res.Rows {
			if res.Rows[i].SelfCPU < 0 {
				neg = append(neg, res.Rows[i].Name)
			}
		}
		rows := ""
		if len(neg) > 0 {
			rows = fmt.Sprintf(", which leaves %s with a negative Self CPU (%s)", units.Plural(len(neg), "row", "rows"), examples(neg))
		}
		notes = append(notes, fmt.Sprintf("%s a negative Self CPU (children overhang their parent: partially overlapping events)%s; torch prints the same, so tracetab does not clamp them", units.Plural(negEvents, "event has", "events have"), rows))
	}
	return notes
}

func userAnnKey(v Version) string {
	if v.keyHasUserAnnotation() {
		return " and by is_user_annotation"
	}
	return ""
}

// examples lists up to three names.
func examples(names []string) string {
	const k = 3
	if len(names) <= k {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:k], ", ") + fmt.Sprintf(" and %d more", len(names)-k)
}
