/**
 * The session viewer: one self-contained HTML page (styles, script and data inline, nothing
 * fetched; the data gzipped) with the timeline, a scrubber, the frame at each point, and the session, request and
 * (2026-07-28 multi round-trip requests) input-rounds machines drawn as statecharts with the
 * active state highlighted. A recording of 2026-07-28 requests only has no session to show.
 */
import { gzipSync } from 'node:zlib';
import { machineConfigJSON } from '../../../machines/json.js';
import { clientInputRoundsMachine } from '../../../machines/client-input-rounds.machine.js';
import { requestMachine } from '../../../machines/request.machine.js';
import { sessionMachine } from '../../../machines/session.machine.js';
import type { JournalEntry } from '../../journal/entry.js';
import type { JournalFile } from '../journal-file.js';
import type { StateTracker } from '../session-states.js';
import { VIEWER_CSS } from './viewer-css.js';
import { VIEWER_SCRIPT } from './script.js';
import { printable } from '../printable.js';

export interface ViewerData {
  title: string;
  header: JournalFile['header'];
  entries: JournalEntry[];
  session: [number, string][];
  requests: StateTracker['requests'];
  entryRequest: number[];
  machines: { session: unknown; request: unknown; rounds: unknown };
  /** Only 2026-07-28 requests: no session machine to show. */
  sessionless: boolean;
  /** Follow a growing recording through /events. */
  live: boolean;
}

/** Entries per gzip block: the first screen waits for one block only. */
export const VIEWER_BLOCK = 1000;

/**
 * The page's data. A small uncompressed head (title, header, entry count, session machine
 * changes, machines) lets the page draw its frame and size the scrubber at once; the entries come
 * in gzip blocks of {@link VIEWER_BLOCK} (base64, safe inside a <script> element as it is), which
 * the page inflates (DecompressionStream) the first at open and the rest in the background or
 * when shown. A 100,000-entry session is ~20 MB of JSON: chromium takes longer to hand a page's
 * bytes to the renderer than the page takes to inflate a tenth of them, and inflating all of them
 * takes ~1 s, so the first screen must not wait for them.
 */
function packed(data: ViewerData): { head: string; blocks: string[] } {
  const { entries, requests, entryRequest, ...rest } = data;
  const head = printable({ ...rest, count: entries.length, block: VIEWER_BLOCK }).replace(/</g, '\\u003c');
  const blocks: string[] = [];
  for (let from = 0; from < entries.length; from += VIEWER_BLOCK) {
    const to = Math.min(entries.length, from + VIEWER_BLOCK) - 1;
    // First line: the requests in flight at some entry of the block (the states shown there) and
    // which request each entry belongs to; then one entry per line, parsed when shown.
    const inBlock = requests.filter((r) => r.start <= to && (r.end === undefined || r.end >= from)).map(({ params: _params, ...r }) => r);
    const lines = [printable({ requests: inBlock, entryRequest: entryRequest.slice(from, to + 1) })];
    for (let i = from; i <= to; i++) lines.push(printable(entries[i]));
    // The first block as it is (escaped for a <script> element): the page shows it without waiting.
    const text = lines.join('\n');
    blocks.push(from === 0 ? JSON.stringify(text).replace(/</g, '\\u003c') : gzipSync(text, { level: 9 }).toString('base64'));
  }
  return { head, blocks };
}

export function viewerData(file: Pick<JournalFile, 'path' | 'header' | 'entries'>, tracker: StateTracker, live = false): ViewerData {
  return {
    title: file.path,
    header: file.header,
    entries: file.entries,
    session: tracker.session,
    requests: tracker.requests,
    entryRequest: tracker.entryRequest,
    machines: { session: machineConfigJSON(sessionMachine), request: machineConfigJSON(requestMachine), rounds: machineConfigJSON(clientInputRoundsMachine) },
    sessionless: tracker.sessionless,
    live,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export function renderViewerPage(data: ViewerData): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'">
<title>mcp-actors · ${escapeHtml(data.title)}</title>
<style>${VIEWER_CSS}</style></head>
<body>
<header><h1>mcp-actors session viewer</h1><span id="meta"></span></header>
<section id="controls">
  <button id="prev" title="previous entry (←)">◀</button>
  <input id="scrubber" type="range" min="0" max="0" value="0" aria-label="entry">
  <button id="next" title="next entry (→)">▶</button>
  <span id="position"></span>
  <label id="follow-label" hidden><input id="follow" type="checkbox" checked> follow</label>
</section>
<main>
  <section id="timeline-pane"><h2>Timeline</h2><div id="timeline" tabindex="0"><div id="spacer"></div><div id="rows"></div></div></section>
  <section id="detail-pane">
    <h2>Machines at this point</h2>
    <div id="states"></div>
    <h2>Frame</h2><pre id="frame"></pre>
    <div id="charts"><figure id="session-figure"><figcaption>session</figcaption><svg id="chart-session"></svg><p class="root-edges" id="root-session"></p></figure><figure><figcaption>request <span id="chart-request-which"></span></figcaption><svg id="chart-request"></svg></figure><figure id="rounds-figure"><figcaption>input rounds (2026-07-28) <span id="chart-rounds-which"></span></figcaption><svg id="chart-rounds"></svg></figure></div>
  </section>
</main>
${dataElements(data)}
</body></html>
`;
}

/**
 * The head, the first block, the script, then the other blocks: the script runs, and the first
 * screen is drawn, while chromium still parses the rest of the page (~2.5 MB for 100,000 entries).
 */
function dataElements(data: ViewerData): string {
  const { head, blocks } = packed(data);
  const block = (b: string, k: number) => `<script id="data-${k}" type="${k ? 'application/gzip;base64' : 'application/json'}">${b}</script>`;
  return [
    `<script id="data-head" type="application/json">${head}</script>`,
    ...blocks.slice(0, 1).map(block),
    `<script>${VIEWER_SCRIPT}</script>`,
    ...blocks.slice(1).map((b, k) => block(b, k + 1)),
  ].join('\n');
}

export function renderViewer(file: JournalFile, tracker: StateTracker): string {
  return renderViewerPage(viewerData(file, tracker));
}
