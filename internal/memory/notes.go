package memory

import (
	"fmt"
	"strings"

	"github.com/tracetab/tracetab/internal/units"
)

// notes says, once per trace, what the records could not measure.
func notes(m *Model) []string {
	var out, noTotals, noAddr, inconsistent, preTrace []string
	for _, d := range m.Devices {
		if !d.Totals {
			noTotals = append(noTotals, d.Name)
		}
		if !d.Addrs {
			noAddr = append(noAddr, d.Name)
		}
		if d.Inconsistent > 0 {
			inconsistent = append(inconsistent, fmt.Sprintf("%s: %s", d.Name, units.Plural(d.Inconsistent, "record", "records")))
		}
		if d.PreTraceFrees > 0 {
			preTrace = append(preTrace, fmt.Sprintf("%s: %s of %s", d.Name, units.Plural(d.PreTraceFrees, "free", "frees"), units.Bytes(d.PreTraceFreedBytes)))
		}
	}
	if len(noTotals) > 0 {
		out = append(out, "the [memory] records of "+strings.Join(noTotals, ", ")+" carry no Total Allocated (torch before 1.10): allocated figures are relative to the level before the first record, and the peak's level in bytes is unknown")
	}
	if len(noAddr) > 0 {
		out = append(out, "the [memory] records of "+strings.Join(noAddr, ", ")+" carry no Addr (torch before 1.10): frees cannot be matched with allocations, so what was alive at the peak, lifetimes and allocations surviving their step are not measured")
	}
	if len(inconsistent) > 0 {
		out = append(out, "Total Allocated is not the previous record's plus Bytes on "+strings.Join(inconsistent, ", ")+" (records lost or out of order): levels are taken as written")
	}
	if len(preTrace) > 0 {
		out = append(out, "frees of memory allocated before the trace began (no allocation in the trace), counted apart: "+strings.Join(preTrace, ", "))
	}
	if m.OutOfMemory > 0 {
		out = append(out, "the trace has "+units.Plural(m.OutOfMemory, "[OutOfMemory] event", "[OutOfMemory] events")+": an allocation failed")
	}
	return out
}
