package reportview_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// checkCategories: the category chart draws a bar per step in step order,
// top to bottom, each with device work as wide as its share of the axis
// (non-zero), its segments side by side, each with a hover title; the
// table beside it lists the categories.
func checkCategories(t *testing.T, ctx context.Context) {
	eval[any](t, ctx, `document.getElementById("categories") && document.getElementById("categories").scrollIntoView({block: "start"})`)
	type bar struct {
		Step, Ns           float64
		X, Y, W, H         float64
		Segs, Titles, Zero int
		Gap                float64 // the largest gap between adjacent segments, px
	}
	bars := eval[[]bar](t, ctx, `Array.from(document.querySelectorAll(".category-chart .cbar")).map(g => {
		const segs = Array.from(g.querySelectorAll("rect.seg")).map(r => r.getBoundingClientRect());
		const x0 = Math.min(...segs.map(r => r.left)), x1 = Math.max(...segs.map(r => r.right));
		let gap = 0;
		for (let i = 1; i < segs.length; i++) gap = Math.max(gap, Math.abs(segs[i].left - segs[i-1].right));
		return {Step: +g.dataset.step, Ns: +g.dataset.ns, X: segs.length ? x0 : 0, Y: segs.length ? segs[0].top : 0, W: segs.length ? x1 - x0 : 0,
			H: segs.length ? segs[0].height : 0, Segs: segs.length, Gap: gap, Zero: segs.filter(r => !(r.width > 0)).length,
			Titles: Array.from(g.querySelectorAll("rect.seg > title")).filter(e => e.textContent.length > 0).length};
	})`)
	// the chart is drawn when the trace has device time
	hasWork := eval[bool](t, ctx, `(JSON.parse(document.getElementById("tracetab-data").textContent).categories || {device_ns: 0}).device_ns > 0`)
	if !hasWork {
		if len(bars) != 0 {
			t.Errorf("a trace without device work: %d category bars", len(bars))
		}
		return
	}
	if len(bars) == 0 {
		t.Fatal("the trace has device work, but the category chart has no bar")
	}
	var widest bar
	for _, b := range bars {
		if b.Ns > widest.Ns {
			widest = b
		}
	}
	if !(widest.W > 100) {
		t.Errorf("the longest bar (step %.0f, %.0f ns) is %.1f px wide", widest.Step, widest.Ns, widest.W)
	}
	for i, b := range bars {
		if i > 0 && !(b.Step > bars[i-1].Step && b.Y > bars[i-1].Y) {
			t.Errorf("bar %d: step %.0f at y %.1f after step %.0f at y %.1f: want steps in order, top to bottom", i, b.Step, b.Y, bars[i-1].Step, bars[i-1].Y)
		}
		if b.Ns == 0 {
			continue
		}
		// as wide as its share of the longest, to a pixel per segment
		want := widest.W * b.Ns / widest.Ns
		if b.Zero > 0 || !(b.W > 0) || b.H <= 0 || b.W < want-float64(b.Segs)-1 || b.W > want+float64(b.Segs)+1 {
			t.Errorf("step %.0f (%.0f ns): %.1f px wide (want %.1f), %d of %d segments of no width", b.Step, b.Ns, b.W, want, b.Zero, b.Segs)
		}
		if b.Titles != b.Segs || b.Gap > 0.5 {
			t.Errorf("step %.0f: %d segments, %d with a title, %.1f px between two", b.Step, b.Segs, b.Titles, b.Gap)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll(".cat-table tr.cat-row").length`); n < 2 {
		t.Errorf("the category table has %d rows", n)
	}
}

// checkModuleTree: with module frames, the tree's first levels show and a
// click on a closed module's row opens it (its children show), a second
// closes it; without, the section says so in one line.
func checkModuleTree(t *testing.T, ctx context.Context) {
	has := eval[bool](t, ctx, `!!document.querySelector("#modules .mod-tree")`)
	if !has {
		if txt := eval[string](t, ctx, `(document.getElementById("modules") || {textContent: ""}).textContent`); !strings.Contains(txt, "no nn.Module frames") {
			t.Errorf("no module tree, and the section says %q", txt)
		}
		return
	}
	if n := eval[int](t, ctx, `Array.from(document.querySelectorAll(".mod-row")).filter(e => e.checkVisibility()).length`); n == 0 {
		t.Fatal("no row of the module tree shows")
	}
	sel := `#modules details.mod:not([open])`
	if !eval[bool](t, ctx, `(() => { const d = document.querySelector("`+sel+`"); return !!d && d.parentElement.closest("details:not([open])") === null; })()`) {
		t.Log("no closed module with its row showing: nothing to open")
		return
	}
	child := func() bool {
		return eval[bool](t, ctx, `(() => { const c = document.querySelector("#modules details.mod.under-test").querySelector(":scope > .mod-row ~ *");
			return c.checkVisibility() && c.getBoundingClientRect().height > 0; })()`)
	}
	eval[any](t, ctx, `document.querySelector("`+sel+`").classList.add("under-test")`)
	if child() {
		t.Fatal("a closed module's children show")
	}
	r := boxOf(t, ctx, `#modules details.mod.under-test > summary`)
	click(t, ctx, r.X+r.W/4, r.Y+r.H/2)
	if !eval[bool](t, ctx, `document.querySelector("#modules details.mod.under-test").open`) || !child() {
		t.Error("a click on a closed module's row did not show its children")
	}
	click(t, ctx, r.X+r.W/4, r.Y+r.H/2)
	if eval[bool](t, ctx, `document.querySelector("#modules details.mod.under-test").open`) {
		t.Error("a second click did not close it")
	}
	eval[any](t, ctx, `document.querySelector("#modules details.mod.under-test").classList.remove("under-test")`)
}

// checkWidths: at 1280 and 800 px nothing makes the page wider than the
// window (a wide table scrolls in its own box), and the category chart
// and the module tree fit their section.
func checkWidths(t *testing.T, ctx context.Context) {
	defer mustCall(t, ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
	for _, w := range []int64{1280, 800} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 900)); err != nil {
			t.Fatal(err)
		}
		wide := eval[[]string](t, ctx, fmt.Sprintf(`(() => {
			const out = [], W = %d;
			if (document.documentElement.scrollWidth > W) out.push("the page is " + document.documentElement.scrollWidth + " px wide");
			document.querySelectorAll(".category-chart, .cat-table, .mod-tree, .mod-row, #categories, #modules").forEach(e => {
				const r = e.getBoundingClientRect();
				if (r.right > W + 0.5 || r.left < -0.5) out.push((e.id || e.className.baseVal || e.className) + " spans " + r.left.toFixed(1) + " to " + r.right.toFixed(1));
			});
			return out.slice(0, 5);
		})()`, w))
		if len(wide) > 0 {
			t.Errorf("at %d px: %q", w, wide)
		}
	}
}
