/**
 * How long the session viewer takes to open a 100,000-entry session in chromium (Debian's, via
 * playwright-core), and how long `inspect --html` takes to write the page.
 *
 * "Open" is navigation to ready for interaction: the page sets `data-ready` once the timeline's
 * first rows, the first entry's frame, the machines' states and the highlighted statecharts are
 * drawn and the scrubber answers (every entry can be reached; an entry whose block is not inflated
 * yet shows "loading…" until it is). Measured two ways: by this process (from `goto` until it sees
 * `data-ready`, not waiting for the page's load event), and by the page's own clock (navigation
 * start to the first paint after `data-ready`, recorded by an init script, so the same for any
 * version of the page). Then: scrubbing to the last entry right after ready (until its frame
 * shows), and until every block is inflated (`data-complete`).
 *
 *   npm run build && node dist/bench/viewer-open.js     VIEWER_CALLS (34000 → ~100,000 entries)
 *   VIEWER_HTML=a.html,b.html node dist/bench/viewer-open.js   opens existing pages, interleaved
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { parseJournalText } from '../lib/cli/journal-file.js';
import { trackStates } from '../lib/cli/session-states.js';
import { renderViewer } from '../lib/cli/viewer/page.js';
import { recordSession } from './replay-check.js';

const CALLS = Number(process.env.VIEWER_CALLS ?? 34000);
const RUNS = Number(process.env.VIEWER_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'viewer-bench-'));
let pages = process.env.VIEWER_HTML?.split(',');
if (!pages) {
  const journal = await recordSession(CALLS);
  const text = journal.toJSONL();
  const t0 = performance.now();
  const file = parseJournalText(text, 'bench.jsonl');
  const tracker = trackStates(file.header, file.entries);
  const html = join(dir, 'bench.html');
  writeFileSync(html, renderViewer(file, tracker));
  console.log(`viewer: ${file.entries.length} entries, page ${(statSync(html).size / 1e6).toFixed(2)} MB written in ${(performance.now() - t0).toFixed(0)} ms`);
  pages = [html];
}

/**
 * Runs in the page before its own scripts: when `data-ready` is set, and the paint after it. (A
 * string, as the page's code is plain browser JavaScript.)
 */
const RECORD_READY = `new MutationObserver(function () {
  var body = document.body;
  if (!body) return;
  if (body.dataset.ready === 'true' && window.__readyAt === undefined) {
    window.__readyAt = performance.now();
    requestAnimationFrame(function () { setTimeout(function () { window.__paintedAt = performance.now(); }, 0); });
  }
  if (body.dataset.complete === 'true' && window.__completeAt === undefined) window.__completeAt = performance.now();
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready', 'data-complete'] });`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const results = new Map<string, { open: number[]; painted: number[]; scrub: number[]; complete: number[] }>();
for (let r = 0; r < RUNS; r++) {
  for (const html of pages) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(RECORD_READY);
    const start = performance.now();
    await page.goto(`file://${html}`, { waitUntil: 'commit' });
    await page.waitForSelector('body[data-ready=true]');
    const open = performance.now() - start;
    await page.waitForFunction(() => (globalThis as any).__paintedAt !== undefined);
    const painted = await page.evaluate(() => (globalThis as any).__paintedAt as number);
    // Jump to the last entry at once (its block is most likely not inflated yet): until its frame shows.
    const s = performance.now();
    await page.evaluate(() => (globalThis as any).viewer.select((globalThis as any).viewer.count - 1));
    await page.waitForFunction(() => {
      const frame = (globalThis as any).document.getElementById('frame');
      return !frame.classList.contains('loading') && frame.textContent.includes('"phase": "closed"');
    });
    const scrub = performance.now() - s;
    await page.waitForLoadState('load');
    // The page before blocks had all of it at ready.
    const g = await page.waitForFunction(() => ((globalThis as any).document.querySelector('script#data') ? { at: 0 } : (globalThis as any).__completeAt !== undefined && { at: (globalThis as any).__completeAt }));
    const complete = ((await g.jsonValue()) as { at: number }).at;
    const row = results.get(html) ?? { open: [], painted: [], scrub: [], complete: [] };
    row.open.push(open);
    row.painted.push(painted);
    row.scrub.push(scrub);
    row.complete.push(complete);
    results.set(html, row);
    await page.close();
  }
}
await browser.close();
const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' / ');
for (const [html, row] of results) {
  console.log(
    `${html} (${(statSync(html).size / 1e6).toFixed(2)} MB): opens in ${list(row.open)} ms; painted ready (page clock) ${list(row.painted)} ms; ` +
      `scrub to the last entry ${list(row.scrub)} ms; all blocks inflated ${list(row.complete)} ms (page clock)`,
  );
}
rmSync(dir, { recursive: true, force: true });
