package parse

import (
	"bytes"
	"testing"

	jsoniter "github.com/json-iterator/go"

	"github.com/tracetab/tracetab/internal/gen"
)

// jsEvent is the least an event view needs: what jsoniter's Iterator is
// asked to read per event in BenchmarkParseVsJsoniter.
type jsEvent struct {
	ph, cat, name       string
	pid, tid            int64
	ts, dur             float64
	external, corr, flw int64
}

// jsoniterEvents reads every traceEvents element with jsoniter's
// Iterator into jsEvents (strings copied, args' External id and
// correlation read, every other field skipped), nothing else: no
// interning, no links, none of the lenient repairs the hand parser makes.
func jsoniterEvents(data []byte) []jsEvent {
	it := jsoniter.ParseBytes(jsoniter.ConfigDefault, data)
	var evs []jsEvent
	num := func(it *jsoniter.Iterator) int64 {
		if it.WhatIsNext() == jsoniter.NumberValue {
			return int64(it.ReadFloat64())
		}
		it.Skip()
		return 0
	}
	for key := it.ReadObject(); key != ""; key = it.ReadObject() {
		if key != "traceEvents" {
			it.Skip()
			continue
		}
		for it.ReadArray() {
			var e jsEvent
			for f := it.ReadObject(); f != ""; f = it.ReadObject() {
				switch f {
				case "ph":
					e.ph = it.ReadString()
				case "cat":
					e.cat = it.ReadString()
				case "name":
					e.name = it.ReadString()
				case "pid":
					e.pid = num(it)
				case "tid":
					e.tid = num(it)
				case "ts":
					e.ts = it.ReadFloat64()
				case "dur":
					e.dur = it.ReadFloat64()
				case "id":
					e.flw = num(it)
				case "args":
					for a := it.ReadObject(); a != ""; a = it.ReadObject() {
						switch a {
						case "External id":
							e.external = num(it)
						case "correlation":
							e.corr = num(it)
						default:
							it.Skip()
						}
					}
				default:
					it.Skip()
				}
			}
			evs = append(evs, e)
		}
	}
	if it.Error != nil {
		panic(it.Error)
	}
	return evs
}

// BenchmarkParseVsJsoniter: the hand parser (one worker, no extras, so
// both read about the same fields on one core) beside jsoniter's
// Iterator over the same generated Kineto-style trace, in memory. The
// figures are quoted at the top of parser.go.
func BenchmarkParseVsJsoniter(b *testing.B) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Steps: 40, Layers: 8, Kineto: gen.KinetoStyle()}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.Run("hand", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			t, err := Read(bytes.NewReader(data), "bench", Options{Sequential: true, NoExtras: true})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(t.NumEvents()), "events/op")
		}
	})
	b.Run("jsoniter", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			b.ReportMetric(float64(len(jsoniterEvents(data))), "events/op")
		}
	})
}
