package sequenceview

import (
	"io"
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/sequences"
)

type sequenceJSON struct {
	Rank     int      `json:"rank"`
	Op       string   `json:"op"`
	Device   int      `json:"device"`
	Stream   int64    `json:"stream"`
	Kernels  []string `json:"kernels"`
	Labels   []string `json:"labels"`
	Ops      int      `json:"ops"`
	Count    int64    `json:"count"`
	DeviceNs int64    `json:"device_ns"`
	MeanNs   int64    `json:"mean_ns"`
	HostNs   int64    `json:"host_ns"`
}

type docJSON struct {
	Schema            string         `json:"schema"`
	File              string         `json:"file"`
	Roots             string         `json:"roots"`
	OpText            *string        `json:"op_text"`
	RootDepth         *int           `json:"root_depth"`
	MinOps            int            `json:"min_ops"`
	SortBy            string         `json:"sort_by"`
	Top               *int           `json:"top"`
	SequencesCount    int            `json:"sequences_count"`
	RootOccurrences   int            `json:"root_occurrences"`
	ShortRuns         int            `json:"short_runs"`
	DeviceOps         int            `json:"device_ops"`
	DeviceNs          int64          `json:"device_ns"`
	InSequencesNs     int64          `json:"in_sequences_ns"`
	UnlinkedDeviceOps int            `json:"unlinked_device_ops"`
	UnrootedDeviceOps int            `json:"unrooted_device_ops"`
	Sequences         []sequenceJSON `json:"sequences"`
}

// writeJSON writes tracetab.sequences/1: the sequences shown (--top), in
// order, each with its device ops' full names and labels.
func writeJSON(w io.Writer, file string, r *sequences.Result, o Options, seqs []sequences.Sequence) error {
	d := docJSON{Schema: Schema, File: file, Roots: "top-level", MinOps: r.Options.MinLen, SortBy: r.Options.Sort.String(),
		SequencesCount: len(r.Sequences), RootOccurrences: r.Roots, ShortRuns: r.Short, DeviceOps: r.DeviceOps, DeviceNs: r.DeviceNs,
		InSequencesNs: r.InSequencesNs, UnlinkedDeviceOps: r.Unlinked, UnrootedDeviceOps: r.NoRoot, Sequences: []sequenceJSON{}}
	if r.Options.Op != "" {
		op, depth := r.Options.Op, r.RootDepth
		d.Roots, d.OpText, d.RootDepth = "op-text", &op, &depth
	}
	if o.Top > 0 {
		top := o.Top
		d.Top = &top
	}
	lab := labels(seqs)
	for i, s := range seqs {
		d.Sequences = append(d.Sequences, sequenceJSON{Rank: i + 1, Op: s.Op, Device: s.Device, Stream: s.Stream, Kernels: s.Kernels,
			Labels: lab[i], Ops: len(s.Kernels), Count: s.Count, DeviceNs: s.DeviceNs, MeanNs: s.MeanNs(), HostNs: s.HostNs})
	}
	return layout.JSON(w, d)
}

// writeCSV writes one row per sequence shown, times in integer ns; the
// device op names joined by " | " (HTA's pattern joins them by "|").
func writeCSV(w io.Writer, seqs []sequences.Sequence) error {
	num := func(v int64) string { return strconv.FormatInt(v, 10) }
	headers := []string{"rank", "op", "device", "stream", "ops", "count", "device_ns", "mean_ns", "host_ns", "kernels", "labels"}
	lab := labels(seqs)
	var rows [][]string
	for i, s := range seqs {
		rows = append(rows, []string{strconv.Itoa(i + 1), s.Op, strconv.Itoa(s.Device), num(s.Stream), strconv.Itoa(len(s.Kernels)), num(s.Count),
			num(s.DeviceNs), num(s.MeanNs()), num(s.HostNs), strings.Join(s.Kernels, " | "), strings.Join(lab[i], " | ")})
	}
	return layout.WriteCSV(w, headers, rows)
}
