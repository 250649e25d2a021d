/**
 * The long robustness runs: seeded fuzzing of a real stdio and HTTP server process in
 * every revision of both eras (their peak resident memory bounded), the server's heap slope over many requests on stdio and HTTP, the heap per idle
 * Streamable HTTP session (sessions era) for 10,000 of them, and 1,000 SSE cuts.
 *
 *   npx tsx scripts/robustness.ts --short   (CI: bounded, a few minutes)
 *   npx tsx scripts/robustness.ts           (long: 20,000 fuzz cases per revision, 1M requests)
 *
 * Options: --requests N (soak requests per transport), --cases N (fuzz cases per revision and
 * transport), --sessions N (idle sessions), --only fuzz,memory,idle,cuts (some parts), FUZZ_SEED
 * to fix the seed. Exits 1 on any failure.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '../lib/entries/client.js';
import { listen } from '../lib/http/listen-port.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { SUPPORTED_REVISIONS, type Revision } from '../lib/protocol/revisions.js';
import { createStdioClientTransport } from '../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../lib/server-bindings/streamable-http-server.js';
import { fuzzHttpSession, fuzzModernHttp, startHttpServer } from '../spec/robustness/fuzz/http-run.js';
import { modernCases } from '../spec/robustness/fuzz/modern-cases.js';
import { peakRssMiB } from '../spec/robustness/fuzz/process-memory.js';
import { fuzzSeed } from '../spec/robustness/fuzz/prng.js';
import { fuzzStdioServer } from '../spec/robustness/fuzz/stdio-run.js';

const short = process.argv.includes('--short');
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const REQUESTS = arg('--requests', short ? 20_000 : 1_000_000);
const CASES = arg('--cases', short ? 1_000 : 20_000);
const SESSIONS = arg('--sessions', short ? 2_000 : 10_000);
/** The fuzzed servers' resident memory must stay under this (huge lines and bodies included). */
const PEAK_RSS_MIB = 512;
const SOAK_SERVER = fileURLToPath(new URL('./robustness/soak-server.ts', import.meta.url));
const STRESS_SPEC = fileURLToPath(new URL('../spec/server-bindings/resumability-stress.spec.ts', import.meta.url));
const failures: string[] = [];
const log = (line: string) => process.stdout.write(line + '\n');

// ------------------------------------------------------------------------------------- fuzzing

async function fuzz(): Promise<void> {
  const seed = fuzzSeed();
  log(`== fuzzing (seed ${seed}; FUZZ_SEED=${seed} reproduces), ${CASES} cases per revision and transport`);
  const totals = { stdio: { cases: 0, failures: 0, peak: 0 }, http: { cases: 0, failures: 0, peak: 0 } };
  const peak = (transport: 'stdio' | 'http', label: string, mib: number | undefined) => {
    if (mib === undefined) return '';
    totals[transport].peak = Math.max(totals[transport].peak, mib);
    if (mib > PEAK_RSS_MIB) failures.push(`${label}: the server's resident memory peaked at ${mib.toFixed(0)} MiB (bound ${PEAK_RSS_MIB})`);
    return `, peak RSS ${mib.toFixed(0)} MiB`;
  };
  const tally = (transport: 'stdio' | 'http', label: string, r: { cases: number; failures: string[] }, s: number) => {
    totals[transport].cases += r.cases;
    totals[transport].failures += r.failures.length;
    for (const f of r.failures.slice(0, 5)) failures.push(`${label} (seed ${s}): ${f}`);
  };
  for (const revision of SUPPORTED_REVISIONS) {
    const s = seed + revision.length * 7 + revision.charCodeAt(9);
    const r = await fuzzStdioServer({ seed: s, revision, count: CASES, hugeLines: 2, timeoutMs: 60_000 });
    tally('stdio', `stdio ${revision}`, r, s);
    log(`   stdio ${revision}: ${r.cases} cases, ${r.failures.length} failures, ${r.rateLimited} rate-limited${r.alive ? '' : ', SERVER GONE'}${peak('stdio', `stdio ${revision}`, r.peakRssMiB)}`);
  }
  {
    // The 2026-07-28 era on stdio: stateless lines, no initialize (as fuzz-modern.spec.ts).
    const s = seed + 2026;
    const cases = modernCases(s, CASES)
      .filter((c) => c.family !== 'header-mismatch')
      .map((c) => (c.family === 'unsupported-version' && c.expect.kind === 'answer' ? { ...c, expect: { ...c.expect, codes: [-32022] } } : c));
    const r = await fuzzStdioServer({ seed: s, revision: '2025-11-25', count: 0, hugeLines: 2, timeoutMs: 60_000, statelessCases: cases });
    tally('stdio', 'stdio 2026-07-28', r, s);
    log(`   stdio 2026-07-28: ${r.cases} cases, ${r.failures.length} failures, ${r.rateLimited} rate-limited${r.alive ? '' : ', SERVER GONE'}${peak('stdio', 'stdio 2026-07-28', r.peakRssMiB)}`);
  }
  const server = await startHttpServer();
  try {
    for (const revision of ['2025-03-26', '2025-06-18', '2025-11-25'] as Revision[]) {
      const s = seed + revision.charCodeAt(6) * 13;
      const r = await fuzzHttpSession(server.url, { seed: s, revision, count: CASES, hugeBodies: 2 });
      tally('http', `http ${revision}`, r, s);
      log(`   http ${revision}: ${r.cases} cases, ${r.failures.length} failures, ${r.rateLimited} rate-limited, statuses ${JSON.stringify(r.statuses)}`);
    }
    {
      const s = seed + 2026 * 13;
      const r = await fuzzModernHttp(server.url, modernCases(s, CASES), s);
      tally('http', 'http 2026-07-28', r, s);
      log(`   http 2026-07-28: ${r.cases} cases, ${r.failures.length} failures, ${r.rateLimited} rate-limited, statuses ${JSON.stringify(r.statuses)}`);
    }
    // One server process served every revision's session and the stateless POSTs.
    log(`   http server process${peak('http', 'http', peakRssMiB(server.child.pid)) || ': peak RSS unknown (no /proc)'}`);
    if (server.child.exitCode !== null) failures.push('the HTTP server process died');
  } finally {
    await server.stop();
  }
  const line = (t: 'stdio' | 'http') => `${t} ${totals[t].cases} cases / ${totals[t].failures} failures (peak RSS ${totals[t].peak.toFixed(0)} MiB)`;
  log(`   total: ${line('stdio')}; ${line('http')}`);
}

// ------------------------------------------------------------------------------- memory slope

/** Least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** `REQUESTS` echo calls, 64 in flight, with the server's heap (after GC) sampled 11 times. */
async function soak(client: Client, label: string): Promise<void> {
  const heap = async () => Number(((await client.callTool('heap', {})).content as { text: string }[])[0]!.text);
  const samples: [number, number][] = [];
  const every = Math.max(1, Math.floor(REQUESTS / 10));
  let done = 0;
  let next = 0;
  const t0 = Date.now();
  samples.push([0, await heap()]);
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      const r = await client.callTool('echo', { text: `m${i}` });
      if ((r.content as { text: string }[])[0]!.text !== `m${i}`) failures.push(`${label}: a wrong answer to request ${i}`);
      done++;
      if (done % every === 0) samples.push([done, await heap()]);
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  const secs = (Date.now() - t0) / 1000;
  // The slope after warm-up (the second half), in bytes per 1,000 requests.
  const half = samples.filter(([x]) => x >= REQUESTS / 2);
  const perThousand = slope(half) * 1000;
  const first = samples[0]![1];
  const last = samples.at(-1)![1];
  log(
    `   ${label}: ${REQUESTS} requests in ${secs.toFixed(0)} s (${Math.round(REQUESTS / secs)}/s); heap after GC ${(first / 1e6).toFixed(1)} MB → ${(last / 1e6).toFixed(1)} MB; ` +
      `slope over the second half ${perThousand.toFixed(1)} bytes per 1,000 requests`,
  );
  // One small object kept per request is 50-100 bytes per request, 50-100 KB per 1,000; the
  // noise of a GC'd heap sampled 11 times is a few KB per 1,000 either way.
  if (perThousand > 20_000) failures.push(`${label}: the heap grows ${perThousand.toFixed(0)} bytes per 1,000 requests`);
}

async function memorySlope(): Promise<void> {
  log(`== memory slope: ${REQUESTS} requests per transport, server heap after GC`);
  {
    const client = new Client({ info: { name: 'soak', version: '1' } });
    await client.connect(createStdioClientTransport({ command: process.execPath, args: ['--expose-gc', '--import', 'tsx', SOAK_SERVER] }));
    try {
      await soak(client, 'stdio');
    } finally {
      await client.close();
    }
  }
  {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', SOAK_SERVER, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve) => {
      child.stdout!.setEncoding('utf8');
      child.stdout!.once('data', (s: string) => resolve(s.trim()));
    });
    const client = new Client({ info: { name: 'soak', version: '1' } });
    await client.connect(createStreamableHttpClientTransport(url, { openStandaloneStream: false }));
    try {
      await soak(client, 'http');
    } finally {
      await client.close();
      child.kill('SIGTERM');
    }
  }
}

// ------------------------------------------------------------------------- idle HTTP sessions

async function idleSessions(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  log(`== ${SESSIONS} idle Streamable HTTP sessions (sessions era) in one process`);
  if (gc === undefined) {
    log('   skipped: run with node --expose-gc (npx tsx --expose-gc scripts/robustness.ts)');
    return;
  }
  const mcp = createMcpServer({ info: { name: 'idle', version: '1' } });
  mcp.registerTool('echo', { description: 'e' }, () => 'x');
  const listening = await listen(createStreamableHttpHandler(mcp.server, { responseMode: 'json', keepAliveMs: false }), { port: 0, logger: false });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const open = async () => {
    const res = await fetch(listening.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
    });
    await res.text();
    const sid = res.headers.get('mcp-session-id')!;
    await (await fetch(listening.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
  };
  try {
    for (let i = 0; i < 100; i++) await open(); // warm-up
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < SESSIONS; i += 50) await Promise.all(Array.from({ length: Math.min(50, SESSIONS - i) }, open));
    gc();
    const after = process.memoryUsage().heapUsed;
    log(`   heap ${(before / 1e6).toFixed(1)} MB → ${(after / 1e6).toFixed(1)} MB: ${((after - before) / SESSIONS / 1024).toFixed(2)} KB per idle session (${mcp.sessions.size - 100} open)`);
  } finally {
    await listening.close();
  }
}

// ------------------------------------------------------------------------------------ SSE cuts

async function sseCuts(): Promise<void> {
  log('== 1,000 SSE cuts (spec/server-bindings/resumability-stress.spec.ts with 10,000 messages)');
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../node_modules/mocha/bin/mocha.js', import.meta.url)), '--no-config', '--extension', 'ts', '--exit', '--reporter', 'dot', STRESS_SPEC], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, RESUMABILITY_MESSAGES: '10000' },
    });
    child.once('exit', resolve);
  });
  if (code !== 0) failures.push('1,000 SSE cuts: messages were lost or the run failed');
  else log('   10,000 messages over 1,000 cuts: each arrived exactly once, in order');
}

const onlyArg = process.argv.indexOf('--only');
const only = onlyArg >= 0 ? new Set(process.argv[onlyArg + 1]!.split(',')) : undefined;
if (!only || only.has('fuzz')) await fuzz();
if (!only || only.has('memory')) await memorySlope();
if (!only || only.has('idle')) await idleSessions();
if (!only || only.has('cuts')) await sseCuts();
if (failures.length > 0) {
  log(`\n${failures.length} failure(s):`);
  for (const f of failures) log(`  - ${f}`);
  process.exit(1);
}
log('\nrobustness: all invariants held');
process.exit(0);
