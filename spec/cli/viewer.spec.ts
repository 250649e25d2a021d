// The session viewer (`inspect --html`, `inspect --serve`) in a real browser: Debian's chromium
// driven by playwright-core. A recorded session is loaded, the scrubber moved, and what the page
// shows is checked: the timeline, the frame, the machines' states and the highlighted statechart
// nodes. The terminal timeline and `--at` are checked too.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CLI, runInProcess, TERMINAL_SERVER_CMD } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('mcp-actors inspect: terminal timeline and the viewer in chromium', function () {
  this.timeout(60000);
  let dir: string;
  let recording: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
    dir = mkdtempSync(join(tmpdir(), 'mcp-view-'));
    recording = join(dir, 's.jsonl');
    const q = (w: string[]) => w.map((x) => JSON.stringify(x)).join(' ');
    // A legacy session: its session machine goes through the lifecycle the page shows.
    const run = await runInProcess(['call', 'slow', 'steps=2', 'ms=20', '--era', 'legacy', '--stdio', q([process.execPath, '--import', 'tsx', CLI, 'record', '--out', recording, '--', ...TERMINAL_SERVER_CMD])]);
    expect(run.code).to.equal(0);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  });
  after(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
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

    // Clicking a row selects it.
    await page.locator('.row', { hasText: 'result #2 (tools/call)' }).click();
    expect(await page.locator('#chart-request g.node.active').getAttribute('data-state')).to.equal('settled');
    await page.screenshot({ path: join(dir, 'viewer.png') });
    if (process.env.MCP_ACTORS_SCREENSHOT) await page.screenshot({ path: 'docs/cli-viewer.png' });
  });

  it('--serve follows a recording as it grows: new frames appear in the open page', async () => {
    const live = join(dir, 'live.jsonl');
    const all = readFileSync(recording, 'utf8').trim().split('\n');
    writeFileSync(live, all.slice(0, 4).join('\n') + '\n');
    const server = spawn(process.execPath, ['--import', 'tsx', CLI, 'inspect', live, '--serve'], { stdio: ['ignore', 'ignore', 'pipe'] });
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
    } finally {
      server.kill('SIGINT');
    }
  });
});

function lines(file: string): any[] {
  return readFileSync(file, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l));
}
