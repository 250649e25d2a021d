/**
 * The viewer's script (plain browser JavaScript, no dependencies): a virtualized timeline (only
 * the visible rows are in the DOM, so 100,000 entries open at once), the scrubber, the states at
 * the selected entry, statecharts laid out from the machines' JSON, and live updates.
 */
export const VIEWER_SCRIPT = String.raw`
(function () {
  'use strict';
  // The data is gzip in base64: inflated by the browser (DecompressionStream), then parsed.
  var packed = atob(document.getElementById('data').textContent.trim());
  var bytes = new Uint8Array(packed.length);
  for (var b = 0; b < packed.length; b++) bytes[b] = packed.charCodeAt(b);
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(function (text) {
    // The first line is the data without its entries, then one entry per line, parsed when shown.
    var nl = text.indexOf('\n');
    start(JSON.parse(nl < 0 ? text : text.slice(0, nl)), nl < 0 ? [] : text.slice(nl + 1).split('\n'));
  }, function (e) {
    document.getElementById('meta').textContent = 'This page\'s data could not be read: ' + e;
  });

function start(D, lines) {
  var parsed = [];
  function entry(i) { var e = parsed[i]; if (e === undefined) e = parsed[i] = JSON.parse(lines[i]); return e; }
  var requests = D.requests, entryRequest = D.entryRequest, sessionChanges = D.session;
  var clientKind = D.header.role === 'server' ? 'in' : 'out';
  var ROW = 22, selected = 0;
  var $ = function (id) { return document.getElementById(id); };
  var timeline = $('timeline'), rowsEl = $('rows'), spacer = $('spacer'), scrubber = $('scrubber');

  function fmtTime(ms) { return ms < 1000 ? ms.toFixed(1) + 'ms' : (ms / 1000).toFixed(3) + 's'; }
  function text(el, s) { el.textContent = s; return el; }
  function span(cls, s) { var e = document.createElement('span'); e.className = cls; e.textContent = s; return e; }

  function describe(i) {
    var e = entry(i);
    if (e.kind === 'in' || e.kind === 'out') {
      var dir = e.kind === clientKind ? 'client → server' : 'server → client';
      var cls = e.kind === clientKind ? 'c' : 's';
      if (!('frame' in e)) return { dir: dir, cls: cls, label: 'text' in e ? 'unparseable: ' + String(e.text).slice(0, 80) : 'oversize frame', err: 'not JSON-RPC' };
      var frames = Array.isArray(e.frame) ? e.frame : [e.frame];
      var r = requests[entryRequest[i]];
      var err = '', ms;
      var labels = frames.map(function (f) {
        if (typeof f.method === 'string') {
          var p = f.params || {};
          var name = p.name || p.uri || (f.method === 'notifications/progress' ? p.progress + (p.total !== undefined ? '/' + p.total : '') + (p.message ? ' ' + p.message : '') : '');
          return f.method + (f.id !== undefined ? ' #' + JSON.stringify(f.id) : '') + (name ? ' ' + name : '');
        }
        if (r && r.end === i && r.ms !== undefined) ms = r.ms;
        if (f.error) { err = f.error.code + ' ' + f.error.message; return 'error #' + JSON.stringify(f.id) + (r ? ' (' + r.method + ')' : ''); }
        if (f.result && f.result.isError) err = 'isError';
        return 'result #' + JSON.stringify(f.id) + (r ? ' (' + r.method + ')' : '');
      });
      return { dir: dir, cls: cls, label: (frames.length > 1 ? 'batch: ' : '') + labels.join(', '), err: err, ms: ms };
    }
    var label = e.kind === 'transport' ? e.phase : e.kind === 'timer' ? e.name : e.kind === 'call' ? e.op + (e.method ? ' ' + e.method : '') + (e.id !== undefined ? ' #' + JSON.stringify(e.id) : '') : e.kind === 'note' ? e.note + (e.detail ? ' ' + JSON.stringify(e.detail).slice(0, 80) : '') : e.kind;
    return { dir: e.kind, cls: 'o', label: label, err: e.error || '' };
  }

  // ---- timeline (virtualized)
  function renderRows() {
    var first = Math.max(0, Math.floor(timeline.scrollTop / ROW) - 10);
    var last = Math.min(lines.length, first + Math.ceil(timeline.clientHeight / ROW) + 20);
    var frag = document.createDocumentFragment();
    for (var i = first; i < last; i++) {
      var d = describe(i), row = document.createElement('div');
      row.className = 'row' + (i === selected ? ' selected' : '') + (d.err ? ' error' : '');
      row.style.top = (i * ROW) + 'px';
      row.dataset.index = String(i);
      row.appendChild(span('seq', '#' + entry(i).seq));
      row.appendChild(span('t', fmtTime(entry(i).t)));
      row.appendChild(span('dir ' + d.cls, d.dir));
      row.appendChild(span('label', d.label));
      if (d.ms !== undefined) row.appendChild(span('ms', '(' + d.ms.toFixed(1) + ' ms)'));
      if (d.err) row.appendChild(span('err', d.err));
      frag.appendChild(row);
    }
    rowsEl.replaceChildren(frag);
  }
  timeline.addEventListener('scroll', function () { requestAnimationFrame(renderRows); });
  rowsEl.addEventListener('click', function (ev) {
    var row = ev.target.closest('.row');
    if (row) select(Number(row.dataset.index), false);
  });

  // ---- states at an entry
  function stateAt(changes, i) {
    var lo = 0, hi = changes.length - 1, best = changes[0][1];
    while (lo <= hi) { var mid = (lo + hi) >> 1; if (changes[mid][0] <= i) { best = changes[mid][1]; lo = mid + 1; } else hi = mid - 1; }
    return best;
  }
  function inFlight(i) {
    var out = [];
    for (var k = 0; k < requests.length; k++) {
      var r = requests[k];
      if (r.start > i) break;
      if (r.end !== undefined && r.end < i) continue;
      out.push({ r: r, state: stateAt(r.states, i) });
    }
    return out;
  }
  function renderStates(i) {
    var box = $('states'); box.replaceChildren();
    var s = D.sessionless ? 'none (2026-07-28: no session)' : stateAt(sessionChanges, i);
    var p = document.createElement('div'); p.append('session machine: '); p.appendChild(span('state', s)); p.id = 'session-state'; box.appendChild(p);
    var flight = inFlight(i);
    var q = document.createElement('div'); q.textContent = 'request machines in flight: ' + (flight.length ? flight.length : 'none'); box.appendChild(q);
    var ul = document.createElement('ul'); ul.id = 'request-states';
    flight.slice(0, 30).forEach(function (x) {
      var li = document.createElement('li');
      li.append(x.r.from + ' ' + x.r.method + ' #' + x.r.id + ': '); li.appendChild(span('state', x.state));
      if (x.r.chain) { li.append(', input rounds: '); li.appendChild(span('state', stateAt(x.r.chain.states, i))); }
      ul.appendChild(li);
    });
    if (flight.length > 30) { var more = document.createElement('li'); more.textContent = '… ' + (flight.length - 30) + ' more'; ul.appendChild(more); }
    box.appendChild(ul);
    highlight(charts.session, s);
    var mine = requests[entryRequest[i]] || (flight.length ? flight[flight.length - 1].r : undefined);
    text($('chart-request-which'), mine ? mine.from + ' ' + mine.method + ' #' + mine.id : '(none at this point)');
    highlight(charts.request, mine ? stateAt(mine.states, i) : '');
    var round = mine && mine.chain ? mine : undefined;
    text($('chart-rounds-which'), round ? round.method + ' #' + round.id : '(no multi round-trip request at this point)');
    highlight(charts.rounds, round ? stateAt(round.chain.states, i) : '');
  }

  // ---- statecharts from the machines' JSON
  var SVGNS = 'http://www.w3.org/2000/svg';
  function el(name, attrs, parent) { var e = document.createElementNS(SVGNS, name); for (var k in attrs) e.setAttribute(k, attrs[k]); if (parent) parent.appendChild(e); return e; }
  function layout(node, path) {
    var kids = Object.keys(node.states || {});
    if (!kids.length) return { path: path, w: Math.max(90, path[path.length - 1].length * 7.4 + 28), h: 34, kids: [], node: node };
    var items = kids.map(function (k) { return layout(node.states[k], path.concat(k)); });
    var cols = Math.min(items.length, Math.max(2, Math.ceil(Math.sqrt(items.length * 1.6))));
    var gx = 46, gy = 40, pad = 16, top = path.length ? 26 : 8;
    var colW = [], rowH = [];
    items.forEach(function (it, n) { var c = n % cols, r = Math.floor(n / cols); colW[c] = Math.max(colW[c] || 0, it.w); rowH[r] = Math.max(rowH[r] || 0, it.h); });
    items.forEach(function (it, n) {
      var c = n % cols, r = Math.floor(n / cols);
      it.x = pad + colW.slice(0, c).reduce(function (a, b) { return a + b + gx; }, 0) + (colW[c] - it.w) / 2;
      it.y = top + rowH.slice(0, r).reduce(function (a, b) { return a + b + gy; }, 0) + (rowH[r] - it.h) / 2;
    });
    var w = pad * 2 + colW.reduce(function (a, b) { return a + b; }, 0) + gx * (colW.length - 1);
    var h = top + pad + rowH.reduce(function (a, b) { return a + b; }, 0) + gy * (rowH.length - 1);
    return { path: path, w: Math.max(w, path.length ? path[path.length - 1].length * 7.4 + 30 : 0), h: h, kids: items, node: node };
  }
  function place(box, ox, oy, out) {
    box.ax = ox + (box.x || 0); box.ay = oy + (box.y || 0);
    out[box.path.join('.')] = box;
    box.kids.forEach(function (k) { place(k, box.ax, box.ay, out); });
  }
  function targets(t) {
    if (t === undefined) return [];
    if (typeof t === 'string') return [t];
    if (Array.isArray(t)) return t.reduce(function (a, x) { return a.concat(targets(x)); }, []);
    return targets(t.target);
  }
  function resolve(target, from, machineId) {
    if (target.charAt(0) === '#') { var p = target.slice(1).split('.'); if (p[0] === machineId) p.shift(); return p.join('.'); }
    if (target.charAt(0) === '.') return (from ? from + '.' : '') + target.slice(1);
    var parent = from.split('.').slice(0, -1).join('.');
    return (parent ? parent + '.' : '') + target;
  }
  function drawChart(svg, config, rootNote) {
    var root = layout(config, []);
    var boxes = {}; place(root, 0, 0, boxes);
    svg.setAttribute('viewBox', '0 0 ' + Math.ceil(root.w) + ' ' + Math.ceil(root.h));
    var defs = el('defs', {}, svg), m = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '9', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#56636f' }, m);
    var nodes = {};
    Object.keys(boxes).forEach(function (key) {
      if (!key) return;
      var b = boxes[key], kind = b.kids.length ? 'compound' : (b.node.type === 'final' ? 'final' : 'atomic');
      var g = el('g', { class: 'node ' + kind, 'data-state': key }, svg);
      el('rect', { x: b.ax, y: b.ay, width: b.w, height: b.h, rx: 8 }, g);
      var label = el('text', { x: b.ax + (b.kids.length ? 10 : b.w / 2), y: b.ay + (b.kids.length ? 17 : b.h / 2 + 4), 'text-anchor': b.kids.length ? 'start' : 'middle' }, g);
      label.textContent = b.path[b.path.length - 1];
      nodes[key] = g;
    });
    var edges = el('g', {}, svg), rootEdges = [];
    Object.keys(boxes).forEach(function (key) {
      var b = boxes[key], on = b.node.on || {};
      Object.keys(on).forEach(function (ev) {
        targets(on[ev]).forEach(function (t) {
          var to = resolve(t, key, config.id), tb = boxes[to];
          if (!key) { rootEdges.push(ev + ' → ' + to); return; }
          if (!tb || to === key) return;
          var x1 = b.ax + b.w / 2, y1 = b.ay + b.h / 2, x2 = tb.ax + tb.w / 2, y2 = tb.ay + tb.h / 2;
          // End on the target's border.
          var dx = x2 - x1, dy = y2 - y1, sx = Math.abs(dx) / (tb.w / 2 + 2), sy = Math.abs(dy) / (tb.h / 2 + 2), k = 1 - 1 / Math.max(sx, sy, 1);
          var ex = x1 + dx * k, ey = y1 + dy * k, cx = (x1 + ex) / 2 - dy * 0.12, cy = (y1 + ey) / 2 + dx * 0.12;
          var g = el('g', { class: 'edge' }, edges);
          el('path', { d: 'M' + x1 + ',' + y1 + ' Q' + cx + ',' + cy + ' ' + ex + ',' + ey }, g);
          el('text', { x: cx, y: cy - 2, 'text-anchor': 'middle' }, g).textContent = ev;
        });
      });
      if (b.node.initial && b.kids.length) {
        var first = boxes[(key ? key + '.' : '') + b.node.initial];
        if (first) el('circle', { class: 'initial', cx: first.ax - 8, cy: first.ay + first.h / 2, r: 4 }, svg);
      }
    });
    svg.insertBefore(edges, svg.firstChild.nextSibling);
    if (rootNote) rootNote.textContent = rootEdges.length ? 'from any state: ' + rootEdges.join('; ') : '';
    return nodes;
  }
  function highlight(nodes, state) {
    Object.keys(nodes).forEach(function (k) {
      var on = state === k || state.indexOf(k + '.') === 0;
      nodes[k].classList.toggle('active', on);
    });
  }
  var charts = { session: drawChart($('chart-session'), D.machines.session, $('root-session')), request: drawChart($('chart-request'), D.machines.request), rounds: drawChart($('chart-rounds'), D.machines.rounds) };

  // ---- selection and scrubber
  function select(i, scroll) {
    if (!lines.length) return;
    selected = Math.max(0, Math.min(lines.length - 1, i));
    scrubber.value = String(selected);
    text($('position'), 'entry ' + (selected + 1) + ' of ' + lines.length + ' · #' + entry(selected).seq + ' · ' + fmtTime(entry(selected).t));
    text($('frame'), JSON.stringify(entry(selected), null, 2));
    if (scroll !== false) {
      var top = selected * ROW;
      if (top < timeline.scrollTop || top > timeline.scrollTop + timeline.clientHeight - ROW) timeline.scrollTop = Math.max(0, top - timeline.clientHeight / 2);
    }
    renderRows();
    renderStates(selected);
  }
  scrubber.addEventListener('input', function () { select(Number(scrubber.value)); });
  $('prev').addEventListener('click', function () { select(selected - 1); });
  $('next').addEventListener('click', function () { select(selected + 1); });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'ArrowRight' || ev.key === 'j') { select(selected + 1); ev.preventDefault(); }
    if (ev.key === 'ArrowLeft' || ev.key === 'k') { select(selected - 1); ev.preventDefault(); }
  });
  function resize() { spacer.style.height = (lines.length * ROW) + 'px'; scrubber.max = String(Math.max(0, lines.length - 1)); }
  var rec = D.header.recorder;
  text($('meta'), D.title + ' · ' + lines.length + ' entries · ' + (rec ? rec.transport + ' proxy recording of ' + rec.target : D.header.role + ' session journal') + (D.header.revision ? ' · revision ' + D.header.revision : ''));
  resize();
  select(0);
  window.viewer = { select: select, get selected() { return selected; }, get count() { return lines.length; } };

  // ---- live
  if (D.live) {
    $('follow-label').hidden = false;
    var source = new EventSource('events?from=' + lines.length);
    source.onmessage = function (msg) {
      var u = JSON.parse(msg.data);
      u.entries.forEach(function (e) { parsed[lines.length] = e; lines.push(''); });
      Array.prototype.push.apply(entryRequest, u.entryRequest);
      Array.prototype.push.apply(sessionChanges, u.session);
      u.requests.forEach(function (r) { requests[r.n] = r; });
      D.sessionless = u.sessionless;
      resize();
      if ($('follow').checked) select(lines.length - 1); else { renderRows(); text($('position'), 'entry ' + (selected + 1) + ' of ' + lines.length); }
    };
  }
  document.body.dataset.ready = 'true';
}
})();
`;
