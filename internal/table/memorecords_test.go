package table

import (
	"bytes"
	"fmt"
	"testing"
)

// memRecord writes one [memory] instant event of 512 bytes on CPU.
func memRecord(b *bytes.Buffer, ts int, tid int) {
	fmt.Fprintf(b, `,{"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":%d,"ts":%d,`+
		`"args":{"Addr":%d,"Bytes":512,"Total Allocated":%d,"Total Reserved":4096,"Device Type":0,"Device Id":-1}}`, tid, ts, 1000+ts, 512)
}

// TestMemoryRecordsOutsideOps: [memory] records that no op claims become
// "[memory]" rows of their own (torch's key_averages over the leftover
// records), however many they are beside the ops and wherever they sit:
// after the last op (outnumbering the ops, the crash of issue 19), before
// the first, between two top-level ops, on a thread without ops.
func TestMemoryRecordsOutsideOps(t *testing.T) {
	ops := func(b *bytes.Buffer) {
		for k := 0; k < 5; k++ {
			fmt.Fprintf(b, `,{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":%d,"dur":5,"args":{"External id":%d}}`, 100+10*k, k+1)
		}
	}
	cases := []struct {
		name    string
		records func(b *bytes.Buffer)
		outside int // records no op claims
		inside  int // records inside an aten::add
	}{
		{"many-after-the-ops", func(b *bytes.Buffer) {
			for k := 0; k < 40; k++ {
				memRecord(b, 1000+k, 1)
			}
		}, 40, 0},
		{"one-before-the-first-op", func(b *bytes.Buffer) { memRecord(b, 50, 1) }, 1, 0},
		{"one-between-two-ops", func(b *bytes.Buffer) { memRecord(b, 107, 1) }, 1, 0},
		{"on-another-thread", func(b *bytes.Buffer) { memRecord(b, 2000, 9) }, 1, 0},
		{"at-op-boundaries", func(b *bytes.Buffer) { memRecord(b, 100, 1); memRecord(b, 105, 1); memRecord(b, 106, 1) }, 1, 2},
		{"only-records", nil, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := genTrace(t, func(b *bytes.Buffer) {
				if c.records == nil { // no op at all: 30 records alone
					for k := 0; k < 30; k++ {
						memRecord(b, 10+k, 1)
					}
					return
				}
				ops(b)
				c.records(b)
			})
			outside := c.outside
			if c.records == nil {
				outside = 30
			}
			for _, o := range []Options{{}, {SortBy: "cpu_memory_usage"}, {GroupByShape: true}, {GroupByStack: 5}} {
				res, err := Compute(tr, o)
				if err != nil {
					t.Fatal(err)
				}
				var memRow, addRow *Row
				for i := range res.Rows {
					switch res.Rows[i].Name {
					case "[memory]":
						memRow = &res.Rows[i]
					case "aten::add":
						addRow = &res.Rows[i]
					}
				}
				if outside == 0 {
					if memRow != nil {
						t.Errorf("%+v: a [memory] row with %d calls, want none", o, memRow.Count)
					}
				} else if memRow == nil || memRow.Count != int64(outside) || memRow.CPUMem != int64(512*outside) {
					t.Errorf("%+v: [memory] row %+v, want %d calls of %d bytes", o, memRow, outside, 512*outside)
				}
				if c.records != nil {
					if addRow == nil || addRow.Count != 5 || addRow.CPUMem != int64(512*c.inside) {
						t.Errorf("%+v: aten::add row %+v, want 5 calls with %d bytes", o, addRow, 512*c.inside)
					}
				}
			}
		})
	}
}
