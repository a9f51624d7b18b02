package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/tracetab/tracetab/internal/gaps"
	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/parse"
)

// TestGapRowsSideBySide: the gap rows made by two goroutines
// (gapRowsBeside: the caller the even batches, another the odd ones) are
// the rows made one batch after the other on one, in the same batches;
// after runs once; an emit that fails stops both, its error is returned
// and after still runs. The race stage of make test runs it under -race.
func TestGapRowsSideBySide(t *testing.T) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Steps: 1200, Layers: 8}); err != nil {
		t.Fatal(err)
	}
	tr, err := parse.Read(&buf, "gen.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := analyzeGaps(tr)
	n := rep.NumGaps()
	if n <= 4*batchRows {
		t.Fatalf("%d gaps: fewer than five batches, the second goroutine never reuses its batch", n)
	}
	c := &common{id: "x", rank: ptr(int64(3))}
	// one goroutine: each batch made and written in turn
	var want [][]byte
	for lo := 0; lo < n; lo += batchRows {
		b := makeGapRows(c, rep, lo, min(n, lo+batchRows), nil)
		want = append(want, rowsJSON(t, b.rows))
	}
	var got [][]byte
	afters := 0
	err = gapRowsBeside(c, rep, func(r []GapRow) error {
		got = append(got, rowsJSON(t, r))
		return nil
	}, func() { afters++ })
	if err != nil || afters != 1 {
		t.Fatalf("gapRowsBeside: %v, after ran %d times", err, afters)
	}
	if len(got) != len(want) {
		t.Fatalf("%d batches, want %d", len(got), len(want))
	}
	for k := range want {
		if !bytes.Equal(got[k], want[k]) {
			t.Fatalf("batch %d differs from the one goroutine's", k)
		}
	}
	// the rows as gaps lists them: every gap once, in the list's order
	var all []gaps.Gap
	rep.EachGap(func(g *gaps.Gap) error { all = append(all, *g); return nil })
	var rows []GapRow
	for _, b := range got {
		var r []GapRow
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r...)
	}
	if len(rows) != len(all) {
		t.Fatalf("%d rows, %d gaps", len(rows), len(all))
	}
	for k, g := range all {
		if r := rows[k]; r.StartNs != g.StartNs || r.LengthNs != g.LenNs || r.Device != int32(g.Device) || *r.Rank != 3 {
			t.Fatalf("row %d: %+v, gap %+v", k, r, g)
		}
	}
	// a failing writer
	stop := errors.New("disk full")
	afters, calls := 0, 0
	err = gapRowsBeside(c, rep, func([]GapRow) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	}, func() { afters++ })
	if !errors.Is(err, stop) || calls != 2 || afters != 1 {
		t.Fatalf("failing writer: %v after %d calls, after ran %d times", err, calls, afters)
	}
}

func rowsJSON(t *testing.T, r []GapRow) []byte {
	t.Helper()
	b, err := json.Marshal(r) // the optional values followed: a copy
	if err != nil {
		t.Fatal(err)
	}
	return b
}
