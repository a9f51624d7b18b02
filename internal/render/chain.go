package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/tracetab/tracetab/internal/chain"
	"github.com/tracetab/tracetab/internal/trace"
)

// ChainSchema versions the JSON form of chain.
const ChainSchema = "tracetab.chain/1"

func kindLabel(k trace.Kind) string {
	switch k {
	case trace.KindRuntime:
		return "cuda_runtime"
	case trace.KindDriver:
		return "cuda_driver"
	}
	return k.String()
}

func deviceLine(d *chain.DeviceOp) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GPU %d stream %d  %s  %s  queue %s  dur %s", d.Device, d.Stream, d.Name, kindLabel(d.Kind), nsT(d.QueueNs), nsT(d.DurNs))
	if d.Grid != nil {
		fmt.Fprintf(&b, "  grid [%d,%d,%d] block [%d,%d,%d]", d.Grid[0], d.Grid[1], d.Grid[2], d.Block[0], d.Block[1], d.Block[2])
	}
	if d.Regs >= 0 {
		fmt.Fprintf(&b, "  regs %d", d.Regs)
	}
	if d.SharedMem >= 0 {
		fmt.Fprintf(&b, "  shmem %d", d.SharedMem)
	}
	if d.Bytes >= 0 {
		fmt.Fprintf(&b, "  bytes %d", d.Bytes)
	}
	return b.String()
}

func nodeLine(n *chain.Node, up bool) string {
	var b strings.Builder
	off := "+" + nsT(n.OffsetNs)
	if up {
		off = "child at +" + nsT(n.OffsetNs)
	}
	fmt.Fprintf(&b, "%s  %s  %s  dur %s", n.Name, kindLabel(n.Kind), off, nsT(n.DurNs))
	if !up && n.Kind.IsCPU() {
		fmt.Fprintf(&b, "  self %s", nsT(n.SelfNs))
	}
	if n.BackwardOf != "" {
		fmt.Fprintf(&b, "  (backward of %s)", n.BackwardOf)
	}
	for _, m := range n.Marks {
		fmt.Fprintf(&b, "  [%s]", m)
	}
	return b.String()
}

// ChainText writes the chains; box draws the tree with box-drawing
// characters (for a terminal), otherwise plain indentation.
func ChainText(w io.Writer, res *chain.Result, box bool) error {
	var b strings.Builder
	for ci, c := range res.Chains {
		if ci > 0 {
			b.WriteByte('\n')
		}
		step := ""
		if c.Step >= 0 && (c.Root == nil || !strings.HasPrefix(c.Root.Name, "ProfilerStep#")) {
			step = fmt.Sprintf(" in ProfilerStep#%d", c.Step)
		}
		if c.Direction == "down" {
			fmt.Fprintf(&b, "# %s%s, down to the GPU work it launched (start offsets from the parent)\n", c.Root.Name, step)
			writeTree(&b, c.Root, "", true, true, box)
			continue
		}
		fmt.Fprintf(&b, "# %s%s, up from the GPU to the code that launched it\n", c.Kernel.Name, step)
		b.WriteString(deviceLine(c.Kernel) + "\n")
		if c.Unlinked {
			b.WriteString("  (no launch call in the trace: launched before the profiling window opened)\n")
			continue
		}
		for k, n := range c.Up {
			ind := strings.Repeat("  ", k+1)
			arrow := "<- "
			if box {
				arrow = "↑ "
			}
			b.WriteString(ind + arrow + nodeLine(n, true) + "\n")
			if k == 0 && len(n.Launched) > 1 {
				fmt.Fprintf(&b, "%s   (this call launched %d device ops)\n", ind, len(n.Launched))
			}
		}
	}
	if res.Summary != nil {
		s := res.Summary
		fmt.Fprintf(&b, "\n# summary over %d calls of %s: device work per call\n", s.Instances, strings.Join(s.Ops, ", "))
		g := &Grid{Headers: []string{"Per call", "Count", "Median queue", "Median dur", "Min dur", "Max dur", "Kind", "Name"},
			RightAlign: []bool{true, true, true, true, true, true}}
		for _, k := range s.Kernels {
			g.Rows = append(g.Rows, []string{fmt.Sprintf("%.2f", k.PerCall), itoa(k.Count), nsT(k.MedQueueNs), nsT(k.MedDurNs),
				nsT(k.MinDurNs), nsT(k.MaxDurNs), kindLabel(k.Kind), short(k.Name, 80)})
		}
		g.Write(&b, "text")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func itoa(n int) string { return fmt.Sprint(n) }

func writeTree(b *strings.Builder, n *chain.Node, prefix string, root, last, box bool) {
	branch, cont, lastBranch, space := "- ", "  ", "- ", "  "
	if box {
		branch, cont, lastBranch, space = "├─ ", "│  ", "└─ ", "   "
	}
	line, childPrefix := prefix, prefix
	if !root {
		if last {
			line += lastBranch
			childPrefix += space
		} else {
			line += branch
			childPrefix += cont
		}
	}
	b.WriteString(line + nodeLine(n, false) + "\n")
	for k, d := range n.Launched {
		arrow := "=> "
		if box {
			arrow = "⇒ "
		}
		pre := childPrefix
		if len(n.Children) > 0 {
			if box {
				pre += "│ "
			} else {
				pre += "  "
			}
		}
		if k == 20 && len(n.Launched) > 21 {
			fmt.Fprintf(b, "%s%s... %d more device ops launched by this call\n", pre, arrow, len(n.Launched)-20)
			break
		}
		b.WriteString(pre + arrow + deviceLine(d) + "\n")
	}
	for k, c := range n.Children {
		writeTree(b, c, childPrefix, false, k == len(n.Children)-1, box)
	}
}

// ChainJSON writes the chains as JSON with raw microseconds.
func ChainJSON(w io.Writer, file string, res *chain.Result) error {
	type devJSON struct {
		Name    string    `json:"name"`
		Kind    string    `json:"kind"`
		Device  int       `json:"device"`
		Stream  int64     `json:"stream"`
		StartUs float64   `json:"start_us"`
		QueueUs float64   `json:"queue_us"`
		DurUs   float64   `json:"dur_us"`
		Grid    *[3]int32 `json:"grid,omitempty"`
		Block   *[3]int32 `json:"block,omitempty"`
		Regs    *int32    `json:"registers_per_thread,omitempty"`
		Shmem   *int64    `json:"shared_memory,omitempty"`
		Bytes   *int64    `json:"bytes,omitempty"`
	}
	type nodeJSON struct {
		Name       string      `json:"name"`
		Kind       string      `json:"kind"`
		StartUs    float64     `json:"start_us"`
		OffsetUs   float64     `json:"offset_us"`
		DurUs      float64     `json:"dur_us"`
		SelfUs     *float64    `json:"self_us,omitempty"`
		Marks      []string    `json:"marks,omitempty"`
		BackwardOf string      `json:"backward_of,omitempty"`
		Launched   []devJSON   `json:"launched,omitempty"`
		Children   []*nodeJSON `json:"children,omitempty"`
	}
	dev := func(d *chain.DeviceOp) devJSON {
		j := devJSON{Name: d.Name, Kind: kindLabel(d.Kind), Device: d.Device, Stream: d.Stream, StartUs: us(d.StartNs),
			QueueUs: us(d.QueueNs), DurUs: us(d.DurNs), Grid: d.Grid, Block: d.Block}
		if d.Regs >= 0 {
			r := d.Regs
			j.Regs = &r
		}
		if d.SharedMem >= 0 {
			s := d.SharedMem
			j.Shmem = &s
		}
		if d.Bytes >= 0 {
			x := d.Bytes
			j.Bytes = &x
		}
		return j
	}
	var node func(n *chain.Node, up bool) *nodeJSON
	node = func(n *chain.Node, up bool) *nodeJSON {
		j := &nodeJSON{Name: n.Name, Kind: kindLabel(n.Kind), StartUs: us(n.StartNs), OffsetUs: us(n.OffsetNs), DurUs: us(n.DurNs),
			Marks: n.Marks, BackwardOf: n.BackwardOf}
		if !up && n.Kind.IsCPU() {
			s := us(n.SelfNs)
			j.SelfUs = &s
		}
		for _, d := range n.Launched {
			j.Launched = append(j.Launched, dev(d))
		}
		for _, c := range n.Children {
			j.Children = append(j.Children, node(c, false))
		}
		return j
	}
	type chainJSON struct {
		Direction string      `json:"direction"`
		Step      int64       `json:"step"`
		Root      *nodeJSON   `json:"root,omitempty"`
		Kernel    *devJSON    `json:"device_op,omitempty"`
		Up        []*nodeJSON `json:"up,omitempty"`
		Unlinked  bool        `json:"unlinked,omitempty"`
	}
	out := struct {
		Schema  string         `json:"schema"`
		File    string         `json:"file"`
		Pattern string         `json:"pattern"`
		Matches int            `json:"matches"`
		Chains  []chainJSON    `json:"chains"`
		Summary *chain.Summary `json:"summary,omitempty"`
	}{Schema: ChainSchema, File: file, Pattern: res.Pattern, Matches: res.Matches, Chains: []chainJSON{}, Summary: res.Summary}
	for _, c := range res.Chains {
		cj := chainJSON{Direction: c.Direction, Step: c.Step, Unlinked: c.Unlinked}
		if c.Root != nil {
			cj.Root = node(c.Root, false)
		}
		if c.Kernel != nil {
			d := dev(c.Kernel)
			cj.Kernel = &d
		}
		for _, n := range c.Up {
			cj.Up = append(cj.Up, node(n, true))
		}
		out.Chains = append(out.Chains, cj)
	}
	return JSON(w, out)
}
