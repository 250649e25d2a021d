/**
 * What the frames of a `tools/call` cost to encode and parse in each era, on both sides of a
 * stdio pipe, without the rest of the stack: the share of the 2026-07-28 stdio rows that comes
 * from the protocol's bytes. A 2026-07-28 request carries the `_meta` envelope (protocol
 * version, client capabilities, client info: MUST), its result `resultType` and
 * `_meta.serverInfo` (SHOULD), so the frames are ~2.5x the legacy ones.
 *
 * Each stage runs our own code of the stdio path on a window of 256 frames, as the pipelined
 * row has in flight: the client's `encodeFrame` (the envelope sealed, as `client-core.ts` seals
 * it), joined into one chunk as `FrameWriter` does; the server's line split, `parseFrame` and
 * `classifyValue`; its `encodeFrame` of the result (the server info sealed, as `sent-info.ts`
 * seals it; `BENCH_UNSEALED=1`: a plain object, as before); the client's parse of it (legacy:
 * `parseFrame` + `classifyValue`; 2026-07-28: `JSON.parse` and the depth check, as
 * `modern-link.ts` receives). `bare JSON` is the floor any implementation pays: JSON.stringify
 * and JSON.parse of the same request and result, nothing else. Rounds alternate the eras;
 * prints the median and minimum ns per call of each stage.
 *
 *   npx tsx bench/era-frames.ts          (BENCH_ROUNDS=15, BENCH_N=100000 calls per round)
 */
import { classifyValue, encodeFrame } from '../lib/jsonrpc/codec.js';
import { DEFAULT_MAX_FRAME_DEPTH, nestsDeeperThan, textMayNestDeeperThan } from '../lib/jsonrpc/depth.js';
import type { Frame } from '../lib/jsonrpc/message.js';
import { sealJson, sealedCopy } from '../lib/jsonrpc/sealed-json.js';
import { parseFrame } from '../streams/parse-json.js';
import { CLIENT_INFO, SERVER_INFO, TEXT, TOOL } from './common.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const N = Number(process.env.BENCH_N ?? 100_000);
const WINDOW = 256;
const LIMIT = 4 * 1024 * 1024;

type Era = 'legacy' | 'modern';
const ERAS: Era[] = ['legacy', 'modern'];
const envelope = sealJson({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { ...CLIENT_INFO },
});

// The server info as `RequestCore` puts it in each result: one sealed copy (`lib/modern/sent-info.ts`).
const serverInfo = process.env.BENCH_UNSEALED ? SERVER_INFO : sealedCopy(SERVER_INFO)!;

const request = (era: Era, id: number): Frame =>
  ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: era === 'modern' ? { name: TOOL, arguments: { text: TEXT }, _meta: envelope } : { name: TOOL, arguments: { text: TEXT } },
  }) as Frame;
const result = (era: Era, id: number): Frame =>
  ({
    jsonrpc: '2.0',
    id,
    result:
      era === 'modern'
        ? { content: [{ type: 'text', text: TEXT }], resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } }
        : { content: [{ type: 'text', text: TEXT }] },
  }) as Frame;

/** Lines of one chunk, as the stdio reader hands them on (its common case: whole lines in one chunk). */
function lines(chunk: string): string[] {
  const out: string[] = [];
  for (let start = 0, nl = chunk.indexOf('\n'); nl !== -1; start = nl + 1, nl = chunk.indexOf('\n', start)) out.push(chunk.slice(start, nl));
  return out;
}

let sink = 0;
type Stage = 'client encode' | 'server parse' | 'server encode' | 'client parse';
const STAGES: Stage[] = ['client encode', 'server parse', 'server encode', 'client parse'];

/** One round of `N` calls in windows of 256: ns per call of each stage. */
function round(era: Era): Record<Stage | 'bare JSON', number> {
  const ns: Record<Stage | 'bare JSON', number> = { 'client encode': 0, 'server parse': 0, 'server encode': 0, 'client parse': 0, 'bare JSON': 0 };
  let id = 0;
  for (let done = 0; done < N; done += WINDOW) {
    let t = process.hrtime.bigint();
    let chunk = '';
    for (let i = 0; i < WINDOW; i++) chunk += encodeFrame(request(era, ++id)) + '\n';
    sink += chunk.length;
    let now = process.hrtime.bigint();
    ns['client encode'] += Number(now - t);
    const inbound = lines(chunk);
    t = process.hrtime.bigint();
    const ids: number[] = [];
    for (const line of inbound) {
      const decoded = classifyValue(parseFrame(line, LIMIT), false);
      if (decoded.kind === 'request') ids.push(decoded.msg.id as number);
    }
    now = process.hrtime.bigint();
    ns['server parse'] += Number(now - t);
    t = now;
    let answers = '';
    for (const i of ids) answers += encodeFrame(result(era, i)) + '\n';
    now = process.hrtime.bigint();
    ns['server encode'] += Number(now - t);
    const back = lines(answers);
    t = process.hrtime.bigint();
    for (const line of back) {
      if (era === 'modern') {
        const value = JSON.parse(line) as { id: number };
        if (textMayNestDeeperThan(line, DEFAULT_MAX_FRAME_DEPTH) && nestsDeeperThan(value, DEFAULT_MAX_FRAME_DEPTH)) sink--;
        sink += value.id;
      } else {
        const decoded = classifyValue(parseFrame(line, LIMIT), false);
        if (decoded.kind === 'response') sink += decoded.msg.id as number;
      }
    }
    ns['client parse'] += Number(process.hrtime.bigint() - t);
    // The floor: JSON.stringify and JSON.parse of the same four frames, nothing of ours.
    t = process.hrtime.bigint();
    for (let i = 0; i < WINDOW; i++) {
      sink += (JSON.parse(JSON.stringify(request(era, i))) as { id: number }).id;
      sink += (JSON.parse(JSON.stringify(result(era, i))) as { id: number }).id;
    }
    ns['bare JSON'] += Number(process.hrtime.bigint() - t);
  }
  for (const s of [...STAGES, 'bare JSON'] as const) ns[s] /= N;
  return ns;
}

const sizes = (era: Era): string =>
  `request ${encodeFrame(request(era, 1)).length} B, result ${encodeFrame(result(era, 1)).length} B`;
console.log(`${N} calls per round, ${ROUNDS} rounds (eras alternate), windows of ${WINDOW}; ${process.version}`);
for (const era of ERAS) console.log(`  ${era}: ${sizes(era)}`);

const runs: Record<Era, Record<Stage | 'bare JSON', number>[]> = { legacy: [], modern: [] };
for (const era of ERAS) round(era); // warm-up
for (let r = 0; r < ROUNDS; r++) for (const era of r % 2 === 0 ? ERAS : [...ERAS].reverse()) runs[era].push(round(era));

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const fmt = (n: number): string => n.toFixed(0).padStart(6);
console.log(`\n${'stage'.padEnd(16)}${'legacy ns/call'.padStart(22)}${'2026-07-28 ns/call'.padStart(22)}${'extra'.padStart(9)}`);
console.log(`${''.padEnd(16)}${'median    min'.padStart(22)}${'median    min'.padStart(22)}`);
const total = (era: Era, f: (xs: number[]) => number): number => STAGES.reduce((sum, s) => sum + f(runs[era].map((x) => x[s])), 0);
for (const s of [...STAGES, 'all four', 'bare JSON'] as const) {
  const m = (era: Era, f: (xs: number[]) => number): number => (s === 'all four' ? total(era, f) : f(runs[era].map((x) => x[s])));
  const min = (xs: number[]): number => Math.min(...xs);
  console.log(
    `${s.padEnd(16)}${fmt(m('legacy', median))}${fmt(m('legacy', min))}${''.padStart(10)}${fmt(m('modern', median))}${fmt(m('modern', min))}${''.padStart(10)}${fmt(m('modern', median) - m('legacy', median))}`,
  );
}
if (sink === 0) console.log('');
