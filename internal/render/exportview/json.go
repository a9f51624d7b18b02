// Package exportview renders export's account of what it wrote: a line
// per trace and a total for people, or one JSON document.
package exportview

import (
	"io"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/layout"
)

// ExportSchema versions the JSON form of export's summary (the Parquet
// files' own schema is export.Schema).
const ExportSchema = "tracetab.export/1"

type exportJSON struct {
	Schema     string             `json:"schema"`
	DataSchema string             `json:"data_schema"`
	Dir        string             `json:"dir"`
	Partition  []string           `json:"partition"`
	Inputs     int                `json:"inputs"`
	Traces     int                `json:"traces"`
	Failed     int                `json:"failed"`
	Duplicates int                `json:"duplicates"`
	Rows       map[string]int64   `json:"rows"`
	Bytes      int64              `json:"parquet_bytes"`
	Files      []exportTraceJSON  `json:"files"`
	Errors     []exportFailedJSON `json:"errors"`
}

type exportTraceJSON struct {
	Path      string           `json:"path"`
	TraceID   string           `json:"trace_id"`
	SameAs    *string          `json:"same_as"`
	Rows      map[string]int64 `json:"rows"`
	Bytes     int64            `json:"parquet_bytes"`
	ElapsedNs int64            `json:"elapsed_ns"`
}

type exportFailedJSON struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// JSON writes the summary of an export of inputs files into dir,
// partitioned by the keys partition (nil: none); the files in the order
// of their paths (results is sorted so).
func JSON(w io.Writer, dir string, partition []string, inputs int, sum *export.Summary, results []*export.Result) error {
	j := &exportJSON{Schema: ExportSchema, DataSchema: export.Schema, Dir: dir, Partition: []string{}, Inputs: inputs,
		Traces: sum.Traces, Failed: sum.Failed, Duplicates: sum.Duplicates, Rows: sum.Rows, Bytes: sum.Bytes,
		Files: []exportTraceJSON{}, Errors: []exportFailedJSON{}}
	if partition != nil {
		j.Partition = partition
	}
	slices.SortFunc(results, func(a, b *export.Result) int { return strings.Compare(a.Path, b.Path) })
	for _, r := range results {
		if r.Err != nil {
			j.Errors = append(j.Errors, exportFailedJSON{Path: r.Path, Error: r.Err.Error()})
			continue
		}
		t := exportTraceJSON{Path: r.Path, TraceID: r.TraceID, Rows: r.Rows, Bytes: r.Bytes, ElapsedNs: r.Elapsed.Nanoseconds()}
		if r.Dup != "" {
			d := r.Dup
			t.SameAs = &d
		}
		j.Files = append(j.Files, t)
	}
	return layout.JSON(w, j)
}
