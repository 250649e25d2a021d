/**
 * The viewer's script (plain browser JavaScript, no dependencies): a virtualized timeline (only
 * the visible rows are in the DOM, so 100,000 entries open at once), the scrubber, the states at
 * the selected entry, statecharts laid out from the machines' JSON, and live updates.
 */
import { VIEWER_CHART_SCRIPT } from './chart.js';

export const VIEWER_SCRIPT = String.raw`
(function () {
  'use strict';
  // A small head now; the entries in gzip blocks (base64), inflated when needed (see page.ts).
  var D = JSON.parse(document.getElementById('data-head').textContent);
  var packedCount = D.count, count = D.count, B = D.block || 1;
  var blocks = [];          // per block: undefined, a promise while it inflates, or true
  var lines = [];           // per entry: its JSON text once its block is inflated
  var parsed = [];          // per entry: parsed when first shown
  var entryRequest = [];    // per entry: the request it belongs to (its n), or -1
  var requests = [];        // by n
  var blockRequests = [];   // per block: the requests in flight at some entry of it, by start
  var sessionChanges = D.session;
  function loaded(i) { return i >= packedCount || blocks[Math.floor(i / B)] === true; }
  function entry(i) { var e = parsed[i]; if (e === undefined) e = parsed[i] = JSON.parse(lines[i]); return e; }
  function bytesOf(b64) {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(b64);
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var b = 0; b < bin.length; b++) bytes[b] = bin.charCodeAt(b);
    return bytes;
  }
  // The page's other blocks follow this script: they are there once the document is parsed.
  var parsedDocument = document.readyState !== 'loading' ? Promise.resolve() : new Promise(function (done) { document.addEventListener('DOMContentLoaded', function () { done(); }); });
  // Inflates block k (once); resolves when its entries can be shown.
  function ensure(k) {
    if (blocks[k] !== undefined) return Promise.resolve(blocks[k]);
    if (!document.getElementById('data-' + k)) return blocks[k] = parsedDocument.then(function () { blocks[k] = undefined; return ensure(k); });
    var bytes = bytesOf(document.getElementById('data-' + k).textContent.trim());
    return blocks[k] = new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(function (text) {
      take(k, text);
      onLoaded(k);
      return true;
    });
  }
  function take(k, text) {
    var split = text.split('\n'), meta = JSON.parse(split[0]), from = k * B;
    for (var j = 1; j < split.length; j++) lines[from + j - 1] = split[j];
    meta.entryRequest.forEach(function (n, j) { entryRequest[from + j] = n; });
    meta.requests.forEach(function (r) { requests[r.n] = r; });
    blockRequests[k] = meta.requests;
    blocks[k] = true;
  }
  var onLoaded = function () {};
  function failed(e) { document.getElementById('meta').textContent = 'This page\'s data could not be read: ' + e; }
  // The first block is plain JSON: the first screen is drawn now, while the page is still parsed.
  try {
    if (count) take(0, JSON.parse(document.getElementById('data-0').textContent));
  } catch (e) {
    failed(e);
    return;
  }
  start();

function start() {
  var clientKind = D.header.role === 'server' ? 'in' : 'out';
  var ROW = 22, selected = 0;
  var $ = function (id) { return document.getElementById(id); };
  var timeline = $('timeline'), rowsEl = $('rows'), spacer = $('spacer'), scrubber = $('scrubber');

  // From the start of the recording: a library journal stamps entries with its clock's time.
  var startedAt = D.header.startedAt || 0;
  function fmtTime(t) { var ms = t - startedAt; return ms < 1000 ? '+' + ms.toFixed(1) + ' ms' : '+' + (ms / 1000).toFixed(3) + ' s'; }
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
          // A retry of a 2026-07-28 multi round-trip request names the answers it carries (as the terminal timeline does).
          var answers = p.inputResponses !== undefined && p.inputResponses !== null ? Object.keys(p.inputResponses) : undefined;
          var retry = answers !== undefined ? ' (retry: ' + (answers.join(', ') || 'no answers') + ')' : typeof p.requestState === 'string' ? ' (retry)' : '';
          return f.method + (f.id !== undefined ? ' #' + JSON.stringify(f.id) : '') + (name ? ' ' + name : '') + retry;
        }
        if (r && r.end === i && r.ms !== undefined) ms = r.ms;
        if (f.error) { err = f.error.code + ' ' + f.error.message; return 'error #' + JSON.stringify(f.id) + (r ? ' (' + r.method + ')' : ''); }
        if (f.result && f.result.resultType === 'input_required') {
          var keys = Object.keys(f.result.inputRequests || {});
          return 'input_required #' + JSON.stringify(f.id) + (r ? ' (' + r.method + ')' : '') + (keys.length ? ': ' + keys.join(', ') : '') + (typeof f.result.requestState === 'string' ? ' +requestState' : '');
        }
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
    var last = Math.min(count, first + Math.ceil(timeline.clientHeight / ROW) + 20);
    var frag = document.createDocumentFragment();
    for (var i = first; i < last; i++) {
      if (!loaded(i)) { frag.appendChild(loadingRow(i)); continue; }
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
  // A row whose block is not inflated yet: its block is asked for, and the rows drawn again then.
  function loadingRow(i) {
    ensure(Math.floor(i / B));
    var row = document.createElement('div');
    row.className = 'row loading' + (i === selected ? ' selected' : '');
    row.style.top = (i * ROW) + 'px';
    row.dataset.index = String(i);
    row.appendChild(span('label', 'loading…'));
    return row;
  }
  function visible(k) {
    var first = Math.floor(timeline.scrollTop / ROW) - 10, last = first + Math.ceil(timeline.clientHeight / ROW) + 30;
    return k * B <= last && (k + 1) * B > first;
  }
  onLoaded = function (k) {
    if (Math.floor(selected / B) === k) select(selected, false);
    else if (visible(k)) renderRows();
  };
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
  // The requests in flight at entry i: those its block lists (all of them for live entries).
  function inFlight(i) {
    var list = i < packedCount ? blockRequests[Math.floor(i / B)] : requests, out = [];
    for (var k = 0; k < list.length; k++) {
      var r = list[k];
      if (!r) continue;
      if (r.start > i) break;
      if (r.end !== undefined && r.end < i) continue;
      out.push({ r: r, state: stateAt(r.states, i) });
    }
    return out;
  }
  function renderStates(i) {
    var box = $('states'); box.replaceChildren();
    if (!loaded(i)) {
      box.appendChild(span('loading', 'loading…'));
      [charts.session, charts.request, charts.rounds].forEach(function (c) { highlight(c, ''); });
      return;
    }
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
    // The other requests in flight get a chart each (up to MORE_CHARTS), so two at once are both seen.
    var others = flight.filter(function (x) { return x.r !== mine; }).slice(0, MORE_CHARTS);
    for (var c = 0; c < MORE_CHARTS; c++) {
      var x = others[c];
      if (x && !moreCharts[c]) moreCharts[c] = addRequestChart(c);
      if (!moreCharts[c]) continue;
      moreCharts[c].figure.hidden = !x;
      if (x) { text(moreCharts[c].which, x.r.from + ' ' + x.r.method + ' #' + x.r.id); highlight(moreCharts[c].chart, x.state); }
    }
    var round = mine && mine.chain ? mine : undefined;
    text($('chart-rounds-which'), round ? round.method + ' #' + round.id : '(no multi round-trip request at this point)');
    highlight(charts.rounds, round ? stateAt(round.chain.states, i) : '');
  }

  // ---- statecharts from the machines' JSON (chart.ts)
${VIEWER_CHART_SCRIPT}
  var charts = { session: drawChart($('chart-session'), D.machines.session, $('root-session')), request: drawChart($('chart-request'), D.machines.request), rounds: drawChart($('chart-rounds'), D.machines.rounds) };
  // A recording of 2026-07-28 requests only has no session: no empty session chart for it.
  function showSession() { $('session-figure').hidden = !!D.sessionless; }
  showSession();
  var MORE_CHARTS = 3, moreCharts = [];
  // Drawn the first time that many requests are in flight at once, then reused.
  function addRequestChart(c) {
    var figure = document.createElement('figure'), caption = document.createElement('figcaption'), which = span('', '');
    figure.className = 'more-request'; figure.id = 'more-request-' + c;
    caption.append('request '); caption.appendChild(which); figure.appendChild(caption);
    var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    figure.appendChild(svg);
    $('rounds-figure').before(figure);
    return { figure: figure, which: which, chart: drawChart(svg, D.machines.request) };
  }

  // ---- selection and scrubber
  // Shows entry i; when its block is not inflated yet, "loading…" until it is (onLoaded).
  function select(i, scroll) {
    if (!count) return;
    selected = Math.max(0, Math.min(count - 1, i));
    scrubber.value = String(selected);
    if (loaded(selected)) {
      text($('position'), 'entry ' + (selected + 1) + ' of ' + count + ' · #' + entry(selected).seq + ' · ' + fmtTime(entry(selected).t));
      text($('frame'), JSON.stringify(entry(selected), null, 2));
      $('frame').classList.remove('loading');
    } else {
      ensure(Math.floor(selected / B));
      text($('position'), 'entry ' + (selected + 1) + ' of ' + count + ' · loading…');
      text($('frame'), 'loading…');
      $('frame').classList.add('loading');
    }
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
  function resize() { spacer.style.height = (count * ROW) + 'px'; scrubber.max = String(Math.max(0, count - 1)); }
  var rec = D.header.recorder;
  function renderMeta() { text($('meta'), D.title + ' · ' + count + (count === 1 ? ' entry · ' : ' entries · ') + (rec ? rec.transport + ' proxy recording of ' + rec.target : D.header.role + ' session journal') + (D.header.revision ? ' · revision ' + D.header.revision : '')); }
  renderMeta();
  resize();
  select(0);
  window.viewer = { select: select, loaded: loaded, get selected() { return selected; }, get count() { return count; } };

  // ---- live
  if (D.live) {
    $('follow-label').hidden = false;
    var source = new EventSource('events?from=' + count);
    source.onmessage = function (msg) {
      var u = JSON.parse(msg.data);
      u.entryRequest.forEach(function (n, j) { entryRequest[count + j] = n; });
      u.entries.forEach(function (e) { parsed[count++] = e; });
      Array.prototype.push.apply(sessionChanges, u.session);
      u.requests.forEach(function (r) { requests[r.n] = r; });
      D.sessionless = u.sessionless;
      showSession();
      renderMeta();
      resize();
      if ($('follow').checked) select(count - 1); else { renderRows(); text($('position'), 'entry ' + (selected + 1) + ' of ' + count); }
    };
  }
  document.body.dataset.ready = 'true';
  // The other blocks, one after another, while the page is already in use.
  // When idle, so that they do not hold up the first paint or the user's input.
  var next = 1, blockCount = Math.ceil(packedCount / B);
  var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 0); };
  function inflateNext() {
    if (next >= blockCount) { document.body.dataset.complete = 'true'; return; }
    ensure(next++).then(function () { idle(inflateNext); }, failed);
  }
  parsedDocument.then(function () { idle(inflateNext); });
}
})();
`;
