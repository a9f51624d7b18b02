package info

import (
	"regexp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// A device the trace names only by number (no deviceProperties) can still
// be told by what ran on it: each vendor's libraries name their kernels
// their own way, and each runtime its launch calls. A vendor is named only
// when the evidence points one way; triton, NCCL/RCCL (RCCL keeps NCCL's
// kernel names) and the framework's own kernels (at::native) run on both
// and say nothing.
type vendorMark struct {
	vendor, what string
	re           *regexp.Regexp
}

var vendorMarks = []vendorMark{
	{"AMD", "Cijk_*", regexp.MustCompile(`^(Custom_)?Cijk_`)},
	{"AMD", "ck::*", regexp.MustCompile(`\bck(_tile)?::|_ZN(2ck|7ck_tile)`)},
	{"AMD", "MIOpen*", regexp.MustCompile(`(?i)miopen`)},
	{"AMD", "__amd_rocclr_*", regexp.MustCompile(`__amd_rocclr_`)},
	{"AMD", "rocprim*", regexp.MustCompile(`rocprim`)},
	{"AMD", "hip*()", regexp.MustCompile(`^hip[A-Z]`)},
	{"NVIDIA", "sm*_", regexp.MustCompile(`^sm\d+_`)},
	{"NVIDIA", "maxwell_*", regexp.MustCompile(`^maxwell_`)},
	{"NVIDIA", "pascal_*", regexp.MustCompile(`^pascal_`)},
	{"NVIDIA", "volta_*", regexp.MustCompile(`^volta_`)},
	{"NVIDIA", "turing_*", regexp.MustCompile(`^turing_`)},
	{"NVIDIA", "ampere_*", regexp.MustCompile(`^ampere_`)},
	{"NVIDIA", "hopper_*", regexp.MustCompile(`^hopper_`)},
	{"NVIDIA", "nvjet_*", regexp.MustCompile(`^nvjet_`)},
	{"NVIDIA", "cutlass*", regexp.MustCompile(`cutlass`)},
	{"NVIDIA", "cudnn*", regexp.MustCompile(`(?i)cudnn`)},
	{"NVIDIA", "cuda*()", regexp.MustCompile(`^cu(da)?[A-Z]`)},
}

// deviceVendor reads a device's vendor from the names of its device ops
// and of their launch calls: the vendor and the patterns that matched, or
// "" when nothing matched or the patterns disagree. It walks the events
// once, and is called only for a device the trace does not name, so a
// trace with deviceProperties pays nothing for it.
func deviceVendor(t *trace.Trace, l *trace.Links, device int) (vendor string, evidence []string) {
	seen := map[trace.StrID]bool{}
	for i := 0; i < t.NumEvents(); i++ {
		e := t.Ev(i)
		tr := &t.Tracks[e.Track]
		if tr.Kind != trace.TrackDevice || tr.Device != device || !e.Kind.IsDeviceWork() {
			continue
		}
		seen[e.Name] = true
		if r := l.Launch[i]; r >= 0 {
			seen[t.Ev(int(r)).Name] = true
		}
	}
	found := map[string]bool{}
	for id := range seen {
		name := t.Str(id)
		for _, m := range vendorMarks {
			if m.re.MatchString(name) {
				found[m.vendor+"\x00"+m.what] = true
			}
		}
	}
	for k := range found {
		ven, what, _ := strings.Cut(k, "\x00")
		if vendor != "" && ven != vendor {
			return "", nil // the evidence disagrees: say nothing
		}
		vendor = ven
		evidence = append(evidence, what)
	}
	slices.Sort(evidence)
	return vendor, evidence
}
