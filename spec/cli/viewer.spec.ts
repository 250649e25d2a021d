// The session viewer (`inspect --html`, `inspect --serve`) in a real browser: Debian's chromium
// driven by playwright-core. A recorded session is loaded, the scrubber moved, and what the page
// shows is checked: the timeline, the frame, the machines' states and the highlighted statechart
// nodes. The terminal timeline and `--at` are checked too.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CLI, runInProcess } from './helpers.js';
import { recordedSessionInChromium, type ViewerFixture } from './viewer-fixture.js';
import { tsArgs } from '../helpers/ts-child.js';


describe('mcp-actors inspect: terminal timeline and the viewer in chromium', function () {
  this.timeout(60000);
  let dir: string;
  let recording: string;
  let browser: Browser;
  let page: Page;

  let fixture: ViewerFixture | undefined;

  before(async () => {
    fixture = await recordedSessionInChromium('mcp-view-');
    ({ dir, recording, browser, page } = fixture);
  });
  after(async () => {
    await fixture?.close();
  });

  it('prints the timeline with directions, durations and session machine states; --at N shows every machine at N', async () => {
    const run = await runInProcess(['inspect', recording]);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.match(/client → server {2}tools\/call #2 slow/);
    expect(run.stdout).to.match(/server → client {2}result #2 \(tools\/call\) \(\d+\.\d ms\)/);
    expect(run.stdout).to.include('session machine → operating');
    const lines = readFileSync(recording, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const progress = lines.find((e) => e.frame?.method === 'notifications/progress');
    const at = await runInProcess(['inspect', recording, '--at', String(progress.seq), '--json']);
    const states = JSON.parse(at.stdout);
    expect(states.session).to.equal('operating');
    expect(states.requests).to.deep.equal([{ id: '2', method: 'tools/call', from: 'client', state: 'active.progressing' }]);
  });

  it('--html: a self-contained page; the scrubber moves through the session and the frame, states and statecharts follow', async () => {
    const html = join(dir, 's.html');
    const run = await runInProcess(['inspect', recording, '--html', html]);
    expect(run.code).to.equal(0);
    const text = readFileSync(html, 'utf8');
    expect(text).to.not.match(/<(script|link|img)[^>]+(src|href)=/);
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`file://${html}`);
    await page.waitForSelector('body[data-ready=true]');
    expect(requested.filter((u) => !u.startsWith('file:'))).to.deep.equal([]);
    const count = lines(recording).length;
    expect(await page.textContent('#position')).to.include(`entry 1 of ${count}`);
    expect(await page.locator('#session-state .state').textContent()).to.equal('awaitingInitialize');

    // Move the scrubber with the keyboard, as a person would.
    await page.focus('#scrubber');
    await page.keyboard.press('End');
    expect(await page.textContent('#position')).to.include(`entry ${count} of ${count}`);
    expect(await page.locator('#session-state .state').textContent()).to.equal('closed');
    expect(await page.locator('#chart-session g.node.active').getAttribute('data-state')).to.equal('closed');
    expect(JSON.parse((await page.textContent('#frame'))!)).to.include({ kind: 'transport', phase: 'closed' });

    const progressIndex = lines(recording).findIndex((e) => e.frame?.method === 'notifications/progress');
    await page.keyboard.press('Home');
    for (let i = 0; i < progressIndex; i++) await page.keyboard.press('ArrowRight');
    expect(await page.textContent('#position')).to.include(`entry ${progressIndex + 1} of`);
    expect(await page.textContent('#frame')).to.include('notifications/progress');
    expect(await page.locator('#session-state .state').textContent()).to.equal('operating');
    expect(await page.textContent('#request-states')).to.include('client tools/call #2: active.progressing');
    expect(await page.locator('#chart-request g.node.active').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-state')))).to.deep.equal(['active', 'active.progressing']);
    expect(await page.textContent('#chart-request-which')).to.equal('client tools/call #2');
    expect(await page.locator('.row.selected .label').textContent()).to.match(/^notifications\/progress 1\/2/);
    // The README's screenshot: a request in flight, its machine in active.progressing.
    if (process.env.MCP_ACTORS_SCREENSHOT) {
      // Tall enough for the three charts.
      await page.setViewportSize({ width: 1400, height: 1350 });
      await page.screenshot({ path: 'docs/cli-viewer.png' });
      await page.setViewportSize({ width: 1400, height: 900 });
    }

    // Clicking a row selects it.
    await page.locator('.row', { hasText: 'result #2 (tools/call)' }).click();
    expect(await page.locator('#chart-request g.node.active').getAttribute('data-state')).to.equal('settled');
  });

  it('--html of a large session: opens on its first block; a jump to the last entry right after load shows loading, then that entry, its states and chart', async () => {
    // 20,000 tools/call in rounds of 50 (50 requests out, then their 50 results): 40,006 entries,
    // 41 blocks, requests in flight across block boundaries.
    const big = join(dir, 'big.jsonl');
    const t0 = 1795714412580;
    const out = [JSON.stringify({ format: 'mcp-actors/journal', version: 1, role: 'client', startedAt: t0, revision: '2025-11-25', session: { info: { name: 'spec', version: '1' }, capabilities: {}, supportedVersions: ['2025-11-25'] } })];
    const add = (e: object) => out.push(JSON.stringify({ ...e, seq: out.length - 1, t: t0 + out.length }));
    add({ kind: 'transport', phase: 'open' });
    add({ kind: 'out', frame: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec', version: '1' } } } });
    add({ kind: 'in', frame: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'spec', version: '1' } } } });
    add({ kind: 'out', frame: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    for (let round = 0; round < 400; round++) {
      for (let k = 1; k <= 50; k++) add({ kind: 'out', frame: { jsonrpc: '2.0', id: round * 50 + k, method: 'tools/call', params: { name: 'echo', arguments: { text: `hello ${round * 50 + k}` } } } });
      for (let k = 1; k <= 50; k++) add({ kind: 'in', frame: { jsonrpc: '2.0', id: round * 50 + k, result: { content: [{ type: 'text', text: `hello ${round * 50 + k}` }] } } });
    }
    add({ kind: 'out', frame: { jsonrpc: '2.0', id: 20001, method: 'tools/call', params: { name: 'echo', arguments: { text: 'last' } } } });
    add({ kind: 'transport', phase: 'closed' });
    writeFileSync(big, out.join('\n') + '\n');
    const count = out.length - 1;
    const html = join(dir, 'big.html');
    expect((await runInProcess(['inspect', big, '--html', html])).code).to.equal(0);

    const p = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      // Hold the page's background inflation (it runs when idle) until the jump is checked.
      await p.addInitScript(`window.__idle = []; window.requestIdleCallback = function (f) { window.__idle.push(f); return 0; };`);
      await p.goto(`file://${html}`);
      await p.waitForSelector('body[data-ready=true]');
      expect(await p.textContent('#position')).to.include(`entry 1 of ${count}`);
      // Times from the start of the recording (the first entry is 1 ms after it), not the clock's epoch.
      expect(await p.textContent('#position')).to.include('· +1.0 ms');
      expect(await p.locator('.row').first().textContent()).to.include('transport');
      const jumped = await p.evaluate(() => {
        const v = (globalThis as any).viewer;
        const before = v.loaded(v.count - 1);
        v.select(v.count - 1);
        return { before, frame: (globalThis as any).document.getElementById('frame').textContent };
      });
      expect(jumped).to.deep.equal({ before: false, frame: 'loading…' });
      await p.waitForFunction(() => !(globalThis as any).document.getElementById('frame').classList.contains('loading'));
      expect(JSON.parse((await p.textContent('#frame'))!)).to.deep.equal(JSON.parse(out[count]!));
      expect(await p.textContent('#position')).to.include(`entry ${count} of ${count} · #${count - 1}`);
      expect(await p.locator('#session-state .state').textContent()).to.equal('closed');
      expect(await p.locator('#chart-session g.node.active').getAttribute('data-state')).to.equal('closed');

      // An entry in a middle block, in flight across nothing loaded yet: request 10,025 is sent at
      // entry 4 + 200 * 100 + 24 and answered 50 entries later.
      const sent = 4 + 200 * 100 + 24;
      await p.evaluate((i) => (globalThis as any).viewer.select(i), sent);
      await p.waitForFunction(() => !(globalThis as any).document.getElementById('frame').classList.contains('loading'));
      expect(await p.textContent('#frame')).to.include('"id": 10025');
      expect(await p.locator('.row.selected .label').textContent()).to.equal('tools/call #10025 echo');
      expect(await p.textContent('#states')).to.include('request machines in flight: 25');
      expect(await p.textContent('#chart-request-which')).to.equal('client tools/call #10025');
      expect(await p.locator('#chart-request g.node.active').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-state')))).to.deep.equal(['active', 'active.pending']);

      // Let the background go: every block is inflated, and the timeline scrolls through them.
      await p.evaluate(() => setInterval(() => { const q = (globalThis as any).__idle.splice(0); q.forEach((f: () => void) => f()); }, 5));
      await p.waitForSelector('body[data-complete=true]', { timeout: 30000 });
      await p.evaluate(() => (globalThis as any).viewer.select(100));
      expect(await p.locator('.row.selected .label').textContent()).to.match(/^(tools\/call|result) #\d+/);
    } finally {
      await p.close();
    }
  });

  for (const [width, height] of [[1280, 720], [1440, 900], [1920, 1080]] as const) {
    it(`a ${width}×${height} window: the selected entry's frame is on screen without scrolling, several lines tall`, async () => {
      const html = join(dir, `size-${width}.html`);
      expect((await runInProcess(['inspect', recording, '--html', html])).code).to.equal(0);
      const p = await browser.newPage({ viewport: { width, height } });
      try {
        await p.goto(`file://${html}`);
        await p.waitForSelector('body[data-ready=true]');
        const result = lines(recording).findIndex((e) => e.frame?.result !== undefined && e.frame?.id === 2);
        await p.evaluate((i) => (globalThis as any).viewer.select(i), result);
        const box = (await p.locator('#frame').boundingBox())!;
        expect(box.y + box.height, 'the frame ends inside the window').to.be.at.most(height);
        // A line is ~18 px: a frame shrunk to one line (as before) is under 30.
        expect(box.height).to.be.at.least(Math.min(0.4 * height, 90));
        expect(await p.locator('#frame').textContent()).to.include('"result"');
      } finally {
        await p.close();
      }
    });
  }

  it('a 2026-07-28 recording: no session chart, input_required and its retry named, a chart for each request in flight', async () => {
    const modern = join(dir, 'modern.jsonl');
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const frames: object[] = [
      { kind: 'in', frame: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', _meta: meta } } },
      { kind: 'in', frame: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', _meta: meta } } },
      { kind: 'out', frame: { jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', inputRequests: { who: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } } }, requestState: 'v1.abc.def' } } },
      { kind: 'in', frame: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ask', inputResponses: { who: { action: 'accept', content: {} } }, requestState: 'v1.abc.def', _meta: meta } } },
      { kind: 'out', frame: { jsonrpc: '2.0', id: 3, result: { resultType: 'complete', content: [{ type: 'text', text: 'Hello' }] } } },
      { kind: 'out', frame: { jsonrpc: '2.0', id: 2, result: { resultType: 'complete', content: [{ type: 'text', text: 'done' }] } } },
    ];
    const header = { format: 'mcp-actors/journal', version: 1, role: 'server', startedAt: 0, recorder: { kind: 'proxy', transport: 'stdio', target: 'node server.js', startedAtIso: '2026-11-28T00:00:00.000Z' } };
    writeFileSync(modern, [header, ...frames.map((f, seq) => ({ seq, t: seq * 10, ...f }))].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const html = join(dir, 'modern.html');
    expect((await runInProcess(['inspect', modern, '--html', html])).code).to.equal(0);
    const p = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    try {
      await p.goto(`file://${html}`);
      await p.waitForSelector('body[data-ready=true]');
      expect(await p.locator('#session-figure').isVisible()).to.equal(false);
      const rows = await p.locator('#rows .row .label').allTextContents();
      expect(rows).to.include('input_required #1 (tools/call): who +requestState');
      expect(rows).to.include('tools/call #3 ask (retry: who)');
      // At the second call both calls are in flight: two request charts, each naming its request.
      await p.evaluate(() => (globalThis as any).viewer.select(1));
      expect(await p.textContent('#chart-request-which')).to.equal('client tools/call #2');
      expect(await p.locator('#more-request-0').isVisible()).to.equal(true);
      expect(await p.textContent('#more-request-0 figcaption')).to.equal('request client tools/call #1');
      // When only one is in flight again, the extra chart goes away.
      await p.evaluate(() => (globalThis as any).viewer.select(5));
      expect(await p.locator('#more-request-0').isVisible()).to.equal(false);
    } finally {
      await p.close();
    }
  });

  it('--serve follows a recording as it grows: new frames appear in the open page', async () => {
    const live = join(dir, 'live.jsonl');
    const all = readFileSync(recording, 'utf8').trim().split('\n');
    writeFileSync(live, all.slice(0, 4).join('\n') + '\n');
    const server = spawn(process.execPath, [...tsArgs(CLI), 'inspect', live, '--serve'], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        server.stderr.on('data', (d) => {
          err += d;
          const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(err);
          if (m) resolve(m[1]!);
        });
        server.once('exit', () => reject(new Error(err)));
      });
      await page.goto(url);
      await page.waitForSelector('body[data-ready=true]');
      expect(await page.textContent('#position')).to.include('of 3');
      appendFileSync(live, all.slice(4).join('\n') + '\n');
      await page.waitForFunction((n) => (globalThis as any).viewer.count === n, all.length - 1, { timeout: 10000 });
      expect(await page.locator('#session-state .state').textContent()).to.equal('closed');
      // The header counts what the page now holds, not what it opened with.
      expect(await page.textContent('#meta')).to.include(`${all.length - 1} entries`).and.not.include(' 3 entries');
    } finally {
      server.kill('SIGINT');
    }
  });
});

function lines(file: string): any[] {
  return readFileSync(file, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l));
}
