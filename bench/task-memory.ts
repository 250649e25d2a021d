/**
 * Memory per idle task, side by side: our MemoryTaskStore and the official SDK 1.32.2's
 * InMemoryTaskStore (store only: a working task with a TTL timer, the like-for-like part), then
 * our whole server path (McpServer + client over a memory pair, a task whose handler waits).
 *
 *   node --expose-gc --import tsx bench/task-memory.ts      (BENCH_TASKS, default 5000)
 */
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { Client } from '../lib/entries/client.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { MemoryTaskStore } from '../lib/tasks/memory-task-store.js';
import { createMemoryPair } from '../streams/memory.js';

const N = Number(process.env.BENCH_TASKS ?? 5000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

async function heap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc!();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

async function perTask(label: string, make: () => Promise<() => Promise<unknown>>): Promise<number> {
  const create = await make();
  const before = await heap();
  for (let i = 0; i < N; i++) await create();
  const after = await heap();
  const bytes = (after - before) / N;
  console.log(`${label.padEnd(52)} ${bytes.toFixed(0).padStart(6)} B/task`);
  return bytes;
}

const keep: unknown[] = [];
const ours = await perTask('ours: MemoryTaskStore (record + TTL timer)', async () => {
  const store = new MemoryTaskStore({ maxTasks: N * 2, maxLivePerOwner: N * 2 });
  keep.push(store);
  return () => store.create({ owner: 'session:bench', method: 'tools/call', ttl: 600_000 });
});
const sdk = await perTask('sdk 1.32.2: InMemoryTaskStore (task + TTL timer)', async () => {
  const store = new InMemoryTaskStore();
  keep.push(store);
  let id = 0;
  return () => store.createTask({ ttl: 600_000 }, ++id, { method: 'tools/call', params: { name: 'x' } }, 'bench-session');
});
console.log(`ratio sdk/ours: ${(sdk / ours).toFixed(2)}x`);

await perTask('ours: whole server path (store + execution + handler)', async () => {
  const mcp = createMcpServer({ info: { name: 'bench', version: '1' }, tasks: { store: new MemoryTaskStore({ maxTasks: N * 2, maxLivePerOwner: N * 2 }), rateLimit: false } });
  mcp.registerTool('wait', { execution: { taskSupport: 'required' } }, () => new Promise(() => {}));
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  const client = new Client({ info: { name: 'bench', version: '1' } });
  await client.connect(b);
  keep.push(mcp, client);
  return () => client.request('tools/call', { name: 'wait', task: { ttl: 600_000 } });
});
process.exit(0);
