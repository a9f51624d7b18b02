package cropview

import (
	"fmt"
	"io"
	"strings"

	"github.com/tracetab/tracetab/internal/crop"
	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/units"
)

// Text writes the summary of the crop written to out, for people.
func Text(w io.Writer, out string, p *crop.Plan, r *crop.Result) error {
	share := "0.00"
	if r.BytesIn > 0 {
		share = units.Pct(float64(r.BytesOut) * 100 / float64(r.BytesIn))
	}
	size := units.Bytes(r.FileBytes) + " of JSON"
	if r.Gzip {
		size = units.Bytes(r.FileBytes) + " gzipped (" + units.Bytes(r.BytesOut) + " of JSON)"
	}
	lines := []string{
		fmt.Sprintf("wrote %s: %s", out, size),
		fmt.Sprintf("selection   %s", p.Window),
		fmt.Sprintf("kept        %d of %d complete events (whole, never clipped), %s among them; %d of %d flow ends; %d of %d other events (instants, counters); %d metadata events",
			r.Events, r.EventsIn, units.Plural(r.DeviceOps, "device op", "device ops"), r.Flows, r.FlowsIn, r.Others, r.OthersIn, r.Metadata),
		fmt.Sprintf("size        %s%% of the input's %s of JSON", share, units.Bytes(r.BytesIn)),
	}
	if r.QueueCounters > 0 {
		lines = append(lines, fmt.Sprintf("added       %d launch-queue counter events (ph C, cat %s: each kept stream's queue, as gaps counts it)", r.QueueCounters, gaps.QueueCounterCat))
	}
	if r.Truncated {
		lines = append(lines, "truncated   the input ended early: the crop holds what was read before the cut")
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}
