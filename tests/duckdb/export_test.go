package duckdb_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

type opJSON struct {
	Name        string `json:"name"`
	Device      bool   `json:"device_op"`
	UserAnn     bool   `json:"user_annotation"`
	Calls       int64  `json:"calls"`
	SelfCPUNs   int64  `json:"self_cpu_ns"`
	CPUTotalNs  int64  `json:"cpu_total_ns"`
	SelfCUDANs  int64  `json:"self_cuda_ns"`
	CUDATotalNs int64  `json:"cuda_total_ns"`
}

type tableJSON struct {
	Rows []opJSON `json:"rows"`
}

func opKey(name string, device, ann bool) string { return fmt.Sprintf("%s|%v|%v", name, device, ann) }

// TestOpsEqualTable: per trace, the ops rows of the whole trace equal
// tracetab table --format json row by row, and self CUDA (and CPU) summed
// per op in SQL equals the table's.
func TestOpsEqualTable(t *testing.T) {
	t.Parallel()
	dir, traces, ids := exported(t)
	db := openDB(t, dir)
	for _, tr := range traces {
		var tab tableJSON
		jsonOf(t, &tab, "table", tr, "--limit", "-1")
		got := rows(t, db, `SELECT name, device_op, user_annotation, calls, self_cpu_ns, cpu_total_ns, self_cuda_ns, cuda_total_ns
			FROM ops WHERE trace_id = ? AND step IS NULL ORDER BY table_row`, ids[tr])
		if len(got) != len(tab.Rows) {
			t.Errorf("%s: %d op rows in Parquet, table has %d", filepath.Base(tr), len(got), len(tab.Rows))
			continue
		}
		for i, r := range tab.Rows {
			want := []string{r.Name, strconv.FormatBool(r.Device), strconv.FormatBool(r.UserAnn), itoa(r.Calls), itoa(r.SelfCPUNs),
				itoa(r.CPUTotalNs), itoa(r.SelfCUDANs), itoa(r.CUDATotalNs)}
			if strings.Join(got[i], "\x00") != strings.Join(want, "\x00") {
				t.Errorf("%s row %d: Parquet %v, table %v", filepath.Base(tr), i, got[i], want)
				break
			}
		}
		sums := map[string][2]int64{}
		for _, r := range tab.Rows {
			k := opKey(r.Name, r.Device, r.UserAnn)
			s := sums[k]
			sums[k] = [2]int64{s[0] + r.SelfCUDANs, s[1] + r.SelfCPUNs}
		}
		sql := rows(t, db, `SELECT name, device_op, user_annotation, sum(self_cuda_ns), sum(self_cpu_ns)
			FROM ops WHERE trace_id = ? AND step IS NULL GROUP BY ALL`, ids[tr])
		if len(sql) != len(sums) {
			t.Errorf("%s: %d ops summed in SQL, %d in the table", filepath.Base(tr), len(sql), len(sums))
		}
		for _, r := range sql {
			k := opKey(r[0], r[1] == "true", r[2] == "true")
			if w := sums[k]; r[3] != itoa(w[0]) || r[4] != itoa(w[1]) {
				t.Errorf("%s %s: self CUDA, CPU summed in SQL %s, %s; table %d, %d", filepath.Base(tr), r[0], r[3], r[4], w[0], w[1])
			}
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestOpsPerStepEqualTableSteps: the ops rows of each step equal tracetab
// table --steps N. A step's rows are computed on its own events, so the
// one figure that may differ is the GPU annotation span's: its kineto
// margin (1 ns before its first device op, 2 ns longer) is judged from
// the device op that follows it on its stream, which can be a later
// step's; such rows may differ by at most 2 ns per call, and are counted.
func TestOpsPerStepEqualTableSteps(t *testing.T) {
	t.Parallel()
	dir, traces, ids := exported(t)
	db := openDB(t, dir)
	steps, margins := 0, 0
	for _, tr := range traces {
		for _, s := range rows(t, db, `SELECT step FROM steps WHERE trace_id = ? ORDER BY step`, ids[tr]) {
			var tab tableJSON
			jsonOf(t, &tab, "table", tr, "--limit", "-1", "--steps", s[0])
			got := rows(t, db, `SELECT name, device_op, user_annotation, calls, self_cpu_ns, cpu_total_ns, self_cuda_ns, cuda_total_ns
				FROM ops WHERE trace_id = ? AND step = ? ORDER BY table_row`, ids[tr], s[0])
			steps++
			if len(got) != len(tab.Rows) {
				t.Errorf("%s step %s: %d op rows in Parquet, table --steps has %d", filepath.Base(tr), s[0], len(got), len(tab.Rows))
				continue
			}
			for i, r := range tab.Rows {
				g := got[i]
				if g[0] != r.Name || g[1] != strconv.FormatBool(r.Device) || g[2] != strconv.FormatBool(r.UserAnn) || g[3] != itoa(r.Calls) ||
					g[4] != itoa(r.SelfCPUNs) || g[5] != itoa(r.CPUTotalNs) {
					t.Errorf("%s step %s row %d: Parquet %v, table --steps %+v", filepath.Base(tr), s[0], i, g, r)
					break
				}
				dSelf, _ := strconv.ParseInt(g[6], 10, 64)
				dTot, _ := strconv.ParseInt(g[7], 10, 64)
				if dSelf == r.SelfCUDANs && dTot == r.CUDATotalNs {
					continue
				}
				if r.Device && r.UserAnn && abs(dSelf-r.SelfCUDANs) <= 2*r.Calls && abs(dTot-r.CUDATotalNs) <= 2*r.Calls {
					margins++
					continue
				}
				t.Errorf("%s step %s row %d (%s): CUDA %s/%s in Parquet, table --steps %d/%d", filepath.Base(tr), s[0], i, r.Name, g[6], g[7], r.SelfCUDANs, r.CUDATotalNs)
			}
		}
	}
	if steps == 0 {
		t.Fatal("no step checked")
	}
	t.Logf("%d steps of %d traces checked; %d GPU annotation rows within the margin", steps, len(traces), margins)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestKernelsEqualByKernel: the kernel rows equal tracetab table --by
// kernel, and the kernels, memcpys and memsets counted and summed in SQL
// over events equal those of the raw JSON.
func TestKernelsEqualByKernel(t *testing.T) {
	t.Parallel()
	dir, traces, ids := exported(t)
	db := openDB(t, dir)
	for _, tr := range traces {
		var kv struct {
			Kernels []struct {
				Name    string `json:"name"`
				Calls   int64  `json:"calls"`
				TotalNs int64  `json:"total_ns"`
				MinNs   int64  `json:"min_ns"`
				MaxNs   int64  `json:"max_ns"`
			} `json:"kernels"`
		}
		jsonOf(t, &kv, "table", tr, "--by", "kernel", "--limit", "-1")
		got := rows(t, db, `SELECT name, calls, total_ns, min_ns, max_ns FROM kernels WHERE trace_id = ? AND step IS NULL ORDER BY total_ns DESC, name`, ids[tr])
		want := map[string]string{}
		for _, k := range kv.Kernels {
			want[k.Name] = fmt.Sprint(k.Calls, k.TotalNs, k.MinNs, k.MaxNs)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d kernel rows in Parquet, --by kernel has %d", filepath.Base(tr), len(got), len(want))
		}
		for _, g := range got {
			if w := want[g[0]]; w != strings.Join(g[1:], " ") {
				t.Errorf("%s %s: Parquet %v, --by kernel %s", filepath.Base(tr), g[0], g[1:], w)
			}
		}
		evs := rawEvents(t, tr)
		if evs == nil {
			continue
		}
		raw := map[string][2]int64{}
		for _, e := range evs {
			cat, ok := deviceWorkCats[e.Cat]
			if e.Ph != "X" || !ok {
				continue
			}
			if _, ok := decNs(e.Ts); !ok {
				continue
			}
			d, _ := decNs(e.Dur)
			r := raw[cat]
			raw[cat] = [2]int64{r[0] + 1, r[1] + max(d, 0)}
		}
		for _, g := range rows(t, db, `SELECT category, count(*), sum(dur_ns) FROM events WHERE trace_id = ? AND category IN ('kernel', 'gpu_memcpy', 'gpu_memset') GROUP BY 1`, ids[tr]) {
			if r := raw[g[0]]; g[1] != itoa(r[0]) || g[2] != itoa(r[1]) {
				t.Errorf("%s %s: %s events, %s ns in SQL; the raw JSON has %d, %d", filepath.Base(tr), g[0], g[1], g[2], r[0], r[1])
			}
			delete(raw, g[0])
		}
		for cat, r := range raw {
			t.Errorf("%s: the raw JSON has %d %s events, SQL none", filepath.Base(tr), r[0], cat)
		}
	}
}

// TestEventsCountEqualsInfo: the events rows of each trace number info's
// complete events, and the raw JSON's "ph":"X" events with a usable ts.
func TestEventsCountEqualsInfo(t *testing.T) {
	t.Parallel()
	dir, traces, ids := exported(t)
	db := openDB(t, dir)
	for _, tr := range traces {
		var in struct {
			Events int64 `json:"events"`
			Memory int64 `json:"memory_events"`
		}
		jsonOf(t, &in, "info", tr)
		n := one(t, db, `SELECT count(*) FROM events WHERE trace_id = ?`, ids[tr])
		if n != itoa(in.Events) {
			t.Errorf("%s: %s events rows, info says %d", filepath.Base(tr), n, in.Events)
		}
		if m := one(t, db, `SELECT events FROM traces WHERE trace_id = ?`, ids[tr]); m != n {
			t.Errorf("%s: traces.events %s, events rows %s", filepath.Base(tr), m, n)
		}
		if m := one(t, db, `SELECT count(*) FROM memory WHERE trace_id = ?`, ids[tr]); m != itoa(in.Memory) {
			t.Errorf("%s: %s memory rows, info says %d", filepath.Base(tr), m, in.Memory)
		}
		evs := rawEvents(t, tr)
		if evs == nil {
			continue
		}
		var x, mem, memBytes int64
		for _, e := range evs {
			_, okTs := decNs(e.Ts)
			switch {
			case e.Ph == "X" && okTs:
				x++
			case (e.Ph == "i" || e.Ph == "I") && (e.Name == "[memory]" || e.Name == "[OutOfMemory]") && okTs:
				mem++
				b, _ := strconv.ParseInt(string(e.Args.Bytes), 10, 64)
				memBytes += b
			}
		}
		if n != itoa(x) {
			t.Errorf("%s: %s events rows, the raw JSON has %d complete events", filepath.Base(tr), n, x)
		}
		if m := one(t, db, `SELECT count(*) || ' ' || coalesce(sum(bytes), 0) FROM memory WHERE trace_id = ?`, ids[tr]); m != fmt.Sprint(mem, memBytes) {
			t.Errorf("%s: memory rows and bytes %s, the raw JSON %d %d", filepath.Base(tr), m, mem, memBytes)
		}
	}
}
