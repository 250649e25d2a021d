// `mcp-actors app`: the demo server's notes board (an MCP App linked to search_notes) previewed in
// chromium: the page renders the view through the sandbox proxy (another port: another origin),
// the view gets the tool's input and result, searches again through the host (the CLI's own
// connection), and nothing but the page's origin may use that connection.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Frame } from 'playwright-core';
import { background, CLI, type Background } from './helpers.js';
import { CHROMIUM } from './viewer-fixture.js';

const ROOT = join(CLI, '..', '..', '..');
const EVERYTHING = [process.execPath, '--import', 'tsx', join(ROOT, 'examples', 'everything.ts'), '--stdio'];

/** The preview serves the compiled bridge: build when dist is missing or older than the sources it serves. */
function ensureBuilt(): void {
  const pairs = [['lib/apps/bridge.ts', 'dist/lib/apps/bridge.js'], ['lib/protocol/apps-extension.ts', 'dist/lib/protocol/apps-extension.js'], ['machines/app-bridge.machine.ts', 'dist/machines/app-bridge.machine.js']];
  const stale = pairs.some(([src, out]) => !existsSync(join(ROOT, out!)) || statSync(join(ROOT, out!)).mtimeMs < statSync(join(ROOT, src!)).mtimeMs);
  if (stale) execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'ignore' });
}

describe('mcp-actors app: a server\'s MCP App previewed in chromium', function () {
  this.timeout(90_000);
  let preview: Background;
  let browser: Browser;
  let url: string;

  before(async function () {
    this.timeout(240_000);
    ensureBuilt();
    const q = (w: string[]) => w.map((x) => JSON.stringify(x)).join(' ');
    preview = await background(['--import', 'tsx', CLI, 'app', 'search_notes', 'query=heron', '--stdio', q(EVERYTHING)], /at (http:\/\/127\.0\.0\.1:\d+\/)/, {}, 60_000);
    url = preview.match[1]!;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'] });
  });
  after(async () => {
    await browser?.close();
    await preview?.stop();
  });

  it('renders the notes board for the call: its input and result, then a search from the board goes through the host', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(url);
    await page.waitForFunction(() => (globalThis as any).document.body.dataset.state === 'ready', undefined, { timeout: 30_000 });
    // The view's frame: the srcdoc document inside the proxy's frame.
    let frame: Frame | undefined;
    for (let i = 0; i < 200 && frame === undefined; i++) {
      frame = page.frames().find((f) => f.url() === 'about:srcdoc');
      if (frame === undefined) await page.waitForTimeout(50);
    }
    const view = (): Frame => frame!;
    await view().waitForFunction(() => !(globalThis as any).document.getElementById('status').textContent.startsWith('waiting'));
    expect(await view().inputValue('#query')).to.equal('heron');
    expect(await view().textContent('#status')).to.match(/^\d+ notes?$/);
    const first = Number((await view().textContent('#status'))!.split(' ')[0]);
    // Search again from the board: the view's tools/call goes through the page to the CLI's client.
    await view().fill('#query', 'the');
    await view().click('button');
    await view().waitForFunction((n) => {
      const s = (globalThis as any).document.getElementById('status').textContent as string;
      return /^\d+ notes?$/.test(s) && Number(s.split(' ')[0]) !== n;
    }, first, { timeout: 20_000 });
    // "the" is in all three notes of the demo's notebook; "heron" in one.
    expect(first).to.equal(1);
    expect(await view().textContent('#status')).to.equal('3 notes');
    expect(await view().locator('.card').count()).to.equal(3);
    // The frame's origin is not the page's: the sandbox proxy is on another port.
    const outer = page.frames().find((f) => f.url().includes('/sandbox?'))!;
    expect(new URL(outer.url()).origin).to.not.equal(new URL(url).origin);
    await page.close();
  });

  it("refuses the CLI's connection to any origin but the page's", async () => {
    const res = await fetch(new URL('/rpc', url), { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://evil.example' }, body: JSON.stringify({ method: 'tools/call', params: { name: 'add_note', arguments: {} } }) });
    expect(res.status).to.equal(403);
    const noOrigin = await fetch(new URL('/rpc', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"method":"tools/list"}' });
    expect(noOrigin.status).to.equal(403);
  });
});
