/**
 * What the gateway costs over HTTP: our Client calls the echo tool of our HTTP bench server
 * (bench/servers/ours-http) directly, and through `mcp-actors serve --http 0` (a separate
 * process, as users run it) in front of that server (`--url`) or of the same echo over stdio
 * (bench/servers/ours-stdio, the re-serving case), sequentially (one call at a time: the extra hop shows
 * fully) and pipelined (WINDOW calls in flight). The two paths take turns in short blocks, the
 * order reversed every round, so the machine's drift falls on both alike; the figure is the
 * median block of each.
 *
 * Then the memory an idle downstream session costs the gateway: a gateway in this process, N
 * legacy sessions opened with bare fetch requests (initialize + initialized, nothing else kept
 * here), the heap after GC before and after, divided by N.
 *
 *   npm run build && node --expose-gc dist/bench/gateway.js
 * Settings: GATEWAY_ROUNDS (8), GATEWAY_BLOCK (400 calls), GATEWAY_WINDOW (32), GATEWAY_SESSIONS (500).
 */
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '../lib/client.js';
import { createGateway } from '../lib/gateway/gateway.js';
import { listen } from '../lib/http/listen-port.js';
import { createStreamableHttpClientTransport } from '../streams/streamable-http-client.js';
import { createStreamableHttpHandler } from '../lib/server-bindings/streamable-http-server.js';
import { CLIENT_INFO, serverModule, TEXT, TOOL, type FromHttpServer } from './common.js';

const ROUNDS = Number(process.env.GATEWAY_ROUNDS ?? 8);
const BLOCK = Number(process.env.GATEWAY_BLOCK ?? 400);
const WINDOW = Number(process.env.GATEWAY_WINDOW ?? 32);
const SESSIONS = Number(process.env.GATEWAY_SESSIONS ?? 500);
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const execArgv = ext === '.ts' ? ['--import', 'tsx'] : [];
const CLI = fileURLToPath(new URL(`../lib/cli/main${ext}`, import.meta.url));

function upstream(): Promise<{ child: ChildProcess; url: string }> {
  const { path, execArgv: argv } = serverModule('ours-http');
  const child = fork(path, ['--mode', 'json'], { execArgv: argv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.on('message', (m: FromHttpServer) => m.type === 'listening' && resolve({ child, url: m.url }));
    child.on('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
  });
}

/** `mcp-actors serve --http 0` in front of `upstreamArgs` (`--url URL` or `-- CMD...`). */
function gateway(upstreamArgs: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...execArgv, CLI, 'serve', '--http', '0', '--name', 'u', ...upstreamArgs], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /Serving .* at (http:\/\/\S+)/.exec(err);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

/** Milliseconds per call for `n` calls, `window` at a time. */
async function block(client: Client, tool: string, n: number, window: number): Promise<number> {
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      await client.callTool(tool, { text: TEXT });
    }
  };
  await Promise.all(Array.from({ length: window }, worker));
  return (performance.now() - start) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function latency(): Promise<void> {
  const up = await upstream();
  const stdio = serverModule('ours-stdio');
  const gateways = [
    { label: 'gateway→http ', gw: await gateway(['--url', up.url]) },
    { label: 'gateway→stdio', gw: await gateway(['--', process.execPath, ...stdio.execArgv, stdio.path]) },
  ];
  const direct = new Client({ info: CLIENT_INFO });
  await direct.connect(createStreamableHttpClientTransport(up.url));
  try {
    for (const { label: path, gw } of gateways) {
      const via = new Client({ info: CLIENT_INFO });
      await via.connect(createStreamableHttpClientTransport(gw.url));
      try {
        for (const [label, window] of [['sequential', 1], ['pipelined', WINDOW]] as const) {
          await block(direct, TOOL, BLOCK, window);
          await block(via, `u__${TOOL}`, BLOCK, window);
          const d: number[] = [];
          const g: number[] = [];
          for (let round = 0; round < ROUNDS; round++) {
            const turns = [() => block(direct, TOOL, BLOCK, window).then((x) => d.push(x)), () => block(via, `u__${TOOL}`, BLOCK, window).then((x) => g.push(x))];
            if (round % 2 === 1) turns.reverse();
            for (const turn of turns) await turn();
          }
          const md = median(d);
          const mg = median(g);
          console.log(
            `${path}  ${label.padEnd(10)} (${window} in flight)  direct ${(md * 1000).toFixed(0)} µs/call  gateway ${(mg * 1000).toFixed(0)} µs/call  added ${((mg - md) * 1000).toFixed(0)} µs (${(((mg - md) / md) * 100).toFixed(1)}%)  era ${via.era}`,
          );
        }
      } finally {
        await via.close();
        gw.child.kill('SIGTERM');
      }
    }
  } finally {
    await direct.close();
    up.child.kill();
  }
}

async function settledHeap(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  let last = Infinity;
  for (let round = 0; round < 10; round++) {
    gc();
    await new Promise((r) => setImmediate(r));
    const used = process.memoryUsage().heapUsed;
    if (round >= 1 && Math.abs(last - used) < 16 * 1024) return used;
    last = used;
  }
  return last;
}

async function idleMemory(): Promise<void> {
  const up = await upstream();
  const gw = createGateway({ servers: { u: { url: up.url } } });
  await gw.start();
  const handler = createStreamableHttpHandler(gw.server.server);
  const web = await listen(handler, { port: 0, logger: false });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const open = async () => {
    const init = await fetch(web.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT_INFO } }) });
    await init.text();
    const session = init.headers.get('mcp-session-id')!;
    const done = await fetch(web.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    await done.text();
  };
  await open();
  const before = await settledHeap();
  for (let i = 0; i < SESSIONS; i++) await open();
  const after = await settledHeap();
  console.log(`idle downstream sessions: ${handler.sessionCount} open, ${((after - before) / SESSIONS / 1024).toFixed(1)} KB each (heap after GC)`);
  await web.close();
  await gw.close();
  up.child.kill();
}

await latency();
await idleMemory();
