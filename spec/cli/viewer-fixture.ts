// The viewer specs' shared start: a real legacy session recorded through `record` (its session
// machine goes through the lifecycle the page shows) and a chromium page to open it in.
import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CLI, runInProcess, TERMINAL_SERVER_CMD } from './helpers.js';
import { tsArgs } from '../helpers/ts-child.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface ViewerFixture {
  dir: string;
  recording: string;
  browser: Browser;
  page: Page;
  /** Closes chromium and removes the directory. */
  close(): Promise<void>;
}

export async function recordedSessionInChromium(prefix: string): Promise<ViewerFixture> {
  if (!existsSync(CHROMIUM)) throw new Error(`No chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const recording = join(dir, 's.jsonl');
  const q = (w: string[]) => w.map((x) => JSON.stringify(x)).join(' ');
  const run = await runInProcess(['call', 'slow', 'steps=2', 'ms=20', '--era', 'legacy', '--stdio', q([process.execPath, ...tsArgs(CLI), 'record', '--out', recording, '--', ...TERMINAL_SERVER_CMD])]);
  expect(run.code).to.equal(0);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  return {
    dir,
    recording,
    browser,
    page,
    close: async () => {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
