package categories

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

// tlRow is one row of TraceLens's kernel_summary.csv: the kernels of one
// name launched by one parent op, with TraceLens's category of the op.
type tlRow struct {
	category, op, kernel string
	sumNs                float64
	count                int
}

func readTraceLens(t *testing.T, path string) []tlRow {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var rows []tlRow
	for _, r := range recs[1:] {
		sum, err1 := strconv.ParseFloat(r[col["Kernel duration (µs)_sum"]], 64)
		n, err2 := strconv.Atoi(r[col["Kernel duration (µs)_count"]])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: bad row %q", path, r)
		}
		row := tlRow{category: r[col["Parent op category"]], kernel: r[col["Kernel name"]], sumNs: sum * 1000, count: n}
		if c, ok := col["Parent cpu_op"]; ok {
			row.op = r[c]
		}
		rows = append(rows, row)
	}
	return rows
}

// tlWant is the category tracetab files a TraceLens row under, by the
// rules docs/output.md states: TraceLens's own category where the two
// name the same thing; its "other" where the op is an attention op
// (TraceLens's registry has no model for _flash_attention_forward) or a
// softmax (TraceLens files it nowhere, tracetab with the norms) or the
// kernel names itself elementwise (TraceLens reads kernel names only for
// an op it does not know and only in at::native's own kernels, so
// arange's elementwise_kernel_with_index stays "other"); Inductor's
// ops (TraceLens's "triton") by their kernel: pointwise kernels
// elementwise, reductions reduction/norm. "" where the row says nothing
// to check (no parent op: TraceLens's empty and "runtime" rows).
func tlWant(r tlRow) opclass.Category {
	switch c := r.category; {
	case c == "GEMM":
		return opclass.CatGEMM
	case strings.HasPrefix(c, "CONV"):
		return opclass.CatConv
	case strings.HasPrefix(c, "SDPA"):
		return opclass.CatAttention
	case strings.HasPrefix(c, "NORM"), c == "reduce":
		return opclass.CatReduction
	case c == "elementwise":
		return opclass.CatElementwise
	case c == "triton" && strings.HasPrefix(r.kernel, "triton_poi_"):
		return opclass.CatElementwise
	case c == "triton" && (strings.HasPrefix(r.kernel, "triton_red_") || strings.HasPrefix(r.kernel, "triton_per_")):
		return opclass.CatReduction
	case c == "other" && strings.Contains(r.op, "attention"):
		return opclass.CatAttention
	case c == "other" && strings.Contains(r.op, "softmax"):
		return opclass.CatReduction
	case c == "other" && strings.Contains(r.kernel, "elementwise"):
		return opclass.CatElementwise
	case c == "other":
		return opclass.CatOther
	}
	return ""
}

// TestAgainstTraceLens: on every trace with a TraceLens kernel_summary
// oracle, each of its rows (parent op, kernel name) holds the same
// kernels as tracetab's (count and summed duration), and tracetab files
// them under the category tlWant names; the rows without a parent op are
// checked for time and count alone. Logs the per-category totals of both.
func TestAgainstTraceLens(t *testing.T) {
	shared := testenv.Shared(t)
	dirs, _ := filepath.Glob(filepath.Join(shared, "traces", "oracles", "tracelens", "*"))
	checked, rowsChecked := 0, 0
	for _, d := range dirs {
		name := filepath.Base(d)
		csvPath := filepath.Join(d, "kernel_summary.csv")
		if _, err := os.Stat(csvPath); err != nil {
			continue
		}
		p := filepath.Join(shared, "traces", "TraceLens__"+name+".json.gz")
		tr := open(t, p)
		type key struct{ op, kernel string }
		type agg struct {
			ns   int64
			n    int
			cats map[opclass.Category]bool
		}
		ours := map[key]*agg{}
		for i := 0; i < tr.NumEvents(); i++ {
			if tr.Ev(i).Kind != trace.KindKernel {
				continue // TraceLens's kernel summary has no memcpy or memset
			}
			k := key{LaunchingOp(tr, i), tr.NameOf(i)}
			a := ours[k]
			if a == nil {
				a = &agg{cats: map[opclass.Category]bool{}}
				ours[k] = a
			}
			a.ns += max(tr.Ev(i).Dur, 0)
			a.n++
			a.cats[Classify(tr, i)] = true
		}
		tlByCat := map[string]float64{}
		for _, r := range readTraceLens(t, csvPath) {
			tlByCat[r.category] += r.sumNs / 1000
			a := ours[key{r.op, r.kernel}]
			if a == nil {
				t.Errorf("%s: TraceLens has %d x %q under %q, tracetab none", name, r.count, r.kernel, r.op)
				continue
			}
			rowsChecked++
			if a.n != r.count || math.Abs(float64(a.ns)-r.sumNs) > float64(r.count)+1 {
				t.Errorf("%s: %q under %q: %d kernels, %d ns; TraceLens %d, %.0f ns", name, r.kernel, r.op, a.n, a.ns, r.count, r.sumNs)
			}
			want := tlWant(r)
			if want == "" {
				continue
			}
			if len(a.cats) != 1 || !a.cats[want] {
				t.Errorf("%s: %q under %q (TraceLens %q): tracetab files it under %v, want %q", name, r.kernel, r.op, r.category, a.cats, want)
			}
		}
		res := Build(tr, nil)
		var ourLine []string
		for k, c := range res.Cells {
			if c.Kernels > 0 {
				ourLine = append(ourLine, string(opclass.Categories[k])+"="+strconv.FormatFloat(float64(c.DeviceNs)/1000, 'f', 3, 64))
			}
		}
		var tlLine []string
		for c, us := range tlByCat {
			tlLine = append(tlLine, c+"="+strconv.FormatFloat(us, 'f', 3, 64))
		}
		t.Logf("%s (us):\n  tracetab  %s\n  TraceLens %s", name, strings.Join(ourLine, " "), strings.Join(tlLine, " "))
		checked++
	}
	if checked < 6 || rowsChecked < 100 {
		t.Fatalf("checked %d traces, %d rows against TraceLens: want the 6 oracles and every row", checked, rowsChecked)
	}
}
