/**
 * Where an idle Streamable HTTP session of ours spends its heap: opens sessions on our server in
 * this process (raw requests: initialize + notifications/initialized, as `http-idle` does), takes
 * heap snapshots after `warmup` and after `warmup + n` sessions, and walks what one new
 * `HttpSession` owns: everything reachable from it through objects created between the snapshots,
 * not through code, shapes, timer lists or other sessions. Sizes are grouped by their path.
 *
 *   npm run build
 *   node --expose-gc dist/bench/idle-heap.js [n=1000] [depth=3] [--get]
 *
 * `--get` also holds each session's GET stream open. The snapshots land in bench/results/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { writeHeapSnapshot } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { listen } from '../lib/http/listen-port.js';
import { createStreamableHttpHandler } from '../lib/server-bindings/streamable-http-server.js';
import { CLIENT_INFO } from './common.js';
import { createOursServer } from './echo/ours.js';

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const n = Number(positional[0] ?? 1000);
const depth = Number(positional[1] ?? 3);
const getStream = process.argv.includes('--get');
const warmup = 100;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const handler = createStreamableHttpHandler(createOursServer().server, { responseMode: 'json' });
const { url, close } = await listen(handler, { port: 0, logger: false });
const agent = new Agent({ connections: getStream ? null : 10 });
const accept = 'application/json, text/event-stream';

async function session(): Promise<void> {
  const init = await request(url, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } }),
  });
  await init.body.text();
  const headers = { 'content-type': 'application/json', accept, 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
  const done = await request(url, { method: 'POST', dispatcher: agent, headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  await done.body.text();
  if (getStream) (await request(url, { method: 'GET', dispatcher: agent, headers: { ...headers, accept: 'text/event-stream' } })).body.on('data', () => {});
}

async function open(count: number): Promise<void> {
  for (let i = 0; i < count; i += 10) await Promise.all(Array.from({ length: Math.min(10, count - i) }, session));
}

const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
mkdirSync(dir, { recursive: true });
/** GC, then write a heap snapshot; its file name. (Parsed only once both are written.) */
async function snapshot(name: string): Promise<string> {
  gc!();
  await new Promise((r) => setImmediate(r));
  gc!();
  return writeHeapSnapshot(`${dir}${name}`);
}
const parse = (file: string): Snapshot => JSON.parse(readFileSync(file, 'utf8')) as Snapshot;

/** Sum of the self sizes of a snapshot's nodes. */
function total(s: Snapshot): number {
  const fields = s.snapshot.meta.node_fields;
  const size = fields.indexOf('self_size');
  let sum = 0;
  for (let i = size; i < s.nodes.length; i += fields.length) sum += s.nodes[i]!;
  return sum;
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

await open(warmup);
const beforeFile = await snapshot('idle-before.heapsnapshot');
await open(n);
const after = parse(await snapshot('idle-after.heapsnapshot'));
const before = parse(beforeFile);

const meta = after.snapshot.meta;
const F = meta.node_fields.length;
const E = meta.edge_fields.length;
const [TYPE, NAME, ID, SIZE, EDGES] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f)) as [number, number, number, number, number];
const [ETYPE, ENAME, ETO] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
const oldIds = new Set<number>();
for (let i = 0; i < before.nodes.length; i += before.snapshot.meta.node_fields.length) oldIds.add(before.nodes[i + before.snapshot.meta.node_fields.indexOf('id')]!);
const nodeCount = after.nodes.length / F;
const firstEdge = new Uint32Array(nodeCount + 1);
for (let i = 0, e = 0; i < nodeCount; i++) {
  firstEdge[i] = e;
  e += after.nodes[i * F + EDGES]!;
}
firstEdge[nodeCount] = after.edges.length / E;
const type = (i: number): string => meta.node_types[0][after.nodes[i * F + TYPE]!]!;
const label = (i: number): string => (type(i) === 'object' || type(i) === 'closure' ? `${after.strings[after.nodes[i * F + NAME]!]}` : `(${type(i)})`);

let root = -1;
for (let i = 0; i < nodeCount && root < 0; i++) if (label(i) === 'HttpSession' && !oldIds.has(after.nodes[i * F + ID]!)) root = i;
const groups = new Map<string, number>();
const seen = new Set<number>([root]);
const queue: [number, string[]][] = [[root, []]];
let owned = 0;
for (let q = 0; q < queue.length; q++) {
  const [node, path] = queue[q]!;
  const size = after.nodes[node * F + SIZE]!;
  owned += size;
  const key = path.join(' ') || '(HttpSession itself)';
  groups.set(key, (groups.get(key) ?? 0) + size);
  for (let k = firstEdge[node]!; k < firstEdge[node + 1]!; k++) {
    const et = meta.edge_types[0][after.edges[k * E + ETYPE]!]!;
    const raw = after.edges[k * E + ENAME]!;
    const name = et === 'element' || et === 'hidden' ? `[${raw}]` : after.strings[raw]!;
    if (et === 'weak' || et === 'shortcut' || name === '_idlePrev' || name === '_idleNext') continue;
    const to = after.edges[k * E + ETO]! / F;
    const t = type(to);
    if (seen.has(to) || oldIds.has(after.nodes[to * F + ID]!) || t === 'code' || t === 'object shape' || label(to) === 'HttpSession') continue;
    seen.add(to);
    queue.push([to, path.length < depth ? [...path, `.${name}(${label(to)})`] : path]);
  }
}
console.log(`${n} sessions${getStream ? ' with GET streams' : ''}: the heap snapshots grew by ${((total(after) - total(before)) / n / 1024).toFixed(1)} KB per session (server and in-process client);`);
console.log(`one HttpSession owns ${(owned / 1024).toFixed(1)} KB:`);
for (const [path, size] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${String(size).padStart(7)}  ${path}`);
await agent.destroy();
await close();
