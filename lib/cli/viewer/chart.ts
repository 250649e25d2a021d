/**
 * The viewer's statecharts (plain browser JavaScript, part of the page's script): a machine's JSON
 * (machines/json.ts) drawn as SVG, top to bottom, with no label over another label or a state box.
 *
 * A layered layout, deterministic, per compound state from the inside out: the children of a
 * compound are put in layers by the longest path from its initial state (cycles broken where a
 * depth-first walk from the initial state meets its own path; transitions "from any state" of the
 * machine pull their targets below the others); a transition that spans layers gets a slot in each
 * layer between (so its line passes between boxes); the order in each layer follows the neighbours'
 * (barycenters), the x positions too. Transition labels go in the bands *between* layers, where no
 * box is: each at the middle of its transition, moved sideways or down where it would cover one
 * already placed, and the band grows to hold them. Lines run under the labels (which have a halo).
 * Defines `drawChart` and `highlight`.
 */
export const VIEWER_CHART_SCRIPT = String.raw`
  var SVGNS = 'http://www.w3.org/2000/svg';
  var NAME_PX = 12, LABEL_PX = 10, LINE = 12, BOX_H = 30, GAP_X = 26, SLOT_W = 10, BAND_MIN = 26, PAD = 12, TITLE = 24, MARK = 16;
  function el(name, attrs, parent) { var e = document.createElementNS(SVGNS, name); for (var k in attrs) e.setAttribute(k, attrs[k]); if (parent) parent.appendChild(e); return e; }
  // The page's font is monospace: a text's width is its length times an advance no common
  // monospace font exceeds (DejaVu Sans Mono, Menlo: 0.602 em; SF Mono 0.6; Consolas 0.55), so the
  // layout is the same wherever the page is opened, and needs no measuring (canvas, layout).
  function textWidth(s, px) { return s.length * px * 0.62; }
  function targets(t) {
    if (t === undefined || t === null) return [];
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
  function guardName(t) { var g = t && t.guard; return typeof g === 'string' ? g : g && g.type; }

  // The state tree, and every transition with a target (on, after, always), one per source and
  // target with its events as lines.
  function tree(config) {
    var all = {};
    function walk(node, path, parent) {
      var s = { key: path.join('.'), name: path[path.length - 1] || '', path: path, node: node, parent: parent, kids: [] };
      all[s.key] = s;
      Object.keys(node.states || {}).forEach(function (k) { s.kids.push(walk(node.states[k], path.concat(k), s)); });
      return s;
    }
    var root = walk(config, [], null), edges = [], byPair = {};
    function add(from, list, label) {
      (Array.isArray(list) ? list : [list]).forEach(function (t) {
        targets(t).forEach(function (target) {
          var to = resolve(target, from.key, config.id);
          if (!all[to]) return;
          var text = label === 'always' && guardName(t) ? '[' + guardName(t) + ']' : label, pair = from.key + '>' + to, e = byPair[pair];
          if (!e) { e = byPair[pair] = { from: from, to: all[to], lines: [] }; edges.push(e); }
          if (e.lines.indexOf(text) < 0) e.lines.push(text);
        });
      });
    }
    Object.keys(all).forEach(function (key) {
      var s = all[key], n = s.node;
      Object.keys(n.on || {}).forEach(function (ev) { add(s, n.on[ev], ev); });
      Object.keys(n.after || {}).forEach(function (d) { add(s, n.after[d], 'after ' + d); });
      if (n.always) add(s, n.always, 'always');
    });
    return { root: root, all: all, edges: edges };
  }

  // Each transition belongs to the compound whose children hold its two ends (they may be deeper):
  // the machine's own ("from any state") transitions are listed apart.
  function assign(t) {
    var rootEdges = [];
    t.edges.forEach(function (e) {
      var a = e.from.path, b = e.to.path;
      if (!a.length) { rootEdges.push(e); return; }
      var p = 0; while (p < a.length && p < b.length && a[p] === b[p]) p++;
      var q = p === a.length || p === b.length ? p - 1 : p;
      var container = t.all[a.slice(0, q).join('.')];
      e.s = t.all[a.slice(0, q + 1).join('.')]; e.t = t.all[b.slice(0, q + 1).join('.')];
      (container.edges = container.edges || []).push(e);
    });
    return rootEdges;
  }

  function labelBox(lines) {
    var w = 0; lines.forEach(function (l) { w = Math.max(w, textWidth(l, LABEL_PX)); });
    return { w: Math.ceil(w) + 6, h: lines.length * LINE + 2, lines: lines };
  }

  // Lays out a state's children (their own layouts first); sets w and h of the state, x and y of
  // its children, and the slots and labels of its transitions, relative to the state.
  function layout(s, anyState) {
    s.kids.forEach(function (k) { layout(k, []); });
    if (!s.kids.length) { s.w = Math.max(70, Math.ceil(textWidth(s.name, NAME_PX)) + 24); s.h = BOX_H; return; }
    var kids = s.kids, index = {}, edges = s.edges || [], self = [], links = [];
    kids.forEach(function (k, i) { index[k.key] = i; });
    edges.forEach(function (e) { if (e.s === e.t) self.push(e); else links.push(e); });
    var initial = s.node.initial && index[s.key ? s.key + '.' + s.node.initial : s.node.initial];
    if (initial === undefined) initial = 0;
    // Out-neighbours for the walk: transitions first, then "from any state" ones (weaker).
    var out = kids.map(function () { return []; });
    links.forEach(function (e) { out[index[e.s.key]].push({ to: index[e.t.key], e: e }); });
    anyState.forEach(function (e) {
      var to = index[e.t.key];
      kids.forEach(function (k, i) { if (i !== to && i !== initial && k.node.type !== 'final') out[i].push({ to: to }); });
    });
    // Depth-first from the initial state: an edge back into the path is turned round.
    var mark = kids.map(function () { return 0; }), order = [], dag = kids.map(function () { return []; });
    function visit(i) {
      mark[i] = 1;
      out[i].forEach(function (o) {
        if (mark[o.to] === 1) { if (o.e) { o.e.reversed = true; dag[o.to].push(i); } return; }
        if (o.e) o.e.reversed = false;
        dag[i].push(o.to);
        if (!mark[o.to]) visit(o.to);
      });
      mark[i] = 2; order.push(i);
    }
    visit(initial);
    kids.forEach(function (k, i) { if (!mark[i]) visit(i); });
    var rank = kids.map(function () { return 0; });
    order.reverse().forEach(function (i) { dag[i].forEach(function (j) { rank[j] = Math.max(rank[j], rank[i] + 1); }); });
    // Layers of states and of slots for transitions that pass a layer.
    var depth = Math.max.apply(null, rank) + 1, layers = [], items = kids.map(function (k, i) { return { s: k, w: k.w, h: k.h, rank: rank[i], up: [], down: [] }; });
    for (var r = 0; r < depth; r++) layers.push([]);
    items.forEach(function (it) { layers[it.rank].push(it); });
    function link(a, b) { a.down.push(b); b.up.push(a); }
    links.forEach(function (e) {
      var upper = items[index[(e.reversed ? e.t : e.s).key]], lower = items[index[(e.reversed ? e.s : e.t).key]], chain = [upper];
      for (var r = upper.rank + 1; r < lower.rank; r++) { var slot = { slot: true, w: SLOT_W, h: 0, rank: r, up: [], down: [] }; layers[r].push(slot); chain.push(slot); }
      chain.push(lower);
      for (var c = 1; c < chain.length; c++) link(chain[c - 1], chain[c]);
      e.chain = chain;
      e.band = e.reversed ? lower.rank - 1 : upper.rank;
    });
    // Order in each layer by the neighbours' mean position, down and up a few times.
    function pos() { layers.forEach(function (l) { l.forEach(function (it, i) { it.i = i; }); }); }
    function sortBy(l, side) {
      l.forEach(function (it) { var n = it[side]; it.key = n.length ? n.reduce(function (a, x) { return a + x.i; }, 0) / n.length : it.i; });
      l.sort(function (a, b) { return a.key - b.key || a.i - b.i; });
      l.forEach(function (it, i) { it.i = i; });
    }
    pos();
    for (var sweep = 0; sweep < 4; sweep++) {
      for (var d = 1; d < depth; d++) sortBy(layers[d], 'up');
      for (var u = depth - 2; u >= 0; u--) sortBy(layers[u], 'down');
    }
    // x: packed and centred, then towards the neighbours' mean, keeping the order and the gaps.
    function gap(a, b) { return a.w / 2 + b.w / 2 + (a.slot || b.slot ? 8 : GAP_X); }
    layers.forEach(function (l) {
      var x = 0; l.forEach(function (it, i) { if (i) x += gap(l[i - 1], it); it.x = x; });
      l.forEach(function (it) { it.x -= x / 2; });
    });
    function settle(l, side) {
      var want = l.map(function (it) { var n = it[side]; return n.length ? n.reduce(function (a, x) { return a + x.x; }, 0) / n.length : it.x; });
      var left = want.slice(), right = want.slice();
      for (var i = 1; i < l.length; i++) left[i] = Math.max(left[i], left[i - 1] + gap(l[i - 1], l[i]));
      for (var j = l.length - 2; j >= 0; j--) right[j] = Math.min(right[j], right[j + 1] - gap(l[j], l[j + 1]));
      l.forEach(function (it, i) { it.x = (left[i] + right[i]) / 2; });
    }
    for (var round = 0; round < 3; round++) {
      for (var dd = 1; dd < depth; dd++) settle(layers[dd], 'up');
      for (var uu = depth - 2; uu >= 0; uu--) settle(layers[uu], 'down');
    }
    // y: layer by layer; the labels of each band placed before the next layer.
    var top = (s.key ? TITLE : 4) + MARK, labels = [], y = top;
    layers.forEach(function (l, r) {
      var h = 0; l.forEach(function (it) { h = Math.max(h, it.h); });
      l.forEach(function (it) { it.y = y + (h - it.h) / 2; it.top = y; it.bottom = y + h; });
      y += h;
      var band = [];
      links.forEach(function (e) {
        if (e.band !== r) return;
        var k = e.reversed ? e.chain.length - 2 : 0, a = e.chain[k], b = e.chain[k + 1];
        band.push({ e: e, x: (a.x + b.x) / 2 });
      });
      self.forEach(function (e) { if (items[index[e.s.key]].rank === r) band.push({ e: e, x: items[index[e.s.key]].x + items[index[e.s.key]].w / 4 }); });
      band.sort(function (a, b) { return a.x - b.x; });
      var placed = [], bottom = y + BAND_MIN;
      band.forEach(function (b) {
        var lb = labelBox(b.e.lines), spot = placeLabel(placed, b.x, y + 7, lb.w, lb.h);
        lb.x = spot.x; lb.y = spot.y; placed.push(lb); b.e.label = lb; labels.push(lb);
        bottom = Math.max(bottom, lb.y + lb.h + 7);
      });
      if (r < depth - 1 || placed.length) y = bottom;
    });
    // The box: everything drawn, the title, a margin.
    var minX = Infinity, maxX = -Infinity;
    layers.forEach(function (l) { l.forEach(function (it) { minX = Math.min(minX, it.x - it.w / 2); maxX = Math.max(maxX, it.x + it.w / 2); }); });
    labels.forEach(function (lb) { minX = Math.min(minX, lb.x - lb.w / 2); maxX = Math.max(maxX, lb.x + lb.w / 2); });
    var titleW = s.key ? textWidth(s.name, NAME_PX) + 24 : 0, width = Math.max(maxX - minX, titleW - 2 * PAD), shift = PAD - minX + (width - (maxX - minX)) / 2;
    layers.forEach(function (l) { l.forEach(function (it) { it.x += shift; }); });
    labels.forEach(function (lb) { lb.x += shift; });
    items.forEach(function (it) { if (it.s) { it.s.x = it.x - it.w / 2; it.s.y = it.y; } });
    s.w = Math.ceil(width + 2 * PAD); s.h = Math.ceil(y + PAD);
    s.items = layers.reduce(function (a, l) { return a.concat(l); }, []); s.initialItem = s.node.initial ? items[initial] : null;
  }

  // The first free spot for a w×h label centred near x, from y down: sideways first (by less than
  // its width), then lower.
  function placeLabel(placed, x, y, w, h) {
    var M = 14, best;
    function free(cx, cy) {
      for (var i = 0; i < placed.length; i++) {
        var p = placed[i];
        if (Math.abs(p.x - cx) < (p.w + w) / 2 + M && cy < p.y + p.h + 2 && p.y < cy + h + 2) return p;
      }
      return null;
    }
    var ys = [y].concat(placed.map(function (p) { return p.y + p.h + 2; })).sort(function (a, b) { return a - b; });
    for (var k = 0; k < ys.length && !best; k++) {
      var cy = ys[k];
      [1, -1].forEach(function (dir) {
        var cx = x, hit;
        for (var n = 0; n < placed.length + 1 && (hit = free(cx, cy)); n++) cx = hit.x + dir * ((hit.w + w) / 2 + M);
        if (!hit && Math.abs(cx - x) <= w + 20 && (!best || Math.abs(cx - x) < Math.abs(best.x - x))) best = { x: cx, y: cy };
      });
    }
    return best || { x: x, y: ys[ys.length - 1] };
  }

  // Absolute positions: each state's x, y become page coordinates.
  function place(s, ox, oy) {
    s.ax = ox + (s.x || 0); s.ay = oy + (s.y || 0);
    (s.items || []).forEach(function (it) { it.ax = it.x + s.ax; it.atop = it.top + s.ay; it.abottom = it.bottom + s.ay; });
    (s.edges || []).forEach(function (e) { if (e.label) { e.label.ax = e.label.x + s.ax; e.label.ay = e.label.y + s.ay; } });
    s.kids.forEach(function (k) { place(k, s.ax, s.ay); });
  }

  // A transition's line: from its source's side to its label, through its slots, to its target.
  function route(e) {
    var down = !e.reversed, from = e.from, to = e.to, lb = e.label, pts = [];
    var sx = from.ax + from.w / 2, tx = to.ax + to.w / 2;
    if (e.s === e.t) {
      // Out of the box's bottom, round its label, and back.
      var by = e.s.ay + e.s.h, x0 = e.s.ax + e.s.w * 0.6, x1 = e.s.ax + e.s.w * 0.85;
      return [{ x: x0, y: by }, { x: lb.ax, y: lb.ay + lb.h / 2 }, { x: x1, y: by }];
    }
    pts.push({ x: sx, y: down ? from.ay + from.h : from.ay, port: from });
    if (from !== e.s) pts.push({ x: sx, y: down ? e.s.ay + e.s.h : e.s.ay });
    var chain = e.chain.slice(1, -1);
    if (!down) chain.reverse();
    pts.push({ x: lb.ax, y: lb.ay + lb.h / 2 });
    chain.forEach(function (it) { pts.push({ x: it.ax, y: down ? it.atop : it.abottom }); pts.push({ x: it.ax, y: down ? it.abottom : it.atop }); });
    if (to !== e.t) pts.push({ x: tx, y: down ? e.t.ay : e.t.ay + e.t.h });
    pts.push({ x: tx, y: down ? to.ay : to.ay + to.h, port: to });
    return pts;
  }
  function curve(pts) {
    var d = 'M' + pts[0].x.toFixed(1) + ',' + pts[0].y.toFixed(1);
    for (var i = 1; i < pts.length; i++) {
      var a = pts[i - 1], b = pts[i], my = ((a.y + b.y) / 2).toFixed(1);
      d += ' C' + a.x.toFixed(1) + ',' + my + ' ' + b.x.toFixed(1) + ',' + my + ' ' + b.x.toFixed(1) + ',' + b.y.toFixed(1);
    }
    return d;
  }
  // Several lines on one side of a box leave it side by side, in the order of where they go.
  function spreadPorts(routes) {
    var sides = {};
    routes.forEach(function (pts) {
      [[pts[0], pts[1]], [pts[pts.length - 1], pts[pts.length - 2]]].forEach(function (p) {
        if (!p[0].port) return;
        var k = p[0].port.key + (p[0].y === p[0].port.ay ? '^' : 'v');
        (sides[k] = sides[k] || []).push({ p: p[0], next: p[1].x, box: p[0].port });
      });
    });
    Object.keys(sides).forEach(function (k) {
      var list = sides[k].sort(function (a, b) { return a.next - b.next; }), box = list[0].box;
      list.forEach(function (x, i) { x.p.x = box.ax + box.w * (i + 1) / (list.length + 1); });
    });
  }

  function drawChart(svg, config, rootNote) {
    var t = tree(config), rootEdges = assign(t);
    layout(t.root, rootEdges.filter(function (e) { return e.to.path.length; }).map(function (e) { return { t: t.all[e.to.path[0]] }; }));
    place(t.root, 0, 0);
    var note = rootEdges.map(function (e) { return e.lines.join(', ') + ' → ' + e.to.key; }).join('; ');
    var w = t.root.w, h = t.root.h;
    if (note && !rootNote) { h += LINE + 4; w = Math.max(w, Math.ceil(textWidth('from any state: ' + note, LABEL_PX)) + 2 * PAD); }
    svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    svg.style.maxWidth = w + 'px';
    var defs = el('defs', {}, svg), m = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '9', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#56636f' }, m);
    // Compound states' boxes (a highlighted one is filled), lines, labels (over every line), states.
    var compoundsG = el('g', {}, svg), linesG = el('g', { class: 'lines' }, svg), labelsG = el('g', { class: 'labels' }, svg), statesG = el('g', {}, svg), nodes = {};
    Object.keys(t.all).forEach(function (key) {
      var s = t.all[key];
      if (!key) return;
      var kind = s.kids.length ? 'compound' : (s.node.type === 'final' ? 'final' : 'atomic');
      var g = el('g', { class: 'node ' + kind, 'data-state': key }, s.kids.length ? compoundsG : statesG);
      el('rect', { x: s.ax, y: s.ay, width: s.w, height: s.h, rx: 8 }, g);
      el('text', { x: s.kids.length ? s.ax + 10 : s.ax + s.w / 2, y: s.kids.length ? s.ay + 17 : s.ay + s.h / 2 + 4, 'text-anchor': s.kids.length ? 'start' : 'middle' }, g).textContent = s.name;
      nodes[key] = g;
    });
    // The initial state of each compound: a dot and an arrow above it.
    Object.keys(t.all).forEach(function (key) {
      var s = t.all[key], first = s.initialItem;
      if (!first || !first.s) return;
      var x = first.s.ax + first.s.w / 2, y = first.s.ay;
      el('circle', { class: 'initial', cx: x, cy: y - MARK + 3, r: 3.5 }, svg);
      el('path', { class: 'initial-arrow', d: 'M' + x + ',' + (y - MARK + 6) + ' L' + x + ',' + y }, linesG);
    });
    var withLines = t.edges.filter(function (e) { return e.label; }), routes = withLines.map(route);
    spreadPorts(routes);
    withLines.forEach(function (e, i) {
      var g = el('g', { class: 'edge' }, labelsG), lb = e.label;
      el('path', { d: curve(routes[i]) }, linesG);
      var text = el('text', { x: lb.ax, y: lb.ay + LINE - 2, 'text-anchor': 'middle' }, g);
      lb.lines.forEach(function (line, k) { el('tspan', { x: lb.ax, dy: k ? LINE : 0 }, text).textContent = line; });
    });
    if (rootNote) rootNote.textContent = note ? 'from any state: ' + note : '';
    else if (note) el('text', { class: 'root-note', x: PAD, y: h - 6 }, svg).textContent = 'from any state: ' + note;
    return nodes;
  }
  function highlight(nodes, state) {
    Object.keys(nodes).forEach(function (k) {
      var on = state === k || state.indexOf(k + '.') === 0;
      nodes[k].classList.toggle('active', on);
    });
  }
`;
