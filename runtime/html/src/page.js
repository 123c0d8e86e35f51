// verigate-html: the sample browser and figure renderer.
// Data comes from the JSON block #verigate-data; everything is built with DOM
// APIs and textContent: no data ever becomes markup.
(function () {
  'use strict';

  var NS = 'http://www.w3.org/2000/svg';
  var CLASSES = ['ok', 'wrong', 'missing', 'extra', 'target', 'neutral', 'blocked', 'highlight',
    'cat0', 'cat1', 'cat2', 'cat3', 'cat4', 'cat5', 'cat6', 'cat7'];
  var LEGEND = {
    ok: 'right', wrong: 'wrong', missing: 'missing', extra: 'extra / overlap', target: 'target',
    blocked: 'blocked', highlight: 'path', neutral: 'other'
  };

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
      }
    }
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function svgEl(tag, attrs) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) {
      if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, String(attrs[k]));
    }
    return e;
  }

  function finite(v) { return typeof v === 'number' && isFinite(v); }
  function cls(c) { return CLASSES.indexOf(c) >= 0 ? c : 'neutral'; }

  // ---- Figures -----------------------------------------------------------

  function drawFigure(fig) {
    var box = el('div', { 'class': 'figure-box' });
    if (!fig || typeof fig !== 'object') return box;
    if (fig.error) {
      box.appendChild(el('div', { 'class': 'fig-notes' }, 'figure not drawn: ' + fig.error));
      return box;
    }
    if (typeof fig.title === 'string') box.appendChild(el('div', { 'class': 'fig-title' }, fig.title));
    var vb = Array.isArray(fig.view_box) && fig.view_box.length === 4 && fig.view_box.every(finite)
      ? fig.view_box : [0, 0, 1, 1];
    var vx = vb[0], vy = vb[1], vw = vb[2] > 0 ? vb[2] : 1, vh = vb[3] > 0 ? vb[3] : 1;
    var flip = fig.y_up === true;
    var Y = function (y) { return flip ? 2 * vy + vh - y : y; };
    var base = Math.max(vw, vh);
    var svg = svgEl('svg', {
      'class': 'figure', viewBox: vx + ' ' + vy + ' ' + vw + ' ' + vh,
      preserveAspectRatio: 'xMidYMid meet', role: 'img'
    });
    if (typeof fig.title === 'string') svg.setAttribute('aria-label', fig.title);
    var used = {};
    var labels = svgEl('g', { 'class': 'fig-labels' });

    function pts(list) {
      var out = [];
      if (!Array.isArray(list)) return out;
      for (var i = 0; i < list.length; i++) {
        var p = list[i];
        if (Array.isArray(p) && finite(p[0]) && finite(p[1])) out.push([p[0], Y(p[1])]);
      }
      return out;
    }
    function pointsAttr(list) {
      return list.map(function (p) { return p[0] + ',' + p[1]; }).join(' ');
    }
    function label(x, y, text, size) {
      var t = svgEl('text', { x: x, y: y, 'text-anchor': 'middle', 'font-size': size });
      t.textContent = String(text);
      labels.appendChild(t);
    }

    var items = Array.isArray(fig.items) ? fig.items : [];
    items.forEach(function (it) {
      if (!it || typeof it !== 'object') return;
      var c = cls(it['class']);
      var p;
      if (it.type === 'polygon' || it.type === 'polyline') {
        p = pts(it.points);
        if (p.length < 2) return;
        used[c] = true;
        var closed = it.type === 'polygon' || it.closed === true;
        var holes = it.type === 'polygon' && Array.isArray(it.holes)
          ? it.holes.map(pts).filter(function (h) { return h.length >= 3; }) : [];
        var ring = function (r) {
          return 'M' + r.map(function (q) { return q[0] + ' ' + q[1]; }).join('L') + 'Z';
        };
        var shape = holes.length
          ? svgEl('path', {
            d: [p].concat(holes).map(ring).join(''), 'fill-rule': 'evenodd',
            'class': 'fig-polygon fig-' + c
          })
          : it.type === 'polygon'
          ? svgEl('polygon', { points: pointsAttr(p), 'class': 'fig-polygon fig-' + c })
          : svgEl('polyline', {
            points: pointsAttr(closed ? p.concat([p[0]]) : p),
            'class': 'fig-polyline fig-' + c
          });
        svg.appendChild(shape);
        if (typeof it.label === 'string' && it.label !== '') {
          var cx = 0, cy = 0;
          p.forEach(function (q) { cx += q[0]; cy += q[1]; });
          label(cx / p.length, cy / p.length, it.label, 0.04 * base);
        }
      } else if (it.type === 'points') {
        p = pts(it.points);
        used[c] = true;
        p.forEach(function (q, i) {
          svg.appendChild(svgEl('circle', { cx: q[0], cy: q[1], r: 0.012 * base, 'class': 'fig-point fig-' + c }));
          var l = Array.isArray(it.labels) ? it.labels[i] : null;
          if (typeof l === 'string' && l !== '') label(q[0], q[1] - 0.03 * base, l, 0.03 * base);
        });
      } else if (it.type === 'segment') {
        p = pts([it.from, it.to]);
        if (p.length !== 2) return;
        used[c] = true;
        svg.appendChild(svgEl('line', {
          x1: p[0][0], y1: p[0][1], x2: p[1][0], y2: p[1][1], 'class': 'fig-segment fig-' + c
        }));
        if (typeof it.label === 'string' && it.label !== '') {
          label((p[0][0] + p[1][0]) / 2, (p[0][1] + p[1][1]) / 2, it.label, 0.035 * base);
        }
      } else if (it.type === 'text') {
        p = pts([it.at]);
        if (p.length !== 1 || typeof it.text !== 'string') return;
        var size = finite(it.size) && it.size > 0 ? it.size : 0.04 * base;
        var t = svgEl('text', { x: p[0][0], y: p[0][1], 'font-size': size, 'class': 'fig-text fig-' + c });
        t.textContent = it.text;
        labels.appendChild(t);
      } else if (it.type === 'grid') {
        drawGrid(it);
      }
    });

    function drawGrid(g) {
      var rows = g.rows | 0, cols = g.cols | 0, cell = finite(g.cell) && g.cell > 0 ? g.cell : 1;
      var x0 = finite(g.x) ? g.x : 0, y0 = finite(g.y) ? g.y : 0;
      if (rows <= 0 || cols <= 0 || rows * cols > 5000) return;
      var group = svgEl('g', { 'class': 'fig-grid' });
      var dflt = cls(g['class']);
      for (var r = 0; r < rows; r++) {
        var crow = Array.isArray(g.classes) ? g.classes[r] : null;
        var lrow = Array.isArray(g.labels) ? g.labels[r] : null;
        for (var col = 0; col < cols; col++) {
          var cc = crow && typeof crow[col] === 'string' ? cls(crow[col]) : dflt;
          used[cc] = true;
          var ya = Y(y0 + r * cell), yb = Y(y0 + (r + 1) * cell);
          var top = Math.min(ya, yb);
          group.appendChild(svgEl('rect', {
            x: x0 + col * cell, y: top, width: cell, height: cell, 'class': 'fig-cell fig-' + cc
          }));
          var lab = lrow ? lrow[col] : null;
          if (typeof lab === 'string' && lab !== '') {
            var fs = Math.min(cell * 0.5, cell * 1.5 / Math.max(1, lab.length));
            label(x0 + (col + 0.5) * cell, top + cell / 2, lab, fs);
          }
        }
      }
      svg.appendChild(group);
      if (typeof g.label === 'string' && g.label !== '') {
        var ly = flip ? Y(y0 + rows * cell) : y0;
        var t = svgEl('text', {
          x: x0 + cols * cell / 2, y: ly - cell * 0.45, 'text-anchor': 'middle',
          'font-size': cell * 0.55, 'class': 'fig-grid-label'
        });
        t.textContent = g.label;
        labels.appendChild(t);
      }
    }

    svg.appendChild(labels);
    box.appendChild(svg);
    var legend = el('div', { 'class': 'legend' });
    Object.keys(LEGEND).forEach(function (c) {
      if (!used[c]) return;
      var item = el('span');
      var sw = svgEl('svg', { width: 14, height: 14, viewBox: '0 0 14 14', 'class': 'swatch' });
      sw.appendChild(svgEl('rect', { x: 1, y: 1, width: 12, height: 12, 'class': 'fig-' + c }));
      item.appendChild(sw);
      item.appendChild(document.createTextNode(' ' + LEGEND[c]));
      legend.appendChild(item);
    });
    if (legend.childNodes.length) box.appendChild(legend);
    if (typeof fig.caption === 'string') box.appendChild(el('div', { 'class': 'fig-caption' }, fig.caption));
    if (Array.isArray(fig.notes) && fig.notes.length) {
      box.appendChild(el('div', { 'class': 'fig-notes' }, 'host caps: ' + fig.notes.join('; ')));
    }
    return box;
  }

  // ---- Sample browser ------------------------------------------------------

  function init() {
    var node = document.getElementById('verigate-data');
    if (!node) return;
    var D = JSON.parse(node.textContent);
    var S = D.strings, R = D.rows, C = {};
    D.columns.forEach(function (name, i) { C[name] = i; });
    var str = function (i) { return i === null || i === undefined ? null : S[i]; };
    var pageSize = D.page_size || 50;
    var $ = function (id) { return document.getElementById(id); };
    var fBench = $('f-benchmark'), fFamily = $('f-family'), fOutcome = $('f-outcome'),
      fPassed = $('f-passed'), fSample = $('f-sample'), fId = $('f-id');
    var tbody = $('sample-rows'), info = $('p-info');
    var open = new Set();
    var visible = [];
    var page = 0;

    function distinct(col, keep) {
      var counts = new Map();
      for (var i = 0; i < R.length; i++) {
        if (keep && !keep(R[i])) continue;
        var v = R[i][col];
        if (v === null) continue;
        counts.set(v, (counts.get(v) || 0) + 1);
      }
      return Array.from(counts.entries()).sort(function (a, b) {
        var x = S[a[0]], y = S[b[0]];
        return x < y ? -1 : x > y ? 1 : 0;
      });
    }
    function fill(select, entries, allLabel) {
      var keep = select.value;
      select.replaceChildren(el('option', { value: '' }, allLabel));
      entries.forEach(function (e) {
        select.appendChild(el('option', { value: String(e[0]) }, (S[e[0]] === '' ? '(none)' : S[e[0]]) + ' (' + e[1] + ')'));
      });
      select.value = keep;
      if (select.value !== keep) select.value = '';
    }
    function selected(select) { return select.value === '' ? null : Number(select.value); }

    fill(fBench, distinct(C.benchmark), 'all');
    function refillFamilies() {
      var b = selected(fBench);
      fill(fFamily, distinct(C.family, b === null ? null : function (r) { return r[C.benchmark] === b; }), 'all');
    }
    refillFamilies();
    fill(fOutcome, distinct(C.outcome), 'all');
    var samples = distinct(C.sample);
    var sampleText = null;
    if (samples.length > 1000) {
      // Too many to list: search them instead.
      sampleText = el('input', { id: 'f-sample-text', type: 'search', placeholder: 'sample contains' });
      fSample.replaceWith(sampleText);
      fSample = null;
    } else {
      fill(fSample, samples, 'all');
    }

    var lowerIds = new Map();
    function lowerId(i) {
      var v = lowerIds.get(i);
      if (v === undefined) { v = S[i].toLowerCase(); lowerIds.set(i, v); }
      return v;
    }

    function apply() {
      var b = selected(fBench), f = selected(fFamily), o = selected(fOutcome);
      var s = fSample ? selected(fSample) : null;
      var st = sampleText ? sampleText.value.trim().toLowerCase() : '';
      var p = fPassed.value, q = fId.value.trim().toLowerCase();
      visible = [];
      for (var i = 0; i < R.length; i++) {
        var r = R[i];
        if (b !== null && r[C.benchmark] !== b) continue;
        if (f !== null && r[C.family] !== f) continue;
        if (o !== null && r[C.outcome] !== o) continue;
        if (s !== null && r[C.sample] !== s) continue;
        if (st && S[r[C.sample]].toLowerCase().indexOf(st) < 0) continue;
        if (p !== '') {
          var passed = typeof r[C.score] === 'number' && r[C.score] >= 1;
          if ((p === '1') !== passed) continue;
        }
        if (q && lowerId(r[C.id]).indexOf(q) < 0) continue;
        visible.push(i);
      }
      page = 0;
      // What was applied, for whoever waits on it (tests).
      info.setAttribute('data-query', q);
      draw();
    }

    function badge(outcome) {
      var k = outcome === 'pass' ? 'pass' : outcome === 'fail' ? 'fail' : 'other';
      return el('span', { 'class': 'badge ' + k }, outcome === null ? '–' : outcome);
    }

    function section(parent, title, content, wide) {
      var div = el('div', wide ? { 'class': 'wide' } : null);
      div.appendChild(el('h4', null, title));
      if (content === null || content === undefined) {
        div.appendChild(el('div', { 'class': 'none' }, 'not recorded'));
      } else if (typeof content === 'string') {
        div.appendChild(el('pre', null, content));
      } else {
        div.appendChild(content);
      }
      parent.appendChild(div);
    }

    function facts(pairs) {
      var dl = el('dl');
      pairs.forEach(function (p) {
        if (p[1] === null || p[1] === undefined) return;
        dl.appendChild(el('dt', null, p[0]));
        dl.appendChild(el('dd', null, p[1]));
      });
      return dl;
    }

    function detail(i) {
      var r = R[i];
      var td = el('td', { colspan: '7', 'class': 'detail' });
      var grid = el('div', { 'class': 'detail-grid' });
      section(grid, 'Verdict', facts([
        ['outcome', str(r[C.outcome])], ['score', r[C.score]], ['fuel consumed', r[C.fuel_consumed]],
        ['construction', r[C.construction]], ['proof', r[C.proof]], ['proof status', str(r[C.proof_status])],
        ['gated', r[C.gated]], ['type', str(r[C.type])], ['category', str(r[C.category])],
        ['results line', r[C.line]]
      ]));
      section(grid, 'Provenance', facts([
        ['module', str(r[C.module])], ['module_sha256', str(r[C.module_sha256])],
        ['registry_digest', str(r[C.registry_digest])], ['verigate_version', str(r[C.verigate_version])],
        ['engine_fingerprint', str(r[C.engine_fingerprint])]
      ]));
      section(grid, 'Message', str(r[C.message]), true);
      var figText = str(r[C.figure]);
      if (figText !== null) {
        var fig = null;
        try { fig = JSON.parse(figText); } catch (e) { fig = { error: 'unreadable figure' }; }
        section(grid, 'Figure', drawFigure(fig), true);
      }
      section(grid, 'Response', str(r[C.response]));
      section(grid, 'Extracted payload', str(r[C.payload]));
      section(grid, 'Details', str(r[C.details]), true);
      td.appendChild(grid);
      var tr = el('tr', { 'class': 'detail', 'data-row': String(i) });
      tr.appendChild(td);
      return tr;
    }

    function row(i) {
      var r = R[i];
      var tr = el('tr', { 'class': 'sample' + (open.has(i) ? ' open' : ''), 'data-row': String(i) });
      var idCell = el('td');
      var button = el('button', { type: 'button', 'class': 'open-id', 'aria-expanded': open.has(i) ? 'true' : 'false' }, S[r[C.id]]);
      idCell.appendChild(button);
      if (r[C.figure] !== null) idCell.appendChild(el('span', { 'class': 'fig-mark', title: 'has a figure' }, '◧'));
      tr.appendChild(idCell);
      tr.appendChild(el('td', null, S[r[C.sample]]));
      tr.appendChild(el('td', null, str(r[C.benchmark])));
      var oc = el('td'); oc.appendChild(badge(str(r[C.outcome]))); tr.appendChild(oc);
      tr.appendChild(el('td', { 'class': 'num' }, r[C.score] === null ? '–' : r[C.score]));
      tr.appendChild(el('td', { 'class': 'num' }, r[C.fuel_consumed] === null ? '–' : Number(r[C.fuel_consumed]).toLocaleString('en-US')));
      var msg = str(r[C.message]);
      tr.appendChild(el('td', { 'class': 'msg', title: msg === null ? '' : msg.slice(0, 500) }, msg === null ? '' : msg.slice(0, 200)));
      tr.addEventListener('click', function () {
        if (open.has(i)) open.delete(i); else open.add(i);
        draw();
      });
      return tr;
    }

    function draw() {
      var pages = Math.max(1, Math.ceil(visible.length / pageSize));
      if (page >= pages) page = pages - 1;
      var start = page * pageSize, end = Math.min(visible.length, start + pageSize);
      var frag = document.createDocumentFragment();
      for (var k = start; k < end; k++) {
        var i = visible[k];
        frag.appendChild(row(i));
        if (open.has(i)) frag.appendChild(detail(i));
      }
      tbody.replaceChildren(frag);
      info.textContent = visible.length === 0
        ? 'no samples match (of ' + R.length.toLocaleString('en-US') + ')'
        : (start + 1).toLocaleString('en-US') + '–' + end.toLocaleString('en-US') + ' of ' +
          visible.length.toLocaleString('en-US') + ' samples' +
          (visible.length !== R.length ? ' (filtered from ' + R.length.toLocaleString('en-US') + ')' : '') +
          ' · page ' + (page + 1) + ' of ' + pages;
      info.setAttribute('data-visible', String(visible.length));
      $('p-prev').disabled = page === 0;
      $('p-next').disabled = page >= pages - 1;
    }

    var notes = [];
    if (D.skipped) notes.push(D.skipped + ' line(s) of the results were not records and are left out');
    if (D.truncated_texts) {
      notes.push(D.truncated_texts.toLocaleString('en-US') + ' text(s) cut to ' +
        D.text_cut.toLocaleString('en-US') + ' characters to keep the page small (the results file has them whole)');
    }
    if (D.figures_dropped) notes.push(D.figures_dropped + ' figure(s) not embedded: the page\'s figure budget is spent');
    $('s-note').textContent = notes.join('; ');

    fBench.addEventListener('change', function () { refillFamilies(); apply(); });
    [fFamily, fOutcome, fPassed].concat(fSample ? [fSample] : []).forEach(function (s) {
      s.addEventListener('change', apply);
    });
    var timer = null;
    [fId].concat(sampleText ? [sampleText] : []).forEach(function (input) {
      input.addEventListener('input', function () {
        clearTimeout(timer);
        timer = setTimeout(apply, 120);
      });
    });
    $('filters').addEventListener('submit', function (e) { e.preventDefault(); });
    $('filters').addEventListener('reset', function () {
      setTimeout(function () { refillFamilies(); apply(); }, 0);
    });
    $('p-prev').addEventListener('click', function () { if (page > 0) { page--; draw(); } });
    $('p-next').addEventListener('click', function () { page++; draw(); });
    apply();
    document.body.setAttribute('data-ready', '1');
    window.verigateReport = { readyAt: performance.now(), rows: R.length, drawFigure: drawFigure };
  }

  // Let the tables paint before the records are parsed.
  function start() {
    requestAnimationFrame(function () { setTimeout(init, 0); });
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
