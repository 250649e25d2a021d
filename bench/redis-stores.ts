/**
 * What sharing a deployment on Redis costs, against the in-memory stores, in one run on a real
 * redis-server (started here on a free port, on this machine):
 *
 * 1. Tasks per second, "create a task, it completes, fetch its result" (the rows of
 *    bench/task-throughput.ts): our server with its `MemoryTaskStore`, with a `RedisTaskStore`,
 *    and with the task made on one server and its result asked of another (two servers, two
 *    stores on one prefix: what two processes do, the result travelling by pub/sub); the SDK
 *    1.32.2 in memory for reference (it has no shared store).
 * 2. The per-request cost of the requestState replay guard: a multi round-trip `tools/call`
 *    (round 1, then the retry with the state) through the request core, with no guard, the
 *    in-memory guard and the Redis guard (one `SET NX PX` per retry); and `claim()` alone.
 *
 *   npx tsx bench/redis-stores.ts     (BENCH_TASKS per run, default 1000; BENCH_TASK_WINDOW, 32;
 *                                       BENCH_TASK_REPS, 5; BENCH_TASK_POLL_MS, 10; BENCH_ROUNDS, 2000)
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { Client } from '../lib/entries/client.js';
import type { JsonObject } from '../lib/jsonrpc/message.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { InMemoryReplayGuard, type ReplayGuard } from '../lib/modern/request-state.js';
import { META } from '../lib/protocol/schema/modern.js';
import { connectRedis, type RedisClient } from '../lib/redis/redis-connection.js';
import { RedisReplayGuard } from '../lib/redis/replay-guard.js';
import { RedisTaskStore } from '../lib/redis/redis-task-store.js';
import type { TaskStore } from '../lib/tasks/task-store.js';
import { createMemoryPair } from '../streams/memory.js';
import { startRedis } from '../scripts/real-parts/redis-server.js';
import { concurrent, fmt, median, ours, oursDirect, sdk1, sequential, TTL, type Impl, type RunTask } from './task-impls.js';

const N = Number(process.env.BENCH_TASKS ?? 1000);
const WINDOW = Number(process.env.BENCH_TASK_WINDOW ?? 32);
const REPS = Number(process.env.BENCH_TASK_REPS ?? 5);
const POLL_MS = Number(process.env.BENCH_TASK_POLL_MS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2000);
const INFO = { name: 'bench', version: '1' };

const redis = await startRedis();
const clients: RedisClient[] = [];
const stores: RedisTaskStore[] = [];
async function redisStore(prefix: string): Promise<TaskStore> {
  const client = await connectRedis(redis.url);
  clients.push(client);
  const store = await RedisTaskStore.create(client, { prefix, maxTasks: 10_000_000, maxLivePerOwner: 10_000_000, defaultTtl: TTL, pollInterval: POLL_MS });
  stores.push(store);
  return store;
}

/** Two servers (two "processes") on one Redis prefix: the task is made on A, its result asked of B. */
async function acrossProcesses(): Promise<Impl> {
  const prefix = `bench-x-${randomBytes(3).toString('hex')}:`;
  const [storeA, storeB] = [await redisStore(prefix), await redisStore(prefix)];
  const link = async (store: TaskStore) => {
    const mcp = createMcpServer({ info: INFO, tasks: { store, rateLimit: false } });
    mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'ok');
    const [a, b] = createMemoryPair();
    // One user on both (tasks belong to the authenticated subject, so B may read A's).
    Object.defineProperty(a, 'authInfo', { value: { subject: 'bench', clientId: 'c', scopes: [] } });
    await mcp.connect(a);
    const client = new Client({ info: INFO });
    await client.connect(b);
    return client;
  };
  const [onA, onB] = [await link(storeA), await link(storeB)];
  return {
    label: 'ours, Redis: made on A, result from B',
    gets: () => 0,
    run: async () => {
      const created = (await onA.request('tools/call', { name: 'job', arguments: {}, task: { ttl: TTL } })) as { task: { taskId: string } };
      const result = (await onB.request('tasks/result', { taskId: created.task.taskId })) as { content: Array<{ text: string }> };
      return result.content[0]!.text;
    },
  };
}

async function taskRows(): Promise<void> {
  const impls: Impl[] = [
    await ours(POLL_MS, undefined, 'ours, memory (callToolAsTask + result())'),
    await ours(POLL_MS, await redisStore(`bench-a-${randomBytes(3).toString('hex')}:`), 'ours, Redis (callToolAsTask + result())'),
    await oursDirect(POLL_MS, undefined, 'ours, memory (tools/call, tasks/result)'),
    await oursDirect(POLL_MS, await redisStore(`bench-b-${randomBytes(3).toString('hex')}:`), 'ours, Redis (tools/call, tasks/result)'),
    await acrossProcesses(),
    await sdk1(POLL_MS),
  ];
  const workloads = [
    { name: 'sequential', go: (run: RunTask) => sequential(run, N) },
    { name: `concurrent x${WINDOW}`, go: (run: RunTask) => concurrent(run, N, WINDOW) },
  ];
  for (const w of workloads) {
    for (const impl of impls) await w.go(impl.run); // warm-up
    const rates = impls.map(() => [] as number[]);
    for (let rep = 0; rep < REPS; rep++) {
      for (let k = 0; k < impls.length; k++) {
        const i = (rep + k) % impls.length;
        rates[i]!.push(await w.go(impls[i]!.run));
      }
    }
    const medians = rates.map(median);
    for (let i = 0; i < impls.length; i++) {
      const spread = ((Math.max(...rates[i]!) - Math.min(...rates[i]!)) / medians[i]!) * 100;
      console.log(`${w.name.padEnd(15)} ${impls[i]!.label.padEnd(42)} ${fmt(medians[i]!).padStart(8)} tasks/s  ±${spread.toFixed(0)}%  (${rates[i]!.map(fmt).join(', ')})`);
    }
    const [memPoll, redisPoll, memDirect, redisDirect, across, sdk] = medians as [number, number, number, number, number, number];
    console.log(
      `${w.name.padEnd(15)} Redis/memory: ${(redisPoll / memPoll).toFixed(2)}x (polling), ${(redisDirect / memDirect).toFixed(2)}x (tasks/result at once), ${(across / memDirect).toFixed(2)}x (across processes); ours on Redis / sdk in memory: ${(redisPoll / sdk).toFixed(2)}x`,
    );
  }
}

/** µs per retry of a two-round tools/call (round 1 gives the state; the retry is timed). */
async function retryCost(guard: ReplayGuard | undefined): Promise<number[]> {
  const key = 'k'.repeat(32);
  const mcp = createMcpServer(INFO, { modern: { requestState: { key, ...(guard && { replayGuard: guard }) } } });
  mcp.registerTool('greet', { description: 'asks a name' }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return `Hi ${String(r.content?.name)}`;
  });
  const meta = { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: { elicitation: {} } };
  let id = 0;
  const call = async (params: JsonObject) => (await mcp.server.core.answer({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { ...params, _meta: meta } }, { notify: () => {} })).response!;
  const out: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const first = await call({ name: 'greet', arguments: {} });
    const state = ('result' in first && first.result.requestState) as string;
    const t0 = performance.now();
    const done = await call({ name: 'greet', arguments: {}, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'A' } } }, requestState: state });
    out.push((performance.now() - t0) * 1000);
    if (!('result' in done) || done.result.resultType !== 'complete') throw new Error(`retry ${i} failed: ${JSON.stringify(done)}`);
  }
  await mcp.close();
  return out;
}

async function guardRows(): Promise<void> {
  const client = await connectRedis(redis.url);
  clients.push(client);
  const rows: Array<[string, ReplayGuard | undefined]> = [
    ['no replay guard', undefined],
    ['InMemoryReplayGuard', new InMemoryReplayGuard()],
    ['RedisReplayGuard (SET NX PX)', new RedisReplayGuard(client, { prefix: `bench-g-${randomBytes(3).toString('hex')}:` })],
  ];
  const samples = rows.map(() => [] as number[]);
  for (const [, guard] of rows) await retryCost(guard); // warm-up
  for (let rep = 0; rep < REPS; rep++) {
    for (let k = 0; k < rows.length; k++) {
      const i = (rep + k) % rows.length;
      samples[i]!.push(median(await retryCost(rows[i]![1])));
    }
  }
  const base = median(samples[0]!);
  for (let i = 0; i < rows.length; i++) {
    const m = median(samples[i]!);
    console.log(`MRTR retry      ${rows[i]![0].padEnd(42)} ${m.toFixed(1).padStart(8)} µs/retry (median of ${REPS} medians of ${ROUNDS})  overhead ${(m - base).toFixed(1)} µs`);
  }
  const guard = new RedisReplayGuard(client, { prefix: `bench-c-${randomBytes(3).toString('hex')}:` });
  const claims: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    await guard.claim(`n${i}`, Date.now() + 60_000);
    claims.push((performance.now() - t0) * 1000);
  }
  console.log(`claim() alone   ${'RedisReplayGuard'.padEnd(42)} ${median(claims).toFixed(1).padStart(8)} µs (median of ${ROUNDS}; a loopback round trip to Redis)`);
}

const [load1, load5] = os.loadavg();
console.log(`${os.cpus().length} CPUs, Node ${process.version}, load ${load1!.toFixed(2)} ${load5!.toFixed(2)}; redis-server on 127.0.0.1 (this machine); ${N} tasks per run, ${REPS} reps, ${WINDOW} in flight when concurrent, pollInterval ${POLL_MS} ms`);
try {
  await taskRows();
  await guardRows();
} finally {
  await Promise.all(stores.map((s) => s.close()));
  await Promise.all(clients.map((c) => c.quit().catch(() => undefined)));
  await redis.stop();
}
process.exit(0);
