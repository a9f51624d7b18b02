package moduleview

import (
	"io"
	"strconv"

	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/modules"
)

type moduleJSON struct {
	Name           string   `json:"name"`
	Path           string   `json:"path"`
	Parent         *string  `json:"parent"`
	Depth          int      `json:"depth"`
	Occurrences    int64    `json:"occurrences"`
	HostTotalNs    int64    `json:"host_total_ns"`
	HostSelfNs     int64    `json:"host_self_ns"`
	DeviceTotalNs  *int64   `json:"device_total_ns"`
	DeviceSelfNs   *int64   `json:"device_self_ns"`
	DeviceOps      int64    `json:"device_ops"`
	HostTotalPct   *float64 `json:"host_total_pct"`
	DeviceTotalPct *float64 `json:"device_total_pct"`
}

type docJSON struct {
	Schema            string       `json:"schema"`
	File              string       `json:"file"`
	SortBy            *string      `json:"sort_by"`
	DepthLimit        *int         `json:"depth_limit"`
	ModuleFrames      int          `json:"module_frames"`
	Threads           int          `json:"threads"`
	ModulesCount      int          `json:"modules_count"`
	HostInModulesNs   int64        `json:"host_in_modules_ns"`
	DeviceNs          *int64       `json:"device_ns"`
	DeviceInModulesNs *int64       `json:"device_in_modules_ns"`
	DeviceInModulePct *float64     `json:"device_in_modules_pct"`
	UnlinkedDeviceOps int          `json:"unlinked_device_ops"`
	Modules           []moduleJSON `json:"modules"`
}

func ptr[T any](v T) *T { return &v }

// writeJSON writes tracetab.modules/1: the rows shown, each with its path
// and its parent's path (null at the top), so a reader can rebuild the
// tree; the device figures are null for a trace without device work.
func writeJSON(w io.Writer, file string, t *modules.Tree, o Options, sel []int) error {
	hasDevice := t.DeviceNs > 0
	dev := func(ns int64) *int64 {
		if !hasDevice {
			return nil
		}
		return ptr(ns)
	}
	d := docJSON{Schema: Schema, File: file, ModuleFrames: t.Frames, Threads: t.Threads, ModulesCount: len(t.Nodes),
		HostInModulesNs: t.HostNs, DeviceNs: dev(t.DeviceNs), DeviceInModulesNs: dev(t.DeviceInModulesNs),
		DeviceInModulePct: t.InModulesPct(), UnlinkedDeviceOps: t.DeviceOpsUnlinked, Modules: []moduleJSON{}}
	if o.Sort != modules.KeyTree {
		d.SortBy = ptr(o.Sort.String())
	}
	if o.Depth > 0 {
		d.DepthLimit = ptr(o.Depth)
	}
	for _, n := range sel {
		nd := &t.Nodes[n]
		m := moduleJSON{Name: nd.Name, Path: t.Path(n), Depth: nd.Depth, Occurrences: nd.Occurrences,
			HostTotalNs: nd.HostTotal, HostSelfNs: nd.HostSelf, DeviceTotalNs: dev(nd.DeviceTotal), DeviceSelfNs: dev(nd.DeviceSelf),
			DeviceOps: nd.DeviceOps, HostTotalPct: t.HostPct(n), DeviceTotalPct: t.DevicePct(n)}
		if nd.Parent >= 0 {
			m.Parent = ptr(t.Path(nd.Parent))
		}
		d.Modules = append(d.Modules, m)
	}
	return layout.JSON(w, d)
}

// writeCSV writes one row per module shown, times in integer ns; an
// empty cell where JSON has null.
func writeCSV(w io.Writer, t *modules.Tree, sel []int) error {
	hasDevice := t.DeviceNs > 0
	num := func(v int64) string { return strconv.FormatInt(v, 10) }
	dev := func(v int64) string {
		if !hasDevice {
			return ""
		}
		return num(v)
	}
	p := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'f', 2, 64)
	}
	headers := []string{"path", "name", "parent", "depth", "occurrences", "host_total_ns", "host_self_ns", "device_total_ns", "device_self_ns",
		"device_ops", "host_total_pct", "device_total_pct"}
	var rows [][]string
	for _, n := range sel {
		nd := &t.Nodes[n]
		parent := ""
		if nd.Parent >= 0 {
			parent = t.Path(nd.Parent)
		}
		rows = append(rows, []string{t.Path(n), nd.Name, parent, strconv.Itoa(nd.Depth), num(nd.Occurrences), num(nd.HostTotal), num(nd.HostSelf),
			dev(nd.DeviceTotal), dev(nd.DeviceSelf), num(nd.DeviceOps), p(t.HostPct(n)), p(t.DevicePct(n))})
	}
	return layout.WriteCSV(w, headers, rows)
}
