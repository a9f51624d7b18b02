package dataset

import (
	"runtime"
	"testing"

	"github.com/tracetab/tracetab/internal/export"
)

// TestReadRowsAllocation: reading a file of one row allocates for a few
// rows, not for a buffer of 1,024 (8.9 MB a ranks file: ranks --dataset
// over a 1,024-rank export took 60 s); measured 0.2 MB.
func TestReadRowsAllocation(t *testing.T) {
	if raceOn {
		t.Skip("allocation counts differ under -race")
	}
	dir, _ := exportJob(t)
	files, err := Files(dir, export.DatasetRanks, export.DatasetTrend)
	if err != nil {
		t.Fatal(err)
	}
	const bound = 1 << 20
	for _, ds := range []string{export.DatasetRanks, export.DatasetTrend} {
		p := files[ds][0]
		read := func() {
			var err error
			if ds == export.DatasetRanks {
				_, err = ReadRows[export.RankRow](p, ds)
			} else {
				_, err = ReadRows[export.TrendRow](p, ds)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		read()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		for range 5 {
			read()
		}
		runtime.ReadMemStats(&b)
		if per := (b.TotalAlloc - a.TotalAlloc) / 5; per > bound {
			t.Errorf("%s: %d bytes allocated to read a file of one row (bound %d)", ds, per, bound)
		}
	}
}
