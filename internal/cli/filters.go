package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// Filters that select nothing are usage errors (exit 2) that name what the
// trace has, so a typo never answers confidently about nothing.

func stepName(lo, hi int64) string {
	if lo == hi {
		return fmt.Sprintf("ProfilerStep#%d", lo)
	}
	return fmt.Sprintf("ProfilerStep#%d to #%d", lo, hi)
}

// checkSteps refuses a --steps range that holds no step of t.
func checkSteps(t *trace.Trace, lo, hi int64) error {
	var nums []int64
	for _, s := range t.StepWindows() {
		if s.N >= lo && s.N <= hi {
			return nil
		}
		nums = append(nums, s.N)
	}
	if len(nums) == 0 {
		return usageErrorf("--steps: %s has no ProfilerStep annotations (profile with a schedule and call prof.step())", t.File)
	}
	return usageErrorf("--steps: no %s; steps are %s", stepName(lo, hi), units.Ranges(nums))
}

// checkLane refuses a --device or --stream (-1: any) that matches no GPU
// lane of t. A trace with no GPU lane at all is refused as well when
// either is given.
func checkLane(t *trace.Trace, dev int, stream int64) error {
	if dev < 0 && stream < 0 {
		return nil
	}
	var devs, streams []int64
	for k := range t.Tracks {
		tr := &t.Tracks[k]
		if tr.Kind != trace.TrackDevice {
			continue
		}
		devs = append(devs, int64(tr.Device))
		if dev < 0 || tr.Device == dev {
			if stream < 0 || tr.Stream == stream {
				return nil
			}
			streams = append(streams, tr.Stream)
		}
	}
	switch {
	case len(devs) == 0:
		return usageErrorf("--device/--stream: %s has no GPU lane (a CPU-only trace)", t.File)
	case len(streams) == 0:
		return usageErrorf("--device: no device %d; devices are %s", dev, units.Ranges(devs))
	case dev >= 0:
		return usageErrorf("--stream: no stream %d on device %d; its streams are %s", stream, dev, units.Ranges(streams))
	}
	return usageErrorf("--stream: no stream %d; streams are %s", stream, units.Ranges(streams))
}

// filterText names the gaps filters in use.
func filterText(o *gapsOptions) string {
	var f []string
	if o.steps != "" {
		f = append(f, "--steps "+o.steps)
	}
	if o.device >= 0 {
		f = append(f, "--device "+strconv.Itoa(o.device))
	}
	if o.stream >= 0 {
		f = append(f, "--stream "+strconv.FormatInt(o.stream, 10))
	}
	if o.linked {
		f = append(f, "--linked-only")
	}
	return strings.Join(f, " ")
}

// checkRowFilter refuses a --match/--exclude that leaves no row of kind
// (e.g. "op") when the view had rows before filtering; names are those
// rows' names, in the view's order, and the first few are quoted.
func checkRowFilter(o *tableOptions, kind string, kept int, names []string) error {
	if kept > 0 || len(names) == 0 || (o.matchRe == nil && o.excludeRe == nil) {
		return nil
	}
	var f []string
	if o.matchRe != nil {
		f = append(f, "--match "+strconv.Quote(o.match))
	}
	if o.excludeRe != nil {
		f = append(f, "--exclude "+strconv.Quote(o.exclude))
	}
	const show = 5
	var ex []string
	for _, n := range names {
		if len(ex) == show {
			break
		}
		if !slices.Contains(ex, n) {
			ex = append(ex, n)
		}
	}
	more := ""
	if len(names) > len(ex) {
		more = ", ..."
	}
	return usageErrorf("%s: no %s row is left of %s; they include %s%s", strings.Join(f, " "), kind, plural(len(names), kind+" row"), strings.Join(ex, ", "), more)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
