package reportview_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/tracetab/tracetab/internal/rawjson"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
	"github.com/tracetab/tracetab/internal/units"
)

// browser starts one headless Chromium for the test (no network: the
// flags keep it from calling home, and every page runs offline).
func browser(t *testing.T) context.Context {
	t.Helper()
	exe := testenv.Chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true), chromedp.WindowSize(1400, 1000))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelB(); cancelA() })
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", exe, err)
	}
	return bctx
}

// pageLog is what a page said and asked for while the test drove it.
type pageLog struct {
	mu       sync.Mutex
	errors   []string
	requests []string
	failed   []string
}

func (l *pageLog) listen(ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			l.errors = append(l.errors, "console."+string(e.Type)+": "+strings.Join(parts, " "))
		}
	case *runtime.EventExceptionThrown:
		l.errors = append(l.errors, "exception: "+(&chromedp.ExceptionError{ExceptionDetails: e.ExceptionDetails}).Error())
	case *cdplog.EventEntryAdded:
		if e.Entry.Level == cdplog.EntryLevelError {
			l.errors = append(l.errors, "log: "+e.Entry.Text+" "+e.Entry.URL)
		}
	case *network.EventRequestWillBeSent:
		l.requests = append(l.requests, e.Request.URL)
	case *network.EventLoadingFailed:
		l.failed = append(l.failed, e.ErrorText)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// openPage opens the file in a new tab, offline, and waits for the
// timeline's first drawing.
func openPage(t *testing.T, bctx context.Context, file string) (context.Context, *pageLog) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	lg := &pageLog{}
	if err := chromedp.Listen(ctx, lg.listen); err != nil {
		t.Fatal(err)
	}
	mustCall(t, ctx, network.Enable, network.EnableParams{})
	mustCall(t, ctx, cdplog.Enable, cdp.Empty{})
	mustCall(t, ctx, emulateOffline, offlineParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
	mustCall(t, ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for eval[string](t, ctx, `document.body.dataset.firstRenderMs || ""`) == "" {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the timeline was not drawn in 30s", file)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return ctx, lg
}

// emulateOffline is Network.emulateNetworkConditions (deprecated in the
// protocol in favour of a per-rule form this Chromium refuses the
// parameters of): every request of the tab fails as offline.
var emulateOffline = cdp.Command[offlineParams, cdp.Empty]{Method: "Network.emulateNetworkConditions"}

type offlineParams struct {
	Offline            bool    `json:"offline"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

func mustCall[P, R any](t *testing.T, ctx context.Context, cmd cdp.Command[P, R], p P) {
	t.Helper()
	if _, err := chromedp.Call(ctx, cmd, p); err != nil {
		t.Fatalf("%s: %v", cmd.Method, err)
	}
}

// rect is an element's box in the viewport, after scrolling it into view.
type rect struct{ X, Y, W, H float64 }

func boxOf(t *testing.T, ctx context.Context, selector string) rect {
	t.Helper()
	return eval[rect](t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({block: "center"});
		const r = e.getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`, selector))
}

func click(t *testing.T, ctx context.Context, x, y float64) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(x, y)); err != nil {
		t.Fatal(err)
	}
}

// gapsDoc is what the test reads of tracetab gaps --format json.
type gapsDoc struct {
	Breakdown *struct {
		Steps []map[string]int64 `json:"steps"`
	} `json:"step_breakdown"`
	Steps []map[string]any `json:"steps"`
}

func TestBrowser(t *testing.T) {
	bctx := browser(t)
	defer smokeEdges(t, bctx)
	artifacts := filepath.Join(testenv.Root(), ".cache", "artifacts")
	os.MkdirAll(artifacts, 0o755)
	for _, c := range pageCases(t) {
		t.Run(c.name, func(t *testing.T) {
			b := buildReport(t, c)
			ctx, lg := openPage(t, bctx, b.html)
			ms := eval[string](t, ctx, `document.body.dataset.firstRenderMs + " (script from " + document.body.dataset.scriptStartMs + ", data read in " + document.body.dataset.parseMs + ", drawn in " + document.body.dataset.drawMs + ")"`)
			st, _ := os.Stat(b.html)
			redraw := eval[float64](t, ctx, `(() => { const t0 = performance.now(); window.tracetab.zoomTo(window.tracetab.view.a, window.tracetab.view.b); return performance.now() - t0; })()`)
			t.Logf("%s: %s page, first render after %s ms; a redraw takes %.0f ms", c.name, units.Bytes(st.Size()), ms, redraw)

			checkStepChart(t, ctx, b)
			checkLanes(t, ctx, b, c.path)
			checkFirstLane(t, ctx, c.path)
			checkCellHeights(t, ctx)
			checkWheel(t, ctx)
			checkKernelClick(t, ctx, b, c.path)
			checkMemory(t, ctx, c.path)
			checkGapHover(t, ctx, b)
			checkFmtDur(t, ctx)
			checkCategories(t, ctx)
			checkModuleTree(t, ctx)
			checkWidths(t, ctx)

			// the viewport (1400x1000) from the step chart down, and from the
			// timeline down: cheap to capture, unlike the whole page
			for _, part := range []string{"steps", "timeline", "categories", "modules"} {
				eval[any](t, ctx, `document.getElementById("`+part+`").scrollIntoView({block: "start"})`)
				png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(artifacts, "report-"+c.name+"-"+part+".png"), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("screenshots: %s/report-%s*.png", artifacts, c.name)

			lg.mu.Lock()
			defer lg.mu.Unlock()
			if len(lg.errors) > 0 {
				t.Errorf("console errors: %q", lg.errors)
			}
			if len(lg.failed) > 0 {
				t.Errorf("failed requests: %q", lg.failed)
			}
			for _, u := range lg.requests {
				if u != "file://"+b.html {
					t.Errorf("the page asked for %s; it may load nothing but itself", u)
				}
			}
		})
	}
}

// smokeEdges: the pages of the edge traces (no steps, zero durations, one
// event, no events, a 2021 bare array, a CPU-only trace, more events than
// the page holds, ...) draw, zoom and take clicks without a console error
// or a request.
func smokeEdges(t *testing.T, bctx context.Context) {
	for _, c := range variantCases(t) {
		t.Run("edge-"+c.name, func(t *testing.T) {
			b := buildReport(t, c)
			ctx, lg := openPage(t, bctx, b.html)
			// zoom, pan and click about: nothing may throw
			r := boxOf(t, ctx, "#tl-canvas")
			click(t, ctx, r.X+r.W/3, r.Y+r.H/2)
			eval[any](t, ctx, `window.tracetab.zoomTo(window.tracetab.view.a, window.tracetab.view.a + 1000)`)
			click(t, ctx, r.X+r.W/2, r.Y+30)
			checkCategories(t, ctx)
			checkModuleTree(t, ctx)
			lg.mu.Lock()
			defer lg.mu.Unlock()
			if len(lg.errors) > 0 || len(lg.failed) > 0 {
				t.Errorf("console errors %q, failed requests %q", lg.errors, lg.failed)
			}
			for _, u := range lg.requests {
				if u != "file://"+b.html {
					t.Errorf("the page asked for %s", u)
				}
			}
		})
	}
}

// checkStepChart: one bar per step of the breakdown (up to the chart's
// limit), seven segments each, their numbers those of gaps --format json;
// a click on a bar shows its numbers, the same ones, formatted as the text
// output formats them.
func checkStepChart(t *testing.T, ctx context.Context, b *builtReport) {
	var g gapsDoc
	if err := json.Unmarshal(b.gapsJSON(t), &g); err != nil {
		t.Fatal(err)
	}
	if g.Breakdown == nil {
		if n := eval[int](t, ctx, `document.querySelectorAll(".step-chart .bar").length`); n != 0 {
			t.Errorf("no step breakdown in gaps, but %d bars", n)
		}
		return
	}
	type bar struct {
		Step  int64
		Total int64
		Segs  map[string]int64
	}
	bars := eval[[]bar](t, ctx, `Array.from(document.querySelectorAll(".step-chart .bar")).map(g => ({Step: +g.dataset.step, Total: +g.dataset.totalNs,
		Segs: Object.fromEntries(Array.from(g.querySelectorAll("rect.seg")).map(r => [r.dataset.role, +r.dataset.ns]))}))`)
	want := map[int64]map[string]int64{}
	for _, s := range g.Breakdown.Steps {
		want[s["step"]] = s
	}
	if len(bars) != min(len(g.Breakdown.Steps), 150) || len(bars) == 0 {
		t.Fatalf("%d bars for %d steps in the breakdown", len(bars), len(g.Breakdown.Steps))
	}
	for _, br := range bars {
		w, ok := want[br.Step]
		if !ok {
			t.Fatalf("bar of step %d, which gaps does not list", br.Step)
		}
		if br.Total != w["total_ns"] || len(br.Segs) != 7 {
			t.Errorf("step %d: total %d, %d segments; gaps says %d", br.Step, br.Total, len(br.Segs), w["total_ns"])
		}
		for k, ns := range br.Segs {
			if ns != w[k] {
				t.Errorf("step %d %s: bar %d, gaps %d", br.Step, k, ns, w[k])
			}
		}
	}
	// click the middle bar: its panel shows the gaps numbers
	mid := bars[len(bars)/2].Step
	r := boxOf(t, ctx, fmt.Sprintf(`.step-chart .bar[data-step="%d"] rect.seg[data-role="kernel_ns"]`, mid))
	bb := boxOf(t, ctx, fmt.Sprintf(`.step-chart .bar[data-step="%d"]`, mid))
	click(t, ctx, r.X+r.W/2, bb.Y+bb.H-1)
	type shown struct{ Key, Text string }
	panel := eval[[]shown](t, ctx, fmt.Sprintf(`Array.from(document.querySelectorAll('.step-detail[data-step="%d"]:not([hidden]) [data-key]')).map(e =>
		({Key: e.dataset.key + "=" + e.dataset.ns, Text: e.querySelector(".num").textContent}))`, mid))
	if len(panel) < 8 {
		t.Fatalf("step %d: after a click its panel shows %d figures: %v", mid, len(panel), panel)
	}
	var row map[string]any
	for _, s := range g.Steps {
		if int64(s["step"].(float64)) == mid {
			row = s
		}
	}
	for _, f := range panel {
		key, nsText, _ := strings.Cut(f.Key, "=")
		ns, _ := strconv.ParseInt(nsText, 10, 64)
		var wantNs int64
		if v, ok := want[mid][key]; ok {
			wantNs = v
		} else if v, ok := row[key].(float64); ok {
			wantNs = int64(v)
		} else {
			t.Errorf("step %d: the panel shows %s, which gaps does not have", mid, key)
			continue
		}
		if ns != wantNs || f.Text != units.Dur(wantNs) {
			t.Errorf("step %d %s: the panel shows %d %q; gaps --format json says %d (%s)", mid, key, ns, f.Text, wantNs, units.Dur(wantNs))
		}
	}
	// the click showed the step on the timeline
	v := eval[[]float64](t, ctx, `[+document.getElementById("tl-canvas").dataset.viewStartNs, +document.getElementById("tl-canvas").dataset.viewEndNs]`)
	if s := want[mid]["start_ns"]; v[0] > float64(s) || v[1] < float64(s+want[mid]["total_ns"]) {
		t.Errorf("step %d (%d + %d) clicked: the timeline shows %v", mid, s, want[mid]["total_ns"], v)
	}
}

// checkLanes: the lanes are DOM labels, CPU threads then GPU streams, and
// the GPU ones are the streams that hold device work in the raw JSON.
func checkLanes(t *testing.T, ctx context.Context, b *builtReport, path string) {
	kinds := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#tl-labels .lane-label")).map(e => e.dataset.kind)`)
	gpu := map[string]bool{}
	for _, e := range readRaw(t, path).Events {
		if isDeviceWork(e.Cat) {
			gpu[e.Pid+"/"+e.Tid] = true
		}
	}
	n := 0
	for _, k := range kinds {
		if k == "gpu" {
			n++
		}
	}
	if n != len(gpu) || n == 0 {
		t.Errorf("%d GPU lanes; the raw JSON has device work on %d (pid, tid) pairs", n, len(gpu))
	}
	if !slices.Contains(kinds, "cpu") || slices.Index(kinds, "gpu") < slices.Index(kinds, "cpu") {
		t.Errorf("lanes %v: want CPU threads above GPU streams", kinds)
	}
	drawn := eval[int](t, ctx, `+document.getElementById("tl-canvas").dataset.drawnEvents + +document.getElementById("tl-canvas").dataset.drawnBands`)
	if drawn == 0 {
		t.Error("the timeline drew nothing")
	}
}

// checkFirstLane: the timeline opens on a lane that matters: when the raw
// JSON has CPU ops or launch calls, the first lane holds some (not a
// thread of Python frames alone, such as threading.py's _bootstrap).
func checkFirstLane(t *testing.T, ctx context.Context, path string) {
	hasOps := false
	for _, e := range readRaw(t, path).Events {
		switch e.Cat {
		case "cpu_op", "Operator", "operator", "cuda_runtime", "Runtime", "cuda_driver":
			hasOps = true
		}
	}
	if !hasOps {
		return
	}
	kinds := eval[[]string](t, ctx, `window.tracetab.laneEventKinds(0)`)
	if !slices.ContainsFunc(kinds, func(k string) bool {
		return k == trace.KindCPUOp.String() || k == trace.KindRuntime.String() || k == trace.KindDriver.String()
	}) {
		t.Errorf("the first lane holds %v: want the ops of a launching thread", kinds)
	}
}

// checkCellHeights: no cell of the report's tables is taller than three
// lines of its text (a long kernel name is its label, the full name on
// hover).
func checkCellHeights(t *testing.T, ctx context.Context) {
	worst := eval[[]any](t, ctx, `(() => {
		let worst = [0, ""];
		document.querySelectorAll("table td, table th").forEach(td => {
			if (td.querySelector("svg")) return;
			const cs = getComputedStyle(td);
			let lh = parseFloat(cs.lineHeight);
			if (!(lh > 0)) lh = 1.2 * parseFloat(cs.fontSize);
			const pad = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
			const lines = (td.getBoundingClientRect().height - pad) / lh;
			if (lines > worst[0]) worst = [lines, td.textContent.slice(0, 80)];
		});
		return worst;
	})()`)
	if lines, _ := worst[0].(float64); lines > 3.5 {
		t.Errorf("a table cell %.1f lines tall: %q", lines, worst[1])
	}
}

// checkWheel: a wheel turn over the timeline zooms in around the pointer.
func checkWheel(t *testing.T, ctx context.Context) {
	span := func() float64 {
		v := eval[[]float64](t, ctx, `[+document.getElementById("tl-canvas").dataset.viewStartNs, +document.getElementById("tl-canvas").dataset.viewEndNs]`)
		return v[1] - v[0]
	}
	before := span()
	r := boxOf(t, ctx, "#tl-canvas")
	// Input.dispatchMouseEvent with deltaX written out (cdproto leaves out
	// a zero, which a wheel event must have)
	wheel := cdp.Command[wheelParams, cdp.Empty]{Method: "Input.dispatchMouseEvent"}
	mustCall(t, ctx, wheel, wheelParams{Type: string(input.DispatchMouseEventTypeMouseWheel), X: r.X + r.W/2, Y: r.Y + 10, DeltaX: 0, DeltaY: -400})
	after := span()
	if !(after < before*0.8) {
		t.Errorf("a wheel turn up: the view went from %.0f ns to %.0f ns, want it to zoom in", before, after)
	}
}

type wheelParams struct {
	Type   string  `json:"type"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	DeltaX float64 `json:"deltaX"`
	DeltaY float64 `json:"deltaY"`
}

// pageData is the part of the page's embedded data the test reads.
type pageData struct {
	StartNs int64 `json:"start_ns"`
	Strings []string
	Kinds   []string
	Lanes   []struct {
		Kind  string
		Label string
		Rows  int
		S     []int64
		D     []int64
		N     []int32
		R     []int16
		L     []int32
	}
}

var dataRe = regexp.MustCompile(`(?s)<script type="application/json" id="tracetab-data">(.*?)</script>`)

func readPageData(t *testing.T, file string) *pageData {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := dataRe.FindSubmatch(b)
	if m == nil {
		t.Fatal("no data in the page")
	}
	var d pageData
	if err := json.Unmarshal(m[1], &d); err != nil {
		t.Fatal(err)
	}
	for k := range d.Lanes {
		s := int64(0)
		for i, x := range d.Lanes[k].S {
			s += x
			d.Lanes[k].S[i] = s
		}
	}
	return &d
}

// checkKernelClick: a click on the longest launched kernel selects it and
// highlights its launch call: the runtime call with its correlation id in
// the raw JSON.
func checkKernelClick(t *testing.T, ctx context.Context, b *builtReport, path string) {
	d := readPageData(t, b.html)
	lane, idx := -1, -1
	for k, ln := range d.Lanes {
		if ln.Kind != "gpu" {
			continue
		}
		for i := range ln.S {
			if ln.L[i] >= 0 && ln.R[i] == 0 && (lane < 0 || ln.D[i] > d.Lanes[lane].D[idx]) {
				lane, idx = k, i
			}
		}
	}
	if lane < 0 {
		t.Fatal("no kernel with its launch call in the page")
	}
	ln := d.Lanes[lane]
	s, dur := ln.S[idx], ln.D[idx]
	eval[any](t, ctx, fmt.Sprintf(`window.tracetab.zoomTo(%d, %d)`, s-dur, s+2*dur))
	c := boxOf(t, ctx, "#tl-canvas")
	view := eval[[]float64](t, ctx, `[+document.getElementById("tl-canvas").dataset.viewStartNs, +document.getElementById("tl-canvas").dataset.viewEndNs]`)
	label := eval[rect](t, ctx, fmt.Sprintf(`(() => { const r = document.querySelector('#tl-labels .lane-label[data-lane="%d"]').getBoundingClientRect();
		return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`, lane))
	x := c.X + (float64(s)+float64(dur)/2-view[0])/(view[1]-view[0])*c.W
	click(t, ctx, x, label.Y+2+6)
	type sel struct{ Name, Kind, Start, LaunchName, LaunchStart, LaunchPage string }
	got := eval[sel](t, ctx, `(() => { const d = document.getElementById("selection").dataset;
		return {Name: d.name || "", Kind: d.kind || "", Start: d.startNs || "", LaunchName: d.launchName || "", LaunchStart: d.launchStartNs || "",
			LaunchPage: d.launchPage || ""}; })()`)
	// the panel's button brings the launch call into view: it is outlined
	btn := boxOf(t, ctx, "#selection button")
	click(t, ctx, btn.X+btn.W/2, btn.Y+btn.H/2)
	lit := strings.Split(eval[string](t, ctx, `document.getElementById("tl-canvas").dataset.highlighted`), ",")
	if got.LaunchPage == "" || !slices.Contains(lit, got.LaunchPage) {
		t.Errorf("after showing the chain, the outlined events are %v; the launch call is %s", lit, got.LaunchPage)
	}
	if got.Name != d.Strings[ln.N[idx]] || got.Start != strconv.FormatInt(s, 10) || !slices.Contains([]string{"kernel", "gpu_memcpy", "gpu_memset"}, got.Kind) {
		t.Fatalf("clicked the kernel %s at %d: the selection is %+v", d.Strings[ln.N[idx]], s, got)
	}
	// the truth from the raw JSON: the kernel at that start, its
	// correlation id, the runtime call with the same id
	r := readRaw(t, path)
	var kernel *rawEvent
	for i := range r.Events {
		e := &r.Events[i]
		if isDeviceWork(e.Cat) && e.Name == got.Name && e.Ts-r.OriginNs == s && e.Dur == dur {
			kernel = e
		}
	}
	if kernel == nil || !kernel.HasCorr {
		t.Fatalf("no kernel %s at %d ns from the origin in the raw JSON", got.Name, s)
	}
	var launches []string
	for _, e := range r.Events {
		if isLaunchCat(e.Cat) && e.HasCorr && e.Corr == kernel.Corr {
			launches = append(launches, e.Name+"@"+strconv.FormatInt(e.Ts-r.OriginNs, 10))
		}
	}
	if len(launches) != 1 || launches[0] != got.LaunchName+"@"+got.LaunchStart {
		t.Errorf("kernel %s (correlation %d): the page highlights %s at %s; the raw JSON's launch calls with that id: %v",
			got.Name, kernel.Corr, got.LaunchName, got.LaunchStart, launches)
	}
}

// checkFmtDur: the page's duration text is units.Dur's.
func checkFmtDur(t *testing.T, ctx context.Context) {
	vals := []int64{0, 1, 499, 500, 999, 1000, 1499, 1500, 55680, 999999, 999999499, 999999500, 1000000, 1234567, 122149000, 1234000000, 999999999999, -1500, -1}
	js, _ := json.Marshal(vals)
	got := eval[[]string](t, ctx, `(`+string(js)+`).map(window.tracetab.fmtDur)`)
	for i, v := range vals {
		if got[i] != units.Dur(v) {
			t.Errorf("the page formats %d ns as %q, tracetab as %q", v, got[i], units.Dur(v))
		}
	}
}

// checkMemory: one memory lane per device of the raw [memory] records,
// its peak the largest "Total Allocated" of the device's records.
func checkMemory(t *testing.T, ctx context.Context, path string) {
	peaks := map[string]int64{}
	for _, e := range readRaw(t, path).Memory {
		key := rawjson.ID(e.Args["Device Type"]) + ":" + rawjson.ID(e.Args["Device Id"])
		v, _ := e.Args["Total Allocated"].(json.Number)
		n, _ := v.Int64()
		if p, ok := peaks[key]; !ok || n > p {
			peaks[key] = n
		}
	}
	titles := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#tl-labels .lane-label[data-kind="memory"]')).map(e => e.title)`)
	if len(titles) != len(peaks) {
		t.Fatalf("%d memory lanes; the raw JSON has [memory] records of %d devices", len(titles), len(peaks))
	}
	for _, p := range peaks {
		found := false
		for _, title := range titles {
			found = found || strings.Contains(title, "peak "+units.Bytes(p)+" allocated")
		}
		if !found {
			t.Errorf("no memory lane says peak %s (the raw JSON's largest Total Allocated of a device): %q", units.Bytes(p), titles)
		}
	}
}

// TestBrowserBench reports (does not assert) the page of the trace
// TRACETAB_BENCH_FILE names (make bench's 1 GB trace): its size, the time
// tracetab took to write it, and the time from the navigation to the
// timeline's first drawing in Chromium.
func TestBrowserBench(t *testing.T) {
	path := os.Getenv("TRACETAB_BENCH_FILE")
	if path == "" {
		t.Skip("TRACETAB_BENCH_FILE not set")
	}
	bctx := browser(t)
	out := filepath.Join(t.TempDir(), "bench.html")
	t0 := time.Now()
	run(t, 0, "report", path, "-o", out)
	took := time.Since(t0)
	st, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 3 {
		ctx, lg := openPage(t, bctx, out)
		ms := eval[string](t, ctx, `document.body.dataset.firstRenderMs + " ms (script from " + document.body.dataset.scriptStartMs + " ms, data read in " + document.body.dataset.parseMs + " ms, drawn in " + document.body.dataset.drawMs + " ms)"`)
		// the fastest of 5 redraws of the whole trace, and of a zoom into 1/100 of it
		redraw := eval[[]float64](t, ctx, `(() => { const v = window.tracetab.view, a = v.a, b = v.b, best = [1e9, 1e9];
			for (let i = 0; i < 5; i++) { let t0 = performance.now(); window.tracetab.zoomTo(a, b); best[0] = Math.min(best[0], performance.now() - t0);
				t0 = performance.now(); window.tracetab.zoomTo(a + (b - a) * 0.42, a + (b - a) * 0.43); best[1] = Math.min(best[1], performance.now() - t0); }
			return best; })()`)
		drawn := eval[string](t, ctx, `document.getElementById("tl-canvas").dataset.drawnEvents + " events, " + document.getElementById("tl-canvas").dataset.drawnBands + " cells"`)
		t.Logf("%s: page %s written in %v; load %d: first render after %s; a redraw of the whole trace %.0f ms, of 1/100 of it %.0f ms (%s)",
			filepath.Base(path), units.Bytes(st.Size()), took.Round(time.Millisecond), k+1, ms, redraw[0], redraw[1], drawn)
		lg.mu.Lock()
		if len(lg.errors) > 0 || len(lg.failed) > 0 {
			t.Errorf("console errors %q, failed requests %q", lg.errors, lg.failed)
		}
		lg.mu.Unlock()
	}
}

// checkGapHover: over the largest GPU gap the pointer shows its length and
// cause as gaps --format json gives them.
func checkGapHover(t *testing.T, ctx context.Context, b *builtReport) {
	var g struct {
		Gaps []struct {
			Device   int     `json:"device"`
			StartNs  int64   `json:"start_ns"`
			LenNs    int64   `json:"length_ns"`
			Cause    string  `json:"cause"`
			CausePct float64 `json:"cause_pct"`
			Where    string  `json:"where"`
		} `json:"gaps"`
	}
	if err := json.Unmarshal(b.gapsJSON(t), &g); err != nil {
		t.Fatal(err)
	}
	k := -1
	for i, gp := range g.Gaps {
		if gp.Where == "between ops" && (k < 0 || gp.LenNs > g.Gaps[k].LenNs) {
			k = i
		}
	}
	if k < 0 {
		return
	}
	gp := g.Gaps[k]
	eval[any](t, ctx, `window.tracetab.select(-1)`)
	eval[any](t, ctx, fmt.Sprintf(`window.tracetab.zoomTo(%d, %d)`, gp.StartNs, gp.StartNs+gp.LenNs))
	c := boxOf(t, ctx, "#tl-canvas")
	lane := eval[rect](t, ctx, fmt.Sprintf(`(() => { const l = Array.from(document.querySelectorAll('#tl-labels .lane-label[data-kind="gpu"]'))
		.find(e => window.tracetab.laneDevice(+e.dataset.lane) === %d); const r = l.getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`, gp.Device))
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, c.X+c.W/2, lane.Y+lane.H/2)); err != nil {
		t.Fatal(err)
	}
	tip := eval[string](t, ctx, `document.getElementById("tl-tip").hidden ? "" : document.getElementById("tl-tip").textContent`)
	want := fmt.Sprintf("GPU %d idle %s", gp.Device, units.Dur(gp.LenNs))
	if !strings.HasPrefix(tip, want) || !strings.Contains(tip, gp.Cause+" "+units.Pct(gp.CausePct)+"%") {
		t.Errorf("over the largest gap (%s, %s %.2f%%) the pointer shows %q", want, gp.Cause, gp.CausePct, tip)
	}
}
