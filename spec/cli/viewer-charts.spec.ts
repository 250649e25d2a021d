// The statecharts the session viewer draws, read back from a real browser (Debian's chromium via
// playwright-core): no label (state name, transition event, "from any state" note) may overlap
// another label or a state box, or fall outside its chart. Checked for the charts of a recorded
// session's page (`inspect --html`) and for every machine of machines/ drawn by the same page, with
// every state highlighted (bold names are the widest).
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { machineConfigJSON, machines } from '../../machines/index.js';
import { parseJournalText, readJournalFile } from '../../lib/cli/journal-file.js';
import { trackStates } from '../../lib/cli/session-states.js';
import { renderViewerPage, viewerData } from '../../lib/cli/viewer/page.js';
import { runInProcess } from './helpers.js';
import { recordedSessionInChromium, type ViewerFixture } from './viewer-fixture.js';


/**
 * Runs in the page: every overlap in the charts, as sentences. A label may sit inside a compound
 * state's box (its children's transitions do) but not across its border. (Plain browser
 * JavaScript in a string: the page has none of the helpers tsx adds to compiled functions.)
 */
const OVERLAPS = String.raw`(function () {
  var out = [];
  function box(e) { return e.getBoundingClientRect(); }
  function cut(a, b) { return Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5; }
  function inside(a, b) { return a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5; }
  document.querySelectorAll('#charts svg').forEach(function (svg) {
    var chart = svg.id.replace(/^chart-/, '');
    var nodes = Array.from(svg.querySelectorAll('g.node'));
    nodes.forEach(function (g) { g.classList.add('active'); });
    var labels = Array.from(svg.querySelectorAll('text')).map(function (t) { return { t: t, name: '"' + t.textContent + '"', box: box(t) }; });
    var states = nodes.map(function (g) { return { g: g, name: g.getAttribute('data-state'), compound: g.classList.contains('compound'), box: box(g.querySelector(':scope > rect')) }; });
    if (!states.length) out.push(chart + ': no states drawn');
    var whole = box(svg);
    labels.forEach(function (a, i) {
      if (!inside(a.box, whole)) out.push(chart + ': label ' + a.name + " is cut off by the chart's edge");
      labels.slice(i + 1).forEach(function (b) { if (cut(a.box, b.box)) out.push(chart + ': label ' + a.name + ' overlaps label ' + b.name); });
      states.forEach(function (s) {
        if (a.t.parentNode === s.g) { if (!inside(a.box, s.box)) out.push(chart + ': the name of state ' + s.name + ' sticks out of its box'); }
        else if (cut(a.box, s.box) && !(s.compound && inside(a.box, s.box))) out.push(chart + ': label ' + a.name + ' overlaps state ' + s.name);
      });
    });
    states.forEach(function (a, i) {
      states.slice(i + 1).forEach(function (b) {
        var nested = b.name.indexOf(a.name + '.') === 0 || a.name.indexOf(b.name + '.') === 0;
        if (nested ? !inside(a.box, b.box) && !inside(b.box, a.box) : cut(a.box, b.box)) out.push(chart + ': state ' + a.name + ' overlaps state ' + b.name);
      });
    });
    nodes.forEach(function (g) { g.classList.remove('active'); });
  });
  return out;
})()`;
const overlaps = (page: Page): Promise<string[]> => page.evaluate(OVERLAPS);

describe('mcp-actors inspect --html: statecharts without overlapping labels, in chromium', function () {
  this.timeout(60000);
  let dir: string;
  let recording: string;
  let page: Page;

  let fixture: ViewerFixture | undefined;

  before(async () => {
    fixture = await recordedSessionInChromium('mcp-charts-');
    ({ dir, recording, page } = fixture);
  });
  after(async () => {
    await fixture?.close();
  });

  it("a recorded session's page: the session, request and input-rounds charts have no overlapping labels", async () => {
    const html = join(dir, 's.html');
    expect((await runInProcess(['inspect', recording, '--html', html])).code).to.equal(0);
    await page.goto(`file://${html}`);
    await page.waitForSelector('body[data-ready=true]');
    expect(await page.locator('#charts svg').count()).to.equal(3);
    expect(await overlaps(page)).to.deep.equal([]);
  });

  it('every machine of machines/ drawn by the viewer: no label overlaps another label or a state box', async () => {
    const file = readJournalFile(recording);
    const base = viewerData(file, trackStates(file.header, file.entries));
    const names = Object.keys(machines) as (keyof typeof machines)[];
    const found: string[] = [];
    // The page has three chart slots: three machines a page.
    for (let k = 0; k < names.length; k += 3) {
      const [a, b, c] = [names[k]!, names[k + 1] ?? names[0]!, names[k + 2] ?? names[1]!];
      const html = join(dir, `machines-${k}.html`);
      writeFileSync(html, renderViewerPage({ ...base, machines: { session: machineConfigJSON(machines[a]), request: machineConfigJSON(machines[b]), rounds: machineConfigJSON(machines[c]) } }));
      await page.goto(`file://${html}`);
      await page.waitForSelector('body[data-ready=true]');
      const named = { session: a, request: b, rounds: c };
      found.push(...(await overlaps(page)).map((s) => s.replace(/^(\w+):/, (_, slot: keyof typeof named) => `${named[slot]}:`)));
    }
    expect(found).to.deep.equal([]);
  });

  it('the overlap check itself finds a label drawn over a state box', async () => {
    const file = parseJournalText(['{"format":"mcp-actors/journal","version":1,"role":"client","startedAt":0}', '{"seq":0,"t":0,"kind":"transport","phase":"open"}'].join('\n'), 'x.jsonl');
    const html = join(dir, 'moved.html');
    writeFileSync(html, renderViewerPage(viewerData(file, trackStates(file.header, file.entries))));
    await page.goto(`file://${html}`);
    await page.waitForSelector('body[data-ready=true]');
    // Move one transition label onto the box of the session's initial state.
    await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const rect = doc.querySelector('#chart-session g.node[data-state=connecting] > rect');
      const label = doc.querySelector('#chart-session g.edge text');
      label.setAttribute('x', String(Number(rect.getAttribute('x')) + 20));
      label.setAttribute('y', String(Number(rect.getAttribute('y')) + 20));
      label.querySelectorAll('tspan').forEach((s: any) => s.setAttribute('x', label.getAttribute('x')));
    });
    expect((await overlaps(page)).some((s) => /^session: label ".+" overlaps state "?connecting/.test(s))).to.equal(true);
  });
});
