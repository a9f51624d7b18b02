// Package cropview renders crop's summary of the file it wrote: text
// and JSON.
package cropview

import (
	"io"

	"github.com/tracetab/tracetab/internal/crop"
	"github.com/tracetab/tracetab/internal/layout"
)

// CropSchema versions the JSON form of crop's summary.
const CropSchema = "tracetab.crop/1"

// Summary is crop's summary in JSON.
type Summary struct {
	Schema      string `json:"schema"`
	File        string `json:"file"`
	Output      string `json:"output"`
	Selection   string `json:"selection"`
	WindowStart *int64 `json:"window_start_ns"`
	WindowEnd   *int64 `json:"window_end_ns"`
	Device      *int   `json:"device"`
	Events      int    `json:"events"`
	EventsIn    int    `json:"events_in"`
	DeviceOps   int    `json:"device_ops"`
	Flows       int    `json:"flows"`
	FlowsIn     int    `json:"flows_in"`
	Metadata    int    `json:"metadata_events"`
	Others      int    `json:"other_events"`
	OthersIn    int    `json:"other_events_in"`
	Queue       int    `json:"queue_counter_events"`
	JSONIn      int64  `json:"json_in_bytes"`
	JSONOut     int64  `json:"json_out_bytes"`
	FileBytes   int64  `json:"file_bytes"`
	Gzip        bool   `json:"gzip"`
	Truncated   bool   `json:"truncated"`
}

// JSON writes the summary of the crop of file written to out.
func JSON(w io.Writer, file, out string, p *crop.Plan, r *crop.Result) error {
	return layout.JSON(w, summaryOf(file, out, p, r))
}

func summaryOf(file, out string, p *crop.Plan, r *crop.Result) *Summary {
	j := &Summary{Schema: CropSchema, File: file, Output: out, Selection: p.Window,
		Events: r.Events, EventsIn: r.EventsIn, DeviceOps: r.DeviceOps, Flows: r.Flows, FlowsIn: r.FlowsIn,
		Metadata: r.Metadata, Others: r.Others, OthersIn: r.OthersIn, Queue: r.QueueCounters, JSONIn: r.BytesIn, JSONOut: r.BytesOut,
		FileBytes: r.FileBytes, Gzip: r.Gzip, Truncated: r.Truncated}
	if p.HasWindow {
		lo, hi := p.Lo-p.Origin, p.Hi-p.Origin
		j.WindowStart, j.WindowEnd = &lo, &hi
	}
	if p.Device >= 0 {
		d := p.Device
		j.Device = &d
	}
	return j
}
