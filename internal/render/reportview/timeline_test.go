package reportview_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/render/reportview"
)

// fullData is the page's embedded data, decoded.
type fullData struct {
	StartNs int64 `json:"start_ns"`
	EndNs   int64 `json:"end_ns"`
	Strings []string
	Kinds   []string
	Events  int
	Written int
	Detail  *struct {
		StartNs int64 `json:"start_ns"`
		EndNs   int64 `json:"end_ns"`
		Step    int64
	}
	Lanes []struct {
		Kind    string
		Label   string
		Device  int
		Stream  int64
		Rows    int
		S, D    []int64
		N, X, L []int32
		R       []int16
		K       []uint16
		page0   int // its first event's page position
	}
	Levels []struct {
		BinNs  int64 `json:"bin_ns"`
		FromNs int64 `json:"from_ns"`
		ToNs   int64 `json:"to_ns"`
		Bands  []struct {
			Lane, Row int
			B         []int64
			P         []int8
			C         []int32
		}
	}
}

func readFullData(t *testing.T, file string) *fullData {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := dataRe.FindSubmatch(b)
	if m == nil {
		t.Fatal("no data in the page")
	}
	var d fullData
	if err := json.Unmarshal(m[1], &d); err != nil {
		t.Fatal(err)
	}
	page := 0
	for k := range d.Lanes {
		ln := &d.Lanes[k]
		undelta(ln.S)
		ln.page0 = page
		page += len(ln.S)
	}
	for _, lv := range d.Levels {
		for _, b := range lv.Bands {
			undelta(b.B)
		}
	}
	return &d
}

func undelta(a []int64) {
	s := int64(0)
	for i, x := range a {
		s += x
		a[i] = s
	}
}

func evKey(name string, s, d int64) string { return fmt.Sprintf("%s@%d+%d", name, s, d) }

// TestTimelineRaw checks the timeline's data against the raw JSON on the
// pages of the sample and the real traces:
//   - every kernel, memcpy and memset written one by one whose launch call
//     (by correlation id) is in the trace links to it, and that event is
//     the launch call: its name and start;
//   - the events the lanes hold are the raw device work plus the raw CPU
//     events of the CPU threads; no more are written than the budget;
//   - the coarsest level's density cells of each single-row GPU stream are
//     those of its raw device ops that are not written or narrower than a
//     bin: per bin the share of it they cover (whole percent, rounded up)
//     and how many touch it;
//   - when the page holds a detail step, every raw event of the lanes
//     inside its window is written.
func TestTimelineRaw(t *testing.T) {
	for _, c := range pageCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b := buildReport(t, c)
			d := readFullData(t, b.html)
			r := readRaw(t, c.path)
			origin := r.OriginNs
			gpuTracks := map[string]bool{}
			calls := map[int64][]rawEvent{}
			for _, e := range r.Events {
				if isDeviceWork(e.Cat) {
					gpuTracks[e.Pid+"/"+e.Tid] = true
				}
				if isLaunchCat(e.Cat) && e.HasCorr {
					calls[e.Corr] = append(calls[e.Corr], e)
				}
			}
			// every written event by key, and which lane it is on
			type at struct{ lane, i int }
			written := map[string]at{}
			for k, ln := range d.Lanes {
				for i := range ln.S {
					written[evKey(d.Strings[ln.N[i]], ln.S[i], ln.D[i])] = at{k, i}
				}
			}
			pageEv := func(p int32) (string, int64) {
				for _, ln := range d.Lanes {
					if int(p) >= ln.page0 && int(p) < ln.page0+len(ln.S) {
						i := int(p) - ln.page0
						return d.Strings[ln.N[i]], ln.S[i]
					}
				}
				t.Fatalf("page position %d out of range", p)
				return "", 0
			}
			// links and lane membership of the raw device ops
			links, total := 0, 0
			laneOf := map[string]int{}
			for _, e := range r.Events {
				cpuKind := strings.Contains("cpu_op user_annotation python_function cuda_runtime cuda_driver overhead Operator Runtime", e.Cat) && e.Cat != ""
				if isDeviceWork(e.Cat) || (cpuKind && !gpuTracks[e.Pid+"/"+e.Tid]) {
					total++
				}
				if !isDeviceWork(e.Cat) {
					continue
				}
				w, ok := written[evKey(e.Name, e.Ts-origin, e.Dur)]
				if !ok {
					continue
				}
				laneOf[e.Pid+"/"+e.Tid] = w.lane
				ln := d.Lanes[w.lane]
				cs := calls[e.Corr]
				if !e.HasCorr || len(cs) != 1 {
					continue
				}
				if _, launchWritten := written[evKey(cs[0].Name, cs[0].Ts-origin, cs[0].Dur)]; !launchWritten {
					continue // its thread is not drawn
				}
				if ln.L[w.i] < 0 {
					t.Errorf("%s at %d: written, its launch call %s too, but no link", e.Name, e.Ts-origin, cs[0].Name)
					continue
				}
				name, start := pageEv(ln.L[w.i])
				if name != cs[0].Name || start != cs[0].Ts-origin {
					t.Errorf("%s at %d links to %s at %d; the raw launch call is %s at %d", e.Name, e.Ts-origin, name, start, cs[0].Name, cs[0].Ts-origin)
				}
				links++
			}
			if d.Events != total {
				t.Errorf("the lanes hold %d events; the raw JSON has %d device ops and CPU events off the GPU tracks", d.Events, total)
			}
			budget := reportview.DefaultLimits.MaxEvents
			for k, a := range c.args {
				if a == "--max-events" {
					budget, _ = strconv.Atoi(c.args[k+1])
				}
			}
			if d.Written > d.Events || d.Written > budget {
				t.Errorf("%d written of %d, the budget is %d", d.Written, d.Events, budget)
			}
			if len(c.args) > 0 && (d.Detail == nil || d.Written == d.Events || len(d.Levels) < 2 || d.Levels[len(d.Levels)-1].FromNs == d.StartNs) {
				t.Errorf("under limits %v: detail %v, %d of %d written, %d levels: want a detail step, bands and finer levels within it", c.args, d.Detail, d.Written, d.Events, len(d.Levels))
			}
			if links == 0 {
				t.Error("no link checked")
			}
			// level 0 cells of single-row GPU lanes
			lv := d.Levels[0]
			cellsChecked := 0
			for key, k := range laneOf {
				if d.Lanes[k].Rows != 1 {
					continue
				}
				type acc struct {
					cov   int64
					count int32
				}
				want := map[int64]*acc{}
				w := lv.BinNs
				for _, e := range r.Events {
					if !isDeviceWork(e.Cat) || e.Pid+"/"+e.Tid != key {
						continue
					}
					s, end := e.Ts-origin, e.Ts-origin+e.Dur
					if _, ok := written[evKey(e.Name, s, e.Dur)]; ok && e.Dur >= w {
						continue
					}
					if end < lv.FromNs || s >= lv.ToNs || (end == lv.FromNs && e.Dur > 0) {
						continue
					}
					s, end = max(s, lv.FromNs), min(end, lv.ToNs)
					for bin := (s - lv.FromNs) / w; lv.FromNs+bin*w < end || (bin == (s-lv.FromNs)/w); bin++ {
						lo, hi := lv.FromNs+bin*w, lv.FromNs+(bin+1)*w
						if want[bin] == nil {
							want[bin] = &acc{}
						}
						want[bin].cov += min(end, hi) - max(s, lo)
						want[bin].count++
					}
				}
				got := map[int64][2]int64{}
				for _, bd := range lv.Bands {
					if bd.Lane == k && bd.Row == 0 {
						for j := range bd.B {
							got[bd.B[j]] = [2]int64{int64(bd.P[j]), int64(bd.C[j])}
						}
					}
				}
				if len(got) != len(want) {
					t.Errorf("lane %s: %d cells at level 0, raw %d", d.Lanes[k].Label, len(got), len(want))
				}
				for bin, a := range want {
					p := min(max((a.cov*100+w-1)/w, 1), 100)
					if g := got[bin]; g != [2]int64{p, int64(a.count)} {
						t.Errorf("lane %s bin %d: %d%% of %d events, raw %d%% of %d", d.Lanes[k].Label, bin, g[0], g[1], p, a.count)
					}
					cellsChecked++
				}
			}
			// the detail step is whole
			if dt := d.Detail; dt != nil {
				missing := 0
				for _, e := range r.Events {
					s := e.Ts - origin
					if !isDeviceWork(e.Cat) || s >= dt.EndNs || s+e.Dur <= dt.StartNs {
						continue
					}
					if _, ok := written[evKey(e.Name, s, e.Dur)]; !ok {
						missing++
					}
				}
				if missing > 0 {
					t.Errorf("%d device ops inside the detail step %d are not written", missing, dt.Step)
				}
			}
			t.Logf("%d links, %d level-0 cells checked; %d of %d events written; %d levels", links, cellsChecked, d.Written, d.Events, len(d.Levels))
		})
	}
}
