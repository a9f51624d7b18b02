package duckdb_test

import (
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// TestMemoryOpFromRawJSON: each [memory] record's op is the innermost
// cpu_op on its own thread whose [ts, ts+dur] holds the record's time,
// found here from the raw JSON; and its bytes and totals are the record's.
func TestMemoryOpFromRawJSON(t *testing.T) {
	t.Parallel()
	dir, traces, ids := exported(t)
	db := openDB(t, dir)
	checked := 0
	for _, tr := range traces {
		evs := rawEvents(t, tr)
		if evs == nil {
			continue
		}
		type op struct {
			s, e int64
			idx  int
			name string
		}
		ops := map[string][]op{} // pid/tid -> ops
		type rec struct {
			ts    int64
			lane  string
			bytes string
		}
		var recs []rec
		for i, e := range evs {
			ts, ok := decNs(e.Ts)
			if !ok {
				continue
			}
			lane := idText(e.Pid) + "/" + idText(e.Tid)
			switch {
			case e.Ph == "X" && (e.Cat == "cpu_op" || e.Cat == "Operator"):
				d, _ := decNs(e.Dur)
				ops[lane] = append(ops[lane], op{ts, ts + max(d, 0), i, e.Name})
			case (e.Ph == "i" || e.Ph == "I") && (e.Name == "[memory]" || e.Name == "[OutOfMemory]"):
				recs = append(recs, rec{ts, lane, string(e.Args.Bytes)})
			}
		}
		if len(recs) == 0 {
			continue
		}
		got := rows(t, db, `SELECT coalesce(op_name, 'NULL'), bytes FROM memory WHERE trace_id = ? ORDER BY record`, ids[tr])
		if len(got) != len(recs) {
			t.Fatalf("%s: %d memory rows, %d records in the raw JSON", filepath.Base(tr), len(got), len(recs))
		}
		for _, l := range ops {
			sort.Slice(l, func(a, b int) bool { return l[a].s < l[b].s })
		}
		bad := 0
		for k, r := range recs {
			l := ops[r.lane]
			best := -1
			// from the last op starting at or before the record, back to
			// the first that starts earlier than a containing one found
			for j := sort.Search(len(l), func(j int) bool { return l[j].s > r.ts }) - 1; j >= 0; j-- {
				o := l[j]
				if best >= 0 && o.s < l[best].s {
					break
				}
				if o.e < r.ts {
					continue
				}
				if best < 0 || o.e < l[best].e || o.e == l[best].e && o.idx > l[best].idx {
					best = j
				}
			}
			want := "NULL"
			if best >= 0 {
				want = ops[r.lane][best].name
			}
			if got[k][0] != want || got[k][1] != r.bytes {
				if bad++; bad <= 5 {
					t.Errorf("%s record %d: op %q, %s bytes in Parquet; the raw JSON gives %q, %s", filepath.Base(tr), k, got[k][0], got[k][1], want, r.bytes)
				}
			}
		}
		checked += len(recs)
		t.Logf("%s: %d records, %d with an op", filepath.Base(tr), len(recs), len(recs)-countNull(got))
	}
	if checked == 0 {
		t.Fatal("no trace with [memory] records was checked")
	}
}

func countNull(r [][]string) int {
	n := 0
	for _, x := range r {
		if x[0] == "NULL" {
			n++
		}
	}
	return n
}

// idText is a pid or tid by its value: "25738" and 25738 are one thread.
func idText(raw []byte) string {
	s := string(raw)
	if u, err := strconv.Unquote(s); err == nil {
		if _, err := strconv.ParseInt(u, 10, 64); err == nil {
			return u
		}
	}
	return s
}
