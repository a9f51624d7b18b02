// Package table computes torch's key_averages() from a trace: per-op self
// and total CPU and device time, calls, memory, exactly as
// prof.key_averages().table() prints them for a chosen torch version, plus
// the kernel and step views.
//
// Times follow torch's own arithmetic: each event's start and end are
// float64 microseconds relative to the trace start ((ts_ns - start_ns) /
// 1000), durations are end - start, and sums are left folds in torch's
// order. That is the only way to print the same digits as torch where a
// value sits on a rounding tie. Counts and memory are integers.
package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Version is the torch version whose rules and layout are reproduced.
type Version struct {
	Major, Minor int
}

// Newest is the newest torch whose rules tracetab knows.
var Newest = Version{trace.NewestTorch[0], trace.NewestTorch[1]}

// Known lists the torch versions whose rules tracetab reproduces: every
// minor release from 1.8 to Newest.
func Known() []Version {
	var out []Version
	for m := 8; m <= 13; m++ {
		out = append(out, Version{1, m})
	}
	for m := 0; m <= Newest.Minor; m++ {
		out = append(out, Version{2, m})
	}
	return out
}

// KnownList is Known in words: "1.8, 1.9, ..., 2.14".
func KnownList() string {
	var parts []string
	for _, v := range Known() {
		parts = append(parts, v.String())
	}
	return strings.Join(parts, ", ")
}

// IsKnown reports whether v is one of Known.
func (v Version) IsKnown() bool {
	return (v.Major == 1 && v.Minor >= 8 && v.Minor <= 13) || (v.Major == 2 && v.Minor <= Newest.Minor)
}

// ParseVersion reads "2.14", "2.14.1", "1.13.1+debian" and the like.
func ParseVersion(s string) (Version, error) {
	s = strings.TrimSpace(s)
	orig := s
	if i := strings.IndexAny(s, "+-a"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 {
		return Version{}, fmt.Errorf("torch version %q: want MAJOR.MINOR[.PATCH], e.g. 2.6.0", orig)
	}
	maj, err1 := strconv.Atoi(parts[0])
	min, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || maj < 1 || maj > 3 || min < 0 {
		return Version{}, fmt.Errorf("torch version %q: want MAJOR.MINOR[.PATCH], e.g. 2.6.0", orig)
	}
	v := Version{maj, min}
	if !v.IsKnown() {
		return Version{}, fmt.Errorf("torch version %s is not one whose rules tracetab knows: %s", orig, KnownList())
	}
	return v, nil
}

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool {
	return v.Major < w.Major || v.Major == w.Major && v.Minor < w.Minor
}

// AtLeast reports whether v is w or newer.
func (v Version) AtLeast(maj, min int) bool { return !v.Less(Version{maj, min}) }

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// The rules that changed between torch versions (see the semantics doc).

// keyHasUserAnnotation: 2.5 added is_user_annotation to the grouping key.
func (v Version) keyHasUserAnnotation() bool { return v.AtLeast(2, 5) }

// deviceTotalSkipsAnnotations: 2.5 stopped counting gpu_user_annotation
// spans in "Self CUDA time total" (pytorch#130730).
func (v Version) deviceTotalSkipsAnnotations() bool { return v.AtLeast(2, 5) }

// UpperMemoryUnits: after 2.6, "KB"/"MB"/"GB"/"B" instead of "Kb"/"Mb"/"Gb"/"b".
func (v Version) UpperMemoryUnits() bool { return v.AtLeast(2, 7) }

// HasTimeUnit: table(time_unit=...) exists after 2.6.
func (v Version) HasTimeUnit() bool { return v.AtLeast(2, 7) }

// skipsPythonFunctions: 2.1x key_averages leaves python_function events out
// by default (include_python_functions=False).
func (v Version) skipsPythonFunctions() bool { return v.AtLeast(2, 10) }

// frontendOnlyAttach: 2.4 attaches device ops only to events that are not
// themselves linked (PR #124596); before, every event with a matching id
// got them, runtime calls included (the correlation-id collision).
func (v Version) frontendOnlyAttach() bool { return v.AtLeast(2, 4) }

// runtimeIDIsCorrelation: from 1.13 a runtime call's id is its CUPTI
// correlation id; before, 0.
func (v Version) runtimeIDIsCorrelation() bool { return v.AtLeast(1, 13) }

// memoryWindowExactNs: 2.1x compares [memory] record times with an op's
// integer start and end ns; 2.4 to 2.9 round-trip the op's ends through
// float microseconds; before 2.4 everything is integer microseconds, which
// integer ns compare exactly.
func (v Version) memoryWindowExactNs() bool { return v.Less(Version{2, 4}) || v.AtLeast(2, 10) }

// DeviceNameFromUseDevice: 2.4 prints use_device.upper() instead of "CUDA".
func (v Version) DeviceNameFromUseDevice() bool { return v.AtLeast(2, 4) }

// MaxStackFrames: 1.13 and older print only the first 5 frames of a stack
// (MAX_STACK_ENTRY); later versions print all.
func (v Version) MaxStackFrames() int {
	if v.Less(Version{2, 0}) {
		return 5
	}
	return 1 << 30
}
