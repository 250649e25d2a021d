/**
 * Requests per second of the Web-standard fetch handler on Node, Bun and Deno, side by side with
 * our node handler and with the SDK v2's Web-standard handler (`createMcpHandler`) on the same
 * runtimes: 2026-07-28 stateless `tools/call` echoes (the era a fetch deployment serves), written
 * by hand on a keep-alive undici Agent in this process (the servers' own speed, as the `undici`
 * rows of `npm run bench`), each server in a child process (`servers/fetch-runtime.ts`).
 *
 *   npm run build && node dist/bench/fetch-runtimes.js
 *
 * Environment: BENCH_FETCH_CALLS (1500 per run), BENCH_FETCH_WINDOW (32 in flight when pipelined),
 * BENCH_FETCH_REPS (5), BENCH_FETCH_ROWS (all; comma-separated row keys, see ROWS).
 * After two warm-up runs per row and workload, repetitions are interleaved round-robin in rotating
 * order; medians. `cpu µs` = this process (the client) + the server child (from /proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { MODERN_REVISION, TEXT, TOOL, CLIENT_INFO, median, type RunResult, type WorkloadName } from './common.js';
import type { Driver } from './drivers.js';
import { measure } from './measure.js';

interface Row {
  key: string;
  runtime: 'node' | 'bun' | 'deno';
  impl: 'ours-fetch' | 'ours-fetch-hono' | 'ours-node' | 'sdk2-web';
  label: string;
}

const ROWS: Row[] = [
  { key: 'node-ours-node', runtime: 'node', impl: 'ours-node', label: 'ours, node handler (node:http)' },
  { key: 'node-ours-fetch', runtime: 'node', impl: 'ours-fetch', label: 'ours, fetch handler (serveFetch bridge)' },
  { key: 'node-ours-fetch-hono', runtime: 'node', impl: 'ours-fetch-hono', label: 'ours, fetch handler (Hono on @hono/node-server)' },
  { key: 'node-sdk2', runtime: 'node', impl: 'sdk2-web', label: 'sdk v2 createMcpHandler (toNodeHandler)' },
  { key: 'bun-ours-fetch', runtime: 'bun', impl: 'ours-fetch', label: 'ours, fetch handler (Bun.serve)' },
  { key: 'bun-ours-node', runtime: 'bun', impl: 'ours-node', label: 'ours, node handler (Bun node:http)' },
  { key: 'bun-sdk2', runtime: 'bun', impl: 'sdk2-web', label: 'sdk v2 createMcpHandler (Bun.serve)' },
  { key: 'deno-ours-fetch', runtime: 'deno', impl: 'ours-fetch', label: 'ours, fetch handler (Deno.serve)' },
  { key: 'deno-ours-node', runtime: 'deno', impl: 'ours-node', label: 'ours, node handler (Deno node:http)' },
  { key: 'deno-sdk2', runtime: 'deno', impl: 'sdk2-web', label: 'sdk v2 createMcpHandler (Deno.serve)' },
];

const CALLS = Number(process.env.BENCH_FETCH_CALLS ?? 1500);
const WINDOW = Number(process.env.BENCH_FETCH_WINDOW ?? 32);
const REPS = Number(process.env.BENCH_FETCH_REPS ?? 5);
const WANTED = process.env.BENCH_FETCH_ROWS?.split(',');
const WORKLOADS: WorkloadName[] = ['sequential', 'pipelined'];
const SERVER = fileURLToPath(new URL('./servers/fetch-runtime.js', import.meta.url));
const BIN = fileURLToPath(new URL('../../node_modules/.bin/', import.meta.url));

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
};

interface Server {
  child: ChildProcess;
  url: string;
  close(): Promise<void>;
}

function startServer(row: Row): Promise<Server> {
  const [command, args] =
    row.runtime === 'node' ? [process.execPath, [SERVER]] : row.runtime === 'bun' ? [`${BIN}bun`, [SERVER]] : [`${BIN}deno`, ['run', '-A', SERVER]];
  const child = spawn(command, [...args, '--impl', row.impl], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const m = /listening (\S+)/.exec(out);
      if (m) {
        resolve({
          child,
          url: m[1]!,
          close: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGKILL');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${row.label}: exited ${code}\n${out}`)));
  });
}

/** The modern `tools/call` echo by hand on a keep-alive undici Agent. */
function driverFor(row: Row, server: Server): Driver {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    host: new URL(server.url).host,
    'mcp-protocol-version': MODERN_REVISION,
    'mcp-method': 'tools/call',
    'mcp-name': TOOL,
  };
  let nextId = 0;
  return {
    label: row.label,
    serverPid: server.child.pid,
    async call() {
      const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: TOOL, arguments: { text: TEXT }, _meta: ENVELOPE } });
      const res = await request(server.url, { method: 'POST', headers, body, dispatcher: agent });
      let text = await res.body.text();
      if (!text.startsWith('{')) {
        const start = text.indexOf('data: ') + 6;
        text = text.slice(start, text.indexOf('\n', start));
      }
      const reply = JSON.parse(text) as { result?: { content?: { text?: string }[] }; error?: unknown };
      if (res.statusCode !== 200 || reply.error !== undefined) throw new Error(`${row.label}: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
      return String(reply.result?.content?.[0]?.text);
    },
    close: async () => {
      await agent.close();
      await server.close();
    },
  };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const rows = ROWS.filter((r) => WANTED === undefined || WANTED.includes(r.key));
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`fetch-runtimes: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load ${load}`);
  console.log(`${CALLS} calls per run, pipelined window ${WINDOW}, ${REPS} interleaved repetitions after two warm-up runs; medians`);
  const drivers: Driver[] = [];
  for (const row of rows) {
    const d = driverFor(row, await startServer(row));
    const echoed = await d.call();
    if (echoed !== TEXT) throw new Error(`${row.label}: echoed ${JSON.stringify(echoed)}`);
    drivers.push(d);
  }
  const results = new Map<string, RunResult[]>();
  for (const workload of WORKLOADS) {
    for (const d of drivers) for (let w = 0; w < 2; w++) await measure(d, workload, CALLS, WINDOW);
    for (let rep = 0; rep < REPS; rep++) {
      for (let k = 0; k < drivers.length; k++) {
        const i = (k + rep) % drivers.length;
        const r = await measure(drivers[i]!, workload, CALLS, WINDOW);
        const key = `${workload} ${rows[i]!.key}`;
        results.set(key, [...(results.get(key) ?? []), r]);
      }
      process.stderr.write(`  ${workload}: repetition ${rep + 1}/${REPS}\n`);
    }
  }
  for (const d of drivers) await d.close();

  const rowOf = (workload: WorkloadName, key: string) => {
    const runs = results.get(`${workload} ${key}`);
    if (runs === undefined) return undefined;
    const thr = runs.map((r) => r.callsPerSec);
    return {
      callsPerSec: median(thr),
      spread: (Math.max(...thr) - Math.min(...thr)) / median(thr),
      p50: median(runs.map((r) => r.p50us)),
      p99: median(runs.map((r) => r.p99us)),
      client: median(runs.map((r) => r.cpuUsPerCall)),
      server: median(runs.map((r) => r.serverCpuUsPerCall ?? NaN)),
    };
  };
  console.log('');
  console.log('| workload | runtime | server | req/s | ±% | p50 µs | p99 µs | vs sdk v2 (same runtime) | vs node handler on Node | cpu µs/req (client+server) |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const workload of WORKLOADS) {
    const nodeHandler = rowOf(workload, 'node-ours-node');
    for (const row of rows) {
      const r = rowOf(workload, row.key)!;
      const sdk2 = rowOf(workload, `${row.runtime}-sdk2`);
      const vsSdk = sdk2 === undefined || row.impl === 'sdk2-web' ? (row.impl === 'sdk2-web' ? '1' : '') : `${(r.callsPerSec / sdk2.callsPerSec).toFixed(2)}x`;
      const vsNode = nodeHandler === undefined ? '' : row.key === 'node-ours-node' ? '1' : `${(r.callsPerSec / nodeHandler.callsPerSec).toFixed(2)}x`;
      console.log(
        `| ${workload} | ${row.runtime} | ${row.label} | ${fmt(r.callsPerSec)} | ${fmt(r.spread * 100)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${vsSdk} | ${vsNode} | ${fmt(r.client, 1)}+${fmt(r.server, 1)} |`,
      );
    }
  }
}

await main();
process.exit(0);
