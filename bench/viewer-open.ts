/**
 * How long the session viewer takes to open a 100,000-entry session in chromium (Debian's, via
 * playwright-core): from navigation to the page ready (data parsed, timeline, states and charts
 * drawn), and how long `inspect --html` takes to write the page.
 *
 *   npm run build && node dist/bench/viewer-open.js     VIEWER_CALLS (34000 → ~100,000 entries)
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
const dir = mkdtempSync(join(tmpdir(), 'viewer-bench-'));
const journal = await recordSession(CALLS);
const text = journal.toJSONL();
const t0 = performance.now();
const file = parseJournalText(text, 'bench.jsonl');
const tracker = trackStates(file.header, file.entries);
const html = join(dir, 'bench.html');
writeFileSync(html, renderViewer(file, tracker));
const writeMs = performance.now() - t0;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const opens: number[] = [];
for (let r = 0; r < 3; r++) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const start = performance.now();
  await page.goto(`file://${html}`);
  await page.waitForSelector('body[data-ready=true]');
  opens.push(performance.now() - start);
  // Scrubbing to the end must be quick as well.
  const s = performance.now();
  await page.evaluate(() => (globalThis as any).viewer.select((globalThis as any).viewer.count - 1));
  if (r === 0) console.log(`scrub to the last entry: ${(performance.now() - s).toFixed(0)} ms`);
  await page.close();
}
await browser.close();
opens.sort((a, b) => a - b);
console.log(
  `viewer: ${file.entries.length} entries, page ${(statSync(html).size / 1e6).toFixed(1)} MB written in ${writeMs.toFixed(0)} ms; ` +
    `opens in chromium in ${opens[1]!.toFixed(0)} ms (median of ${opens.map((x) => x.toFixed(0)).join(', ')})`,
);
rmSync(dir, { recursive: true, force: true });
