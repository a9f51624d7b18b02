package rooflineview

import (
	"encoding/json"
	"io"
	"math"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/roofline"
)

type jsonDoc struct {
	Schema        string       `json:"schema"`
	File          string       `json:"file"`
	HasShapes     bool         `json:"has_shapes"`
	DeviceNs      int64        `json:"device_ns"`
	ModelledNs    int64        `json:"modelled_device_ns"`
	NotModelledNs int64        `json:"not_modelled_device_ns"`
	ModelledPct   *float64     `json:"modelled_pct"`
	Devices       []jsonDevice `json:"devices"`
	Families      []jsonFamily `json:"families"`
	Lost          []jsonLost   `json:"most_lost"`
	RowsTotal     int          `json:"rows_total"`
	Rows          []jsonRow    `json:"rows"`
	Notes         []string     `json:"notes"`
}

type jsonDevice struct {
	Device        int       `json:"device"`
	Name          *string   `json:"name"`
	TotalMemBytes int64     `json:"total_memory_bytes"`
	Known         bool      `json:"in_peak_table"`
	Peak          *jsonPeak `json:"peak"`
}

type jsonPeak struct {
	Model      string              `json:"model"`
	Source     string              `json:"source"`
	TFLOPsPerS map[string]*float64 `json:"tflops_per_s"`
	TBPerS     *float64            `json:"tb_per_s"`
}

type jsonFamily struct {
	Family     string   `json:"family"`
	DeviceNs   int64    `json:"device_ns"`
	SharePct   *float64 `json:"device_time_pct"`
	PeakPct    *float64 `json:"peak_pct"`
	MeasuredNs int64    `json:"measured_device_ns"`
}

type jsonLost struct {
	Name   string          `json:"name"`
	Shapes json.RawMessage `json:"input_shapes"`
	LostNs int64           `json:"lost_ns"`
	Row    int             `json:"row"`
}

type jsonRow struct {
	Name        string          `json:"name"`
	DeviceOp    bool            `json:"device_op"`
	Shapes      json.RawMessage `json:"input_shapes"`
	Types       json.RawMessage `json:"input_types"`
	Values      json.RawMessage `json:"concrete_inputs"`
	Device      int             `json:"device"`
	Family      *string         `json:"family"`
	Model       *string         `json:"model"`
	ModelNote   *string         `json:"model_note"`
	Calls       int64           `json:"calls"`
	DeviceNs    int64           `json:"device_ns"`
	FLOPs       *int64          `json:"flops"`
	FLOPsCall   *int64          `json:"flops_per_call"`
	Bytes       *int64          `json:"bytes"`
	Intensity   *float64        `json:"flops_per_byte"`
	TFLOPs      *float64        `json:"tflops_per_s"`
	TBps        *float64        `json:"tb_per_s"`
	Precision   *string         `json:"precision"`
	PeakTFLOPs  *float64        `json:"peak_tflops_per_s"`
	ComputePct  *float64        `json:"pct_of_compute_peak"`
	MemoryPct   *float64        `json:"pct_of_memory_peak"`
	PeakPct     *float64        `json:"peak_pct"`
	Bound       *string         `json:"bound"`
	LostNs      *int64          `json:"lost_ns"`
	TF32Kernels bool            `json:"tf32_kernels"`
}

func raw(s string) json.RawMessage {
	if s == "" || !json.Valid([]byte(s)) {
		return json.RawMessage("null")
	}
	return json.RawMessage(s)
}

func str(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// round to n decimals, keeping nil.
func round(p *float64, n int) *float64 {
	if p == nil {
		return nil
	}
	k := math.Pow(10, float64(n))
	v := math.Round(*p*k) / k
	return &v
}

// JSON writes tracetab.roofline/1.
func JSON(w io.Writer, file string, r *roofline.Result, limit int) error {
	doc := jsonDoc{Schema: "tracetab.roofline/1", File: file, HasShapes: r.HasShapes, DeviceNs: r.DeviceNs,
		ModelledNs: r.ModelledNs, NotModelledNs: r.DeviceNs - r.ModelledNs, Devices: []jsonDevice{},
		Families: []jsonFamily{}, Lost: []jsonLost{}, Rows: []jsonRow{}, RowsTotal: len(r.Rows), Notes: r.Notes}
	if doc.Notes == nil {
		doc.Notes = []string{}
	}
	if p, ok := r.ModelledPct(); ok {
		doc.ModelledPct = round(&p, 2)
	}
	for _, d := range r.Devices {
		jd := jsonDevice{Device: d.Index, Name: str(d.Name), TotalMemBytes: d.TotalMem, Known: d.Known}
		if d.Peak != nil {
			jp := &jsonPeak{Model: d.Peak.Device, Source: d.Peak.Source, TFLOPsPerS: map[string]*float64{}}
			for _, p := range roofline.Precisions {
				if v, ok := d.Peak.TFLOPs[p]; ok {
					jp.TFLOPsPerS[string(p)] = &v
				} else {
					jp.TFLOPsPerS[string(p)] = nil
				}
			}
			if d.Peak.TBps > 0 {
				jp.TBPerS = &d.Peak.TBps
			}
			jd.Peak = jp
		}
		doc.Devices = append(doc.Devices, jd)
	}
	for _, f := range r.Families {
		jf := jsonFamily{Family: string(f.Family), DeviceNs: f.DeviceNs, PeakPct: round(f.PeakPct, 2), MeasuredNs: f.MeasuredNs}
		if r.DeviceNs > 0 {
			s := float64(f.DeviceNs) * 100 / float64(r.DeviceNs)
			jf.SharePct = round(&s, 2)
		}
		doc.Families = append(doc.Families, jf)
	}
	rows := shown(r, limit)
	for _, i := range r.Lost {
		x := &r.Rows[i]
		doc.Lost = append(doc.Lost, jsonLost{Name: x.Name, Shapes: raw(x.Dims), LostNs: *x.LostNs, Row: i})
	}
	for i := range rows {
		x := &rows[i]
		jr := jsonRow{Name: x.Name, DeviceOp: x.DeviceOp, Shapes: raw(x.Dims), Types: raw(x.Types), Values: raw(x.Values),
			Device: x.Device, Family: str(family(x)), ModelNote: str(x.NoModel), Calls: x.Calls, DeviceNs: x.DeviceNs,
			FLOPs: x.FLOPs, FLOPsCall: x.FLOPsPerCall, Bytes: x.Bytes, Intensity: round(x.Intensity, 2),
			TFLOPs: round(x.TFLOPs, 4), TBps: round(x.TBps, 4), Precision: str(string(x.Precision)),
			PeakTFLOPs: x.PeakTFLOPs, ComputePct: round(x.ComputePct, 2), MemoryPct: round(x.MemoryPct, 2),
			PeakPct: round(x.PeakPct, 2), Bound: str(x.Bound), LostNs: x.LostNs, TF32Kernels: x.TF32 && x.Precision == roofline.TF32}
		if x.Est != nil {
			jr.Model = str(x.Est.Model)
		}
		doc.Rows = append(doc.Rows, jr)
	}
	return layout.JSON(w, doc)
}
