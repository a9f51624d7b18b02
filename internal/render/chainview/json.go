package chainview

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/chain"
)

// JSONSink streams chains as JSON: one object per node or frame on
// its own line, written as the walk reaches it, so memory does not grow
// with the output. Nodes of a down walk form a flat list (id, parent,
// depth): no nesting, whatever the trace's depth.
type JSONSink struct {
	w        *bufio.Writer
	file     string
	c        *chain.ChainInfo
	chains   int
	items    int  // nodes or frames written in this chain
	openNode bool // a node's "launched" array is open
	devs     int  // device ops written into it
	summary  bool
	b        []byte
}

// NewJSON returns a JSON sink for file.
func NewJSON(w io.Writer, file string) *JSONSink {
	return &JSONSink{w: bufio.NewWriterSize(w, 64<<10), file: file}
}

// jsonStr appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func jsonStr(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\\ufffd"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

type jw struct{ b []byte }

func (j *jw) key(k string) {
	if n := len(j.b); n > 0 {
		switch j.b[n-1] {
		case '{', '[':
		case ',':
			j.b = append(j.b, ' ')
		default:
			j.b = append(j.b, ", "...)
		}
	}
	j.b = jsonStr(j.b, k)
	j.b = append(j.b, ": "...)
}
func (j *jw) str(k, v string) { j.key(k); j.b = jsonStr(j.b, v) }
func (j *jw) i64(k string, v int64) {
	j.key(k)
	j.b = strconv.AppendInt(j.b, v, 10)
}
func (j *jw) num(k string, v int)      { j.i64(k, int64(v)) }
func (j *jw) null(k string)            { j.key(k); j.b = append(j.b, "null"...) }
func (j *jw) boolean(k string, v bool) { j.key(k); j.b = strconv.AppendBool(j.b, v) }
func (j *jw) raw(k, v string)          { j.key(k); j.b = append(j.b, v...) }
func (j *jw) optI64(k string, v int64, ok bool) {
	if ok {
		j.i64(k, v)
	} else {
		j.null(k)
	}
}
func (j *jw) optStr(k, v string) {
	if v == "" {
		j.null(k)
	} else {
		j.str(k, v)
	}
}
func (j *jw) strs(k string, v []string) {
	j.key(k)
	j.b = append(j.b, '[')
	for i, s := range v {
		if i > 0 {
			j.b = append(j.b, ", "...)
		}
		j.b = jsonStr(j.b, s)
	}
	j.b = append(j.b, ']')
}
func (j *jw) id(k string, v chain.ID) {
	if v.IsNum {
		j.i64(k, v.Num)
	} else {
		j.str(k, v.Text)
	}
}
func (j *jw) triple(k string, v *[3]int32) {
	if v == nil {
		j.null(k)
		return
	}
	j.key(k)
	j.b = append(j.b, '[')
	for i, x := range v {
		if i > 0 {
			j.b = append(j.b, ", "...)
		}
		j.b = strconv.AppendInt(j.b, int64(x), 10)
	}
	j.b = append(j.b, ']')
}

func devJSON(b []byte, d *chain.DeviceOp) []byte {
	j := jw{b: append(b, '{')}
	j.str("name", d.Name)
	j.str("kind", kindLabel(d.Kind))
	j.num("device", d.Device)
	j.i64("stream", d.Stream)
	j.optI64("correlation", d.Corr, d.HasCorr)
	j.i64("start_ns", d.StartNs)
	j.optI64("queue_ns", d.QueueNs, d.HasLaunch)
	j.i64("dur_ns", d.DurNs)
	j.triple("grid", d.Grid)
	j.triple("block", d.Block)
	j.optI64("registers_per_thread", int64(d.Regs), d.Regs >= 0)
	j.optI64("shared_memory_bytes", d.SharedMemB, d.SharedMemB >= 0)
	j.optI64("bytes", d.Bytes, d.Bytes >= 0)
	return append(j.b, '}')
}

func (t *JSONSink) write(b []byte) { t.w.Write(b) }

// Begin writes the document's head.
func (t *JSONSink) Begin(s *chain.Selection) error {
	j := jw{b: append(t.b[:0], '{')}
	j.str("schema", ChainSchema)
	j.str("file", t.file)
	j.str("mode", s.Mode)
	if s.Mode == chain.ModePattern {
		j.str("pattern", s.Pattern)
	} else {
		j.null("pattern")
	}
	j.boolean("regex", s.Regex)
	j.str("direction", s.Dir.String())
	j.optI64("step", s.Step, s.Step >= 0)
	j.num("steps", s.Steps)
	j.num("instances_in_trace", s.Total)
	j.num("instances", len(s.Instances))
	j.strs("names", s.Names)
	j.num("names_count", s.NameCount)
	j.num("nested_instances", s.Nested)
	j.key("chains")
	t.b = append(j.b, "[\n"...)
	t.write(t.b)
	return nil
}

// BeginChain opens a chain object.
func (t *JSONSink) BeginChain(c *chain.ChainInfo) error {
	t.c, t.items, t.openNode = c, 0, false
	j := jw{b: t.b[:0]}
	if t.chains > 0 {
		j.b = append(j.b, ",\n"...)
	}
	t.chains++
	j.b = append(j.b, "  {"...)
	j.num("instance", c.Instance)
	j.num("of", c.Of)
	j.str("direction", c.Direction.String())
	j.optI64("step", c.Step, c.Step >= 0)
	if c.Device != nil {
		j.key("device_op")
		j.b = devJSON(j.b, c.Device)
		j.boolean("unlinked", c.Unlinked)
	} else {
		j.null("device_op")
		j.boolean("unlinked", false)
	}
	if c.Direction == chain.Down {
		j.key("nodes")
	} else {
		j.key("frames")
	}
	t.b = append(j.b, "[\n"...)
	t.write(t.b)
	return nil
}

func (t *JSONSink) closeNode() {
	if t.openNode {
		t.w.WriteString("]}")
		t.openNode = false
	}
}

// Item writes a node, a frame or a device op of the open node.
func (t *JSONSink) Item(it *chain.Item) error {
	switch it.Kind {
	case chain.ItemDevice:
		b := t.b[:0]
		if t.devs > 0 {
			b = append(b, ", "...)
		}
		t.devs++
		t.b = devJSON(b, it.Dev)
		t.write(t.b)
		return nil
	case chain.ItemMoreDevice:
		return nil // launched_count says how many there are
	case chain.ItemHop:
		if t.c.Direction == chain.Down {
			return nil // the nodes that follow carry cross_thread
		}
	}
	t.closeNode()
	j := jw{b: t.b[:0]}
	if t.items > 0 {
		j.b = append(j.b, ",\n"...)
	}
	t.items++
	j.b = append(j.b, "    {"...)
	if t.c.Direction == chain.Down {
		j.num("id", it.ID)
		if it.Parent >= 0 {
			j.num("parent", it.Parent)
		} else {
			j.null("parent")
		}
		j.num("depth", it.Depth)
	}
	j.str("name", it.Name)
	j.str("kind", kindLabel(it.EvKind))
	j.id("pid", it.Thread.Pid)
	j.id("tid", it.Thread.Tid)
	j.i64("start_ns", it.StartNs)
	if t.c.Direction == chain.Down {
		j.i64("offset_ns", it.OffsetNs)
	} else {
		j.i64("child_offset_ns", it.OffsetNs)
	}
	j.i64("dur_ns", it.DurNs)
	j.optI64("self_ns", it.SelfNs, it.HasSelf)
	if t.c.Direction == chain.Down {
		j.boolean("cross_thread", it.CrossThread)
	} else {
		j.boolean("found_by_time", it.Kind == chain.ItemHop)
		j.boolean("cross_thread", it.Kind == chain.ItemHop && it.OtherThread)
	}
	j.optStr("backward_of", it.BackwardOf)
	if it.Marks == nil {
		it.Marks = []string{}
	}
	j.strs("marks", it.Marks)
	j.num("launched_count", it.Launched)
	if t.c.Direction == chain.Down {
		j.key("launched")
		j.b = append(j.b, '[')
		t.openNode, t.devs = true, 0
	} else {
		j.b = append(j.b, '}')
	}
	t.b = j.b
	t.write(t.b)
	return nil
}

// EndChain closes the chain with what the bounds left out.
func (t *JSONSink) EndChain(c *chain.ChainInfo) error {
	t.closeNode()
	j := jw{b: t.b[:0]}
	if t.items > 0 {
		j.b = append(j.b, '\n')
	}
	j.b = append(j.b, "  ]"...)
	j.num("omitted_lines", c.OmittedLines)
	j.num("hidden_below_depth", c.HiddenBelowDepth)
	j.b = append(j.b, '}')
	t.b = j.b
	t.write(t.b)
	return nil
}

// Summary writes the summary object; it comes after "chains".
func (t *JSONSink) Summary(s *chain.Summary) error {
	j := jw{b: append(t.b[:0], "\n  ], "...)}
	j.b = j.b[:len(j.b)-2]
	j.key("summary")
	j.b = append(j.b, '{')
	j.str("direction", s.Dir.String())
	j.num("instances", s.Instances)
	j.num("calls", s.Calls)
	j.num("nested_instances", s.Nested)
	j.num("unlinked", s.Unlinked)
	j.key("rows")
	j.b = append(j.b, "[\n"...)
	for i, r := range s.Rows {
		if i > 0 {
			j.b = append(j.b, ",\n"...)
		}
		j.b = append(j.b, "    {"...)
		j.str("name", r.Name)
		j.str("kind", kindLabel(r.Kind))
		if s.Dir == chain.Up {
			j.optStr("launch_call", r.LaunchCall)
			j.optStr("op", r.Op)
		}
		j.num("count", r.Count)
		if s.Dir == chain.Down {
			j.raw("per_call", strconv.FormatFloat(math.Round(r.PerCall*100)/100, 'f', -1, 64))
		}
		j.i64("total_dur_ns", r.TotalDurNs)
		if r.MedQueueNs != nil {
			j.i64("median_queue_ns", *r.MedQueueNs)
		} else {
			j.null("median_queue_ns")
		}
		j.i64("median_dur_ns", r.MedDurNs)
		j.i64("min_dur_ns", r.MinDurNs)
		j.i64("max_dur_ns", r.MaxDurNs)
		j.b = append(j.b, '}')
	}
	j.b = append(j.b, "\n  ]}"...)
	t.b = j.b
	t.write(t.b)
	t.summary = true
	return nil
}

// End closes the document and flushes.
func (t *JSONSink) End(s *chain.Selection, f *chain.Footer) error {
	j := jw{b: append(t.b[:0], ',')}
	if !t.summary {
		j.b = j.b[:0]
		if t.chains > 0 {
			j.b = append(j.b, '\n')
		}
		j.b = append(j.b, "  ]"...)
		j.null("summary")
	}
	j.num("omitted_instances", f.OmittedInstances)
	j.num("omitted_lines", f.OmittedLines)
	if f.MaxLines > 0 {
		j.num("max_lines", f.MaxLines)
	} else {
		j.null("max_lines")
	}
	j.b = append(j.b, "}\n"...)
	t.b = j.b
	t.write(t.b)
	return t.w.Flush()
}
