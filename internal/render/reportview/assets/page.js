// tracetab report: draws the data tracetab wrote into this page. It
// computes no figure: durations, shares and histograms come from tracetab;
// this script decodes the lists, lays out the lanes, picks the level of
// detail for the zoom and draws.
(function () {
  'use strict';
  var t0 = performance.now();
  var D = JSON.parse(document.getElementById('tracetab-data').textContent);
  var tParsed = performance.now();
  var ROW = 16, LANE_PAD = 4, MEM_H = 56, AXIS_H = 22;

  // Durations exactly as tracetab formats them (units.Dur): three
  // decimals of us, ms or s, rounded half away from zero.
  function fmtDur(ns) {
    var neg = ns < 0, a = Math.abs(ns), q = a, unit = 'us';
    if (a >= 1e6) {
      q = Math.floor((a + 500) / 1e3); unit = 'ms';
      if (q >= 1e6) { q = Math.floor((a + 500000) / 1e6); unit = 's'; }
    }
    if (q === 0) neg = false;
    var frac = String(q % 1000);
    while (frac.length < 3) frac = '0' + frac;
    return (neg ? '-' : '') + Math.floor(q / 1000) + '.' + frac + unit;
  }
  function fmtBytes(n) {
    if (n >= 1073741824) return (n / 1073741824).toFixed(2) + ' GiB';
    if (n >= 1048576) return (n / 1048576).toFixed(1) + ' MiB';
    if (n >= 1024) return (n / 1024).toFixed(1) + ' KiB';
    return n + ' B';
  }
  function undelta(a) {
    var out = new Array(a.length), s = 0;
    for (var i = 0; i < a.length; i++) { s += a[i]; out[i] = s; }
    return out;
  }
  // the first index in sorted a with a[i] >= x
  function lowerBound(a, x) {
    var lo = 0, hi = a.length;
    while (lo < hi) { var m = (lo + hi) >> 1; if (a[m] < x) lo = m + 1; else hi = m; }
    return lo;
  }

  // Decode: each lane's events by row (in start order, with the running
  // largest end for searching), and every written event by page position.
  var events = [];
  D.lanes.forEach(function (ln, li) {
    ln.s = undelta(ln.s || []);
    ln.byRow = [];
    for (var r = 0; r < ln.rows; r++) ln.byRow.push({ idx: [], start: [], maxEnd: [] });
    for (var i = 0; i < ln.s.length; i++) {
      var row = ln.byRow[ln.r[i]];
      var end = ln.s[i] + ln.d[i];
      row.idx.push(i); row.start.push(ln.s[i]);
      row.maxEnd.push(row.maxEnd.length ? Math.max(row.maxEnd[row.maxEnd.length - 1], end) : end);
      events.push({ lane: li, i: i });
    }
    ln.expanded = false;
  });
  D.levels.forEach(function (lv) {
    lv.byKey = {};
    lv.bands.forEach(function (b) { b.b = undelta(b.b); lv.byKey[b.lane + ':' + b.row] = b; });
  });
  D.memory.forEach(function (m) { m.t = undelta(m.t); });
  // the steps come by start; the running largest end finds the first in view
  var stepEnds = [];
  D.steps.forEach(function (s, k) { stepEnds.push(k ? Math.max(stepEnds[k - 1], s.end_ns) : s.end_ns); });
  var tDecoded = performance.now();
  function ev(page) { var e = events[page], ln = D.lanes[e.lane], i = e.i; return { page: page, lane: ln, laneIndex: e.lane, i: i, s: ln.s[i], d: ln.d[i], kind: D.kinds[ln.k[i]], name: D.strings[ln.n[i]], shape: ln.x[i] >= 0 ? D.strings[ln.x[i]] : '', link: ln.l[i], row: ln.r[i] }; }

  var canvas = document.getElementById('tl-canvas'), ctx = canvas.getContext('2d');
  var labels = document.getElementById('tl-labels'), tip = document.getElementById('tl-tip'), selBox = document.getElementById('selection');
  var view = { a: D.start_ns, b: D.end_ns }, sel = -1, layout = [];

  // Lanes top to bottom: CPU threads, GPU streams, memory curves.
  function doLayout() {
    layout = [];
    var y = AXIS_H;
    labels.innerHTML = '';
    D.lanes.forEach(function (ln, li) {
      var rows = ln.expanded ? ln.rows : 1, h = rows * ROW + LANE_PAD;
      layout.push({ lane: ln, index: li, y: y, h: h, rows: rows });
      var el = document.createElement('div');
      el.className = 'lane-label' + (ln.expanded ? ' expanded' : '');
      el.dataset.lane = li; el.dataset.kind = ln.kind; el.dataset.rows = ln.rows;
      el.style.top = y + 'px'; el.style.height = h + 'px'; el.style.lineHeight = ROW + 'px';
      el.textContent = ln.label;
      el.title = ln.label + (ln.rows > 1 ? ' (click: nesting, ' + ln.rows + ' levels)' : '') +
        (ln.shortest_ns > 0 ? '\nevents shorter than ' + fmtDur(ln.shortest_ns) + (D.detail ? ' outside ProfilerStep#' + D.detail.step : '') + ' are in the bands only' : '');
      el.addEventListener('click', function () { if (ln.rows > 1) { ln.expanded = !ln.expanded; doLayout(); draw(); } });
      labels.appendChild(el);
      y += h;
    });
    D.memory.forEach(function (m, mi) {
      layout.push({ memory: m, y: y, h: MEM_H });
      var el = document.createElement('div');
      el.className = 'lane-label'; el.dataset.kind = 'memory'; el.dataset.memory = mi;
      el.style.top = y + 'px'; el.style.height = MEM_H + 'px';
      el.textContent = 'memory ' + m.device; el.title = m.peak_text;
      labels.appendChild(el);
      y += MEM_H;
    });
    var h = Math.max(y + 4, 60);
    labels.style.height = h + 'px'; canvas.style.height = h + 'px';
  }

  function px() { return canvas.clientWidth; }
  function xOf(ns) { return (ns - view.a) / (view.b - view.a) * px(); }
  function nsAt(x) { return view.a + x / px() * (view.b - view.a); }

  // The level of detail for this zoom: of the levels that cover the whole
  // view, the finest whose bins are still at least a pixel wide.
  function pickLevel() {
    var v = (view.b - view.a) / px(), a = Math.max(view.a, D.start_ns), b = Math.min(view.b, D.end_ns), best = -1, coarsest = 0;
    D.levels.forEach(function (lv, k) {
      if (lv.from_ns > a || lv.to_ns < b) return;
      if (lv.bin_ns >= v && (best < 0 || lv.bin_ns < D.levels[best].bin_ns)) best = k;
      if (lv.bin_ns > D.levels[coarsest].bin_ns) coarsest = k;
    });
    if (best < 0) best = coarsest;
    return { lv: D.levels[best], k: best };
  }

  function chainOf(page) {
    var out = [];
    if (page < 0) return out;
    var e = ev(page);
    var p = e.link;
    while (p >= 0 && out.length < 256) { out.push(p); p = ev(p).link; }
    return out;
  }

  function draw() {
    var dpr = window.devicePixelRatio || 1, W = px(), H = canvas.clientHeight;
    canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    var pick = pickLevel(), lv = pick.lv, nEv = 0, nBand = 0, nsPerPx = (view.b - view.a) / W;
    // axis
    ctx.fillStyle = '#444'; ctx.strokeStyle = '#e4e4e4'; ctx.font = '11px sans-serif';
    var span = view.b - view.a, step = Math.pow(10, Math.floor(Math.log10(Math.max(span / 8, 1))));
    if (span / step > 16) step *= 5; else if (span / step > 8) step *= 2;
    for (var t = Math.ceil(view.a / step) * step; t <= view.b; t += step) {
      var x = xOf(t);
      ctx.beginPath(); ctx.moveTo(x, AXIS_H - 4); ctx.lineTo(x, H); ctx.stroke();
      ctx.fillText(fmtDur(t), x + 2, 12);
    }
    // step windows: a line at each start (one path), a label where there
    // is room for it
    ctx.strokeStyle = '#8a63c2'; ctx.fillStyle = '#8a63c2'; ctx.beginPath();
    var lastX = -1e9, lastLabel = -1e9;
    for (var si = lowerBound(stepEnds, view.a); si < D.steps.length && D.steps[si].start_ns <= view.b; si++) {
      var sx = xOf(D.steps[si].start_ns);
      if (sx - lastX < 2) continue;
      ctx.moveTo(sx, AXIS_H - 6); ctx.lineTo(sx, H); lastX = sx;
      if (sx - lastLabel > 40) { ctx.fillText('#' + D.steps[si].step, sx + 2, AXIS_H - 2); lastLabel = sx; }
    }
    ctx.stroke();
    // gaps, behind their device's streams
    D.gaps.forEach(function (g) {
      if (g.start_ns + g.length_ns < view.a || g.start_ns > view.b) return;
      var rows = layout.filter(function (L) { return L.lane && L.lane.kind === 'gpu' && L.lane.device === g.device; });
      if (!rows.length) return;
      var y0 = rows[0].y, y1 = rows[rows.length - 1].y + rows[rows.length - 1].h;
      var x0 = xOf(g.start_ns), x1 = xOf(g.start_ns + g.length_ns);
      ctx.globalAlpha = 0.35; ctx.fillStyle = g.color; ctx.fillRect(x0, y0, Math.max(x1 - x0, 1), y1 - y0); ctx.globalAlpha = 1;
      if (x1 - x0 > 80 && g.short) { ctx.fillStyle = '#222'; ctx.fillText(clip(g.cause + ': ' + g.short, x1 - x0 - 4), Math.max(x0, 0) + 2, y1 - 3); }
    });
    var chain = sel >= 0 ? chainOf(sel) : [];
    layout.forEach(function (L) {
      if (L.memory) { drawMemory(L); return; }
      ctx.strokeStyle = '#dadce0'; ctx.beginPath(); ctx.moveTo(0, L.y); ctx.lineTo(W, L.y); ctx.stroke();
      for (var r = 0; r < L.rows; r++) {
        var y = L.y + 2 + r * ROW;
        var band = lv.byKey[L.index + ':' + r];
        if (band) {
          var lo = lowerBound(band.b, Math.floor((view.a - lv.from_ns) / lv.bin_ns));
          ctx.fillStyle = L.lane.kind === 'gpu' ? '#3f8f3a' : '#4a7fc1';
          for (var j = lo; j < band.b.length; j++) {
            var bs = lv.from_ns + band.b[j] * lv.bin_ns;
            if (bs > view.b) break;
            ctx.globalAlpha = 0.12 + 0.6 * band.p[j] / 100;
            ctx.fillRect(xOf(bs), y, Math.max(xOf(bs + lv.bin_ns) - xOf(bs), 1), ROW - 3);
            nBand++;
          }
          ctx.globalAlpha = 1;
        }
        var row = L.lane.byRow[r];
        var k = lowerBound(row.maxEnd, view.a);
        for (; k < row.idx.length && row.start[k] <= view.b; k++) {
          var i = row.idx[k], d = L.lane.d[i];
          if (d < nsPerPx) continue; // narrower than a pixel: in the bands
          var s = L.lane.s[i], x0 = xOf(s), w = Math.max(xOf(s + d) - x0, 1);
          ctx.fillStyle = D.kind_colors[L.lane.k[i]];
          ctx.fillRect(x0, y, w, ROW - 3);
          nEv++;
          if (w > 40) { ctx.fillStyle = '#fff'; ctx.fillText(clip(D.strings[L.lane.n[i]], w - 4), Math.max(x0, 0) + 2, y + ROW - 5); }
        }
      }
    });
    if (sel >= 0) drawSelection(sel, chain); else canvas.dataset.highlighted = '';
    canvas.dataset.viewStartNs = Math.round(view.a); canvas.dataset.viewEndNs = Math.round(view.b);
    canvas.dataset.level = pick.k; canvas.dataset.binNs = lv.bin_ns;
    canvas.dataset.drawnEvents = nEv; canvas.dataset.drawnBands = nBand;
    if (!document.body.dataset.firstRenderMs) {
      var bd = document.body.dataset;
      bd.firstRenderMs = Math.round(performance.now()); // from the start of the navigation
      bd.scriptStartMs = Math.round(t0); bd.parseMs = Math.round(tParsed - t0); bd.drawMs = Math.round(performance.now() - tDecoded);
    }
  }

  function clip(s, w) { var n = Math.floor(w / 6.2); return s.length <= n ? s : n < 2 ? '' : s.slice(0, n - 1) + '\u2026'; }

  function rectOf(e) {
    var L = layout.filter(function (x) { return x.lane === e.lane; })[0];
    if (!L || e.row >= L.rows) return null;
    return { x: xOf(e.s), w: Math.max(xOf(e.s + e.d) - xOf(e.s), 2), y: L.y + 2 + e.row * ROW, h: ROW - 3 };
  }

  // The selected event in black, its chain (launch call, enclosing
  // events) in red; the canvas lists the outlined ones that are in view.
  function drawSelection(page, chain) {
    var e = ev(page), r = rectOf(e), W = px(), shown = [];
    function inView(q) { return q && q.x + q.w >= 0 && q.x <= W; }
    ctx.lineWidth = 2.5; ctx.strokeStyle = '#000';
    if (r) ctx.strokeRect(r.x - 1, r.y - 1, r.w + 2, r.h + 2);
    if (inView(r)) shown.push(page);
    ctx.strokeStyle = '#d0342c';
    chain.forEach(function (p, n) {
      var c = rectOf(ev(p));
      if (!c) return;
      ctx.strokeRect(c.x - 1, c.y - 1, c.w + 2, c.h + 2);
      if (inView(c)) shown.push(p);
      if (n === 0 && r) { ctx.beginPath(); ctx.moveTo(c.x, c.y + c.h); ctx.lineTo(r.x, r.y); ctx.stroke(); }
    });
    ctx.lineWidth = 1;
    canvas.dataset.highlighted = shown.join(',');
  }

  // A device's memory: the allocated (solid) and reserved (dashed) level
  // after each record, held until the next; for a long series the model's
  // columns, each drawn from its lowest to its highest allocated.
  function drawMemory(L) {
    var m = L.memory, W = px(), y0 = L.y + 4, h = L.h - 8, top = Math.max(m.max_bytes, 1);
    function yOf(v) { return y0 + h * (1 - v / top); }
    ctx.strokeStyle = '#dadce0'; ctx.beginPath(); ctx.moveTo(0, L.y); ctx.lineTo(W, L.y); ctx.stroke();
    var lo = Math.max(lowerBound(m.t, view.a) - 1, 0);
    function steps(vals, color, dash) {
      if (!vals.length) return;
      ctx.strokeStyle = color; ctx.setLineDash(dash); ctx.beginPath();
      for (var i = lo; i < m.t.length; i++) {
        var x = xOf(m.t[i]);
        if (i === lo) ctx.moveTo(x, yOf(vals[i])); else { ctx.lineTo(x, yOf(vals[i - 1])); ctx.lineTo(x, yOf(vals[i])); }
        if (m.t[i] > view.b) break;
      }
      if (i === m.t.length) ctx.lineTo(W, yOf(vals[m.t.length - 1]));
      ctx.stroke(); ctx.setLineDash([]);
    }
    steps(m.reserved, '#999', [4, 3]);
    if (m.columns) {
      ctx.fillStyle = '#c8609c';
      for (var i = lo; i < m.t.length && m.t[i] <= view.b; i++) {
        var x0 = xOf(m.t[i]), x1 = i + 1 < m.t.length ? xOf(m.t[i + 1]) : W;
        ctx.fillRect(x0, yOf(m.allocated[i]), Math.max(x1 - x0, 1), Math.max(yOf(m.min_allocated[i]) - yOf(m.allocated[i]), 1));
      }
    } else {
      steps(m.allocated, '#c8609c', []);
    }
    var px0 = xOf(m.peak_ns);
    ctx.fillStyle = '#c8609c'; ctx.beginPath(); ctx.arc(px0, yOf(m.peak_bytes), 3.5, 0, 7); ctx.fill();
    ctx.fillStyle = '#222'; ctx.fillText(m.peak_text, Math.min(Math.max(px0 + 6, 2), Math.max(W - 6.2 * m.peak_text.length, 2)), y0 + 10);
    ctx.fillStyle = '#5f6368'; ctx.fillText(fmtBytes(top), 2, y0 + h);
  }

  // What lies under the pointer: an event drawn one by one, a band, a gap.
  function hit(x, y) {
    var L = layout.filter(function (l) { return y >= l.y && y < l.y + l.h; })[0];
    if (!L || L.memory) return L ? { memory: L.memory } : null;
    var r = Math.floor((y - L.y - 2) / ROW);
    if (r < 0 || r >= L.rows) return null;
    var t = nsAt(x), tol = (view.b - view.a) / px() * 2, lv = pickLevel().lv, row = L.lane.byRow[r];
    var k = lowerBound(row.start, t + tol + 1) - 1;
    for (; k >= 0 && row.maxEnd[k] >= t - tol; k--) {
      var i = row.idx[k];
      if (L.lane.d[i] >= tol / 2 && L.lane.s[i] <= t + tol && L.lane.s[i] + L.lane.d[i] >= t - tol) {
        var page = events.length ? pageOf(L.index, i) : -1;
        return { page: page };
      }
    }
    var band = lv.byKey[L.index + ':' + r];
    if (band) {
      var b = Math.floor((t - lv.from_ns) / lv.bin_ns), j = lowerBound(band.b, b);
      if (band.b[j] === b) return { band: band, j: j, lv: lv };
    }
    if (L.lane.kind === 'gpu') {
      var g = D.gaps.filter(function (g) { return g.device === L.lane.device && g.start_ns <= t && t < g.start_ns + g.length_ns; })[0];
      if (g) return { gap: g };
    }
    return null;
  }
  var laneBase = [];
  (function () { var n = 0; D.lanes.forEach(function (ln) { laneBase.push(n); n += ln.s.length; }); })();
  function pageOf(lane, i) { return laneBase[lane] + i; }

  function describe(h) {
    if (h.gap) return h.gap.label;
    if (h.memory) return 'memory ' + h.memory.device + ': ' + h.memory.peak_text;
    if (h.band) {
      var bs = h.lv.from_ns + h.band.b[h.j] * h.lv.bin_ns;
      return h.band.c[h.j] + ' events shorter than the ' + fmtDur(h.lv.bin_ns) + ' bin at ' + fmtDur(bs) + ' (or not written one by one)\ncovering ' + h.band.p[h.j] + '% of it (rounded up)';
    }
    var e = ev(h.page), s = e.name + '\n' + e.kind + ', ' + fmtDur(e.d) + ' at ' + fmtDur(e.s) + '\n' + e.lane.label;
    if (e.shape) s += '\ninput shapes ' + e.shape;
    return s;
  }

  function select(page) {
    sel = page;
    (function (box) {
      if (page < 0) { box.hidden = true; return; }
      var e = ev(page), chain = chainOf(page), lines = [];
      box.dataset.page = page; box.dataset.name = e.name; box.dataset.kind = e.kind; box.dataset.startNs = e.s; box.dataset.durNs = e.d;
      delete box.dataset.launchName; delete box.dataset.launchStartNs; delete box.dataset.frames;
      lines.push(e.kind + ' ' + e.name + '  ' + fmtDur(e.d) + ' at ' + fmtDur(e.s) + ' (' + e.lane.label + ')');
      var device = e.lane.kind === 'gpu';
      if (device && chain.length) {
        var c = ev(chain[0]);
        box.dataset.launchName = c.name; box.dataset.launchStartNs = c.s; box.dataset.launchPage = chain[0];
        box.dataset.frames = chain.slice(1).map(function (p) { return ev(p).name; }).join('\n');
      } else if (device) {
        lines.push('its launch call is not in the trace (launched before the profiling window, or recorded by the device on its own)');
      }
      chain.forEach(function (p, n) {
        var c = ev(p);
        lines.push((device && n === 0 ? '  launched by ' : '  inside ') + c.kind + ' ' + c.name + '  ' + fmtDur(c.d) + ' at ' + fmtDur(c.s) + ' (' + c.lane.label + ')');
      });
      box.textContent = lines.join('\n');
      if (device && chain.length) {
        // the launch call runs on the CPU, often well before the kernel:
        // open its thread's nesting, and offer to show both
        var c0 = ev(chain[0]);
        if (!c0.lane.expanded && c0.row > 0) { c0.lane.expanded = true; doLayout(); }
        var btn = document.createElement('button');
        btn.type = 'button'; btn.textContent = 'show the kernel and its launch call';
        btn.addEventListener('click', function () { zoomTo(Math.min(e.s, c0.s), Math.max(e.s + e.d, c0.s + c0.d)); });
        box.insertBefore(btn, box.firstChild);
      }
      box.hidden = false;
    }(selBox));
    draw();
  }

  function zoom(f, at) {
    var t = at === undefined ? (view.a + view.b) / 2 : at, span = (view.b - view.a) * f;
    span = Math.min(Math.max(span, 10), (D.end_ns - D.start_ns) * 1.5);
    view.a = t - (t - view.a) * span / (view.b - view.a); view.b = view.a + span;
    draw();
  }
  function pan(frac) { var d = (view.b - view.a) * frac; view.a += d; view.b += d; draw(); }
  function zoomTo(a, b) { var pad = (b - a) * 0.03; view.a = a - pad; view.b = b + pad; draw(); }

  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    var r = canvas.getBoundingClientRect();
    zoom(Math.pow(1.0015, e.deltaY), nsAt(e.clientX - r.left));
  }, { passive: false });
  var drag = null;
  canvas.addEventListener('mousedown', function (e) { drag = { x: e.clientX, a: view.a, b: view.b, moved: false }; canvas.focus(); });
  window.addEventListener('mouseup', function () { if (drag) canvas.style.cursor = ''; setTimeout(function () { drag = null; }, 0); });
  canvas.addEventListener('mousemove', function (e) {
    var r = canvas.getBoundingClientRect();
    if (drag && e.buttons) {
      var dx = e.clientX - drag.x;
      if (Math.abs(dx) > 2) drag.moved = true;
      var d = dx / px() * (drag.b - drag.a);
      view.a = drag.a - d; view.b = drag.b - d; canvas.style.cursor = 'grabbing'; draw(); tip.hidden = true; return;
    }
    var h = hit(e.clientX - r.left, e.clientY - r.top);
    if (!h) { tip.hidden = true; return; }
    tip.textContent = describe(h); tip.hidden = false;
    var tr = tip.parentNode.getBoundingClientRect();
    tip.style.left = (e.clientX - tr.left + 12) + 'px'; tip.style.top = (e.clientY - tr.top + 16) + 'px';
  });
  canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
  canvas.addEventListener('click', function (e) {
    if (drag && drag.moved) return;
    var r = canvas.getBoundingClientRect(), h = hit(e.clientX - r.left, e.clientY - r.top);
    select(h && h.page !== undefined ? h.page : -1);
  });
  canvas.addEventListener('keydown', function (e) {
    var k = e.key.toLowerCase(), acts = { w: [zoom, 0.8], '+': [zoom, 0.8], '=': [zoom, 0.8], s: [zoom, 1.25], '-': [zoom, 1.25],
      a: [pan, -0.1], arrowleft: [pan, -0.1], d: [pan, 0.1], arrowright: [pan, 0.1] };
    if (acts[k]) { acts[k][0](acts[k][1]); e.preventDefault(); }
    if (k === '0') zoomTo(D.start_ns, D.end_ns);
    if (k === 'escape') select(-1);
  });
  document.querySelectorAll('.controls button').forEach(function (b) {
    b.addEventListener('click', function () {
      var act = b.dataset.act;
      if (act === 'in') zoom(0.5);
      if (act === 'out') zoom(2);
      if (act === 'reset') zoomTo(D.start_ns, D.end_ns);
      if (act === 'expand') {
        var any = D.lanes.some(function (l) { return l.kind === 'cpu' && l.rows > 1 && !l.expanded; });
        D.lanes.forEach(function (l) { if (l.kind === 'cpu') l.expanded = any; });
        doLayout(); draw();
      }
    });
  });
  window.addEventListener('resize', draw);

  // The step chart: a bar shows its numbers and its window on the timeline.
  function showStep(n) {
    document.querySelectorAll('.step-chart .bar').forEach(function (g) { g.classList.toggle('selected', g.dataset.step === String(n)); });
    document.querySelectorAll('.step-detail').forEach(function (d) {
      d.hidden = d.dataset.step !== String(n);
      if (!d.hidden) zoomTo(Number(d.dataset.startNs), Number(d.dataset.endNs));
    });
  }
  document.querySelectorAll('.step-chart .bar').forEach(function (g) { g.addEventListener('click', function () { showStep(g.dataset.step); }); });

  // Sortable tables: by each cell's data-sort, numbers as numbers.
  document.querySelectorAll('table.sortable').forEach(function (tb) {
    tb.querySelectorAll('th').forEach(function (th) {
      th.addEventListener('click', function () {
        var col = Number(th.dataset.col), num = th.classList.contains('num'), desc = !th.classList.contains('sorted-desc');
        tb.querySelectorAll('th').forEach(function (o) { o.classList.remove('sorted-asc', 'sorted-desc'); });
        th.classList.add(desc ? 'sorted-desc' : 'sorted-asc');
        var body = tb.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (x, y) {
          var a = x.cells[col].dataset.sort, b = y.cells[col].dataset.sort;
          var c = num ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0;
          return desc ? -c : c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });

  window.tracetab = { zoomTo: zoomTo, select: select, showStep: showStep, fmtDur: fmtDur, view: view,
    laneDevice: function (k) { return D.lanes[k].device; },
    laneEventKinds: function (k) { return Array.from(new Set(D.lanes[k].k || [])).map(function (x) { return D.kinds[x]; }); } };
  doLayout();
  draw();
  var first = document.querySelector('.step-chart .bar');
  if (first) {
    var bars = document.querySelectorAll('.step-chart .bar'), pickBar = first;
    bars.forEach(function (g) { if (D.detail && g.dataset.step === String(D.detail.step)) pickBar = g; });
    document.querySelectorAll('.step-detail').forEach(function (d) { d.hidden = d.dataset.step !== pickBar.dataset.step; });
    pickBar.classList.add('selected');
  }
}());
