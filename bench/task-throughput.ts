/**
 * Tasks per second for "create a task, it completes, fetch its result" (2025-11-25 tasks), side
 * by side in one run: our createMcpServer + Client.callToolAsTask → handle.result() over
 * createMemoryPair, and the official SDK 1.32.2's experimental tasks (McpServer with an
 * InMemoryTaskStore, experimental.tasks.registerToolTask; Client experimental.tasks.callToolStream)
 * over its InMemoryTransport, each written as a user of that SDK writes it. The SDK v2
 * (@modelcontextprotocol/server 2.4.0) has no tasks extension, so it has no row.
 *
 *   npx tsx bench/task-throughput.ts     (BENCH_TASKS per run, default 1000; BENCH_TASK_WINDOW, 32;
 *                                          BENCH_TASK_REPS, 5; BENCH_TASK_POLL_MS, 10)
 *
 * Both clients follow a task by polling `tasks/get` at the pollInterval the server suggests, so
 * both servers suggest the same one (BENCH_TASK_POLL_MS; 10 ms is our client's floor), and the
 * run reports how many `tasks/get` each client sent per task.
 */
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import os from 'node:os';
import { Client } from '../lib/client.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { MemoryTaskStore } from '../lib/tasks/memory-task-store.js';
import { createMemoryPair } from '../streams/memory.js';

const N = Number(process.env.BENCH_TASKS ?? 1000);
const WINDOW = Number(process.env.BENCH_TASK_WINDOW ?? 32);
const REPS = Number(process.env.BENCH_TASK_REPS ?? 5);
const POLL_MS = Number(process.env.BENCH_TASK_POLL_MS ?? 10);
const TTL = 60_000;
const INFO = { name: 'bench', version: '1' };

/** One task, start to result; resolves with the result's text (checked by the caller). */
type RunTask = () => Promise<string>;

interface Impl {
  label: string;
  run: RunTask;
  /** `tasks/get` requests the client has sent so far. */
  gets: () => number;
}

/** Count the client's `tasks/get` requests as they leave (both clients poll with it). */
function countGets<F>(end: { send(frame: F, ...rest: never[]): Promise<void> | void }): () => number {
  let gets = 0;
  const send = end.send.bind(end);
  end.send = (frame: F, ...rest: never[]) => {
    if ((frame as { method?: string }).method === 'tasks/get') gets++;
    return send(frame, ...rest);
  };
  return () => gets;
}

async function ours(): Promise<Impl> {
  const store = new MemoryTaskStore({ maxTasks: 10_000_000, maxLivePerOwner: 10_000_000, defaultTtl: TTL, pollInterval: POLL_MS });
  const mcp = createMcpServer({ info: INFO, tasks: { store, rateLimit: false } });
  mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'ok');
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  const gets = countGets(b);
  const client = new Client({ info: INFO });
  await client.connect(b);
  return {
    label: 'ours (callToolAsTask + result())',
    gets,
    run: async () => {
      const handle = await client.callToolAsTask('job', {}, { ttl: TTL });
      const result = await handle.result();
      return (result.content[0] as { text: string }).text;
    },
  };
}

/**
 * Ours again, the client asking `tasks/result` straight after the task is created (it blocks
 * until the task ends) instead of polling first: the server's own cost, without the poll wait.
 */
async function oursDirect(): Promise<Impl> {
  const store = new MemoryTaskStore({ maxTasks: 10_000_000, maxLivePerOwner: 10_000_000, defaultTtl: TTL, pollInterval: POLL_MS });
  const mcp = createMcpServer({ info: INFO, tasks: { store, rateLimit: false } });
  mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'ok');
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  const gets = countGets(b);
  const client = new Client({ info: INFO });
  await client.connect(b);
  return {
    label: 'ours (tools/call, then tasks/result)',
    gets,
    run: async () => {
      const created = (await client.request('tools/call', { name: 'job', arguments: {}, task: { ttl: TTL } })) as { task: { taskId: string } };
      const result = (await client.request('tasks/result', { taskId: created.task.taskId })) as { content: Array<{ text: string }> };
      return result.content[0]!.text;
    },
  };
}

async function sdk1(): Promise<Impl> {
  const server = new SdkMcpServer(INFO, { capabilities: { tasks: { requests: { tools: { call: {} } } } }, taskStore: new InMemoryTaskStore() });
  server.experimental.tasks.registerToolTask(
    'job',
    { execution: { taskSupport: 'optional' } },
    {
      async createTask({ taskStore, taskRequestedTtl }) {
        const task = await taskStore.createTask({ ttl: taskRequestedTtl, pollInterval: POLL_MS });
        // The work runs out of band, as the SDK's examples do; it finishes at once.
        void (async () => {
          await taskStore.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: 'ok' }] });
        })();
        return { task };
      },
      async getTask({ taskId, taskStore }) {
        return await taskStore.getTask(taskId);
      },
      async getTaskResult({ taskId, taskStore }) {
        return (await taskStore.getTaskResult(taskId)) as CallToolResult;
      },
    },
  );
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const gets = countGets(clientEnd);
  const client = new SdkClient(INFO);
  await client.connect(clientEnd);
  return {
    label: 'sdk 1.32.2 (callToolStream)',
    gets,
    run: async () => {
      for await (const message of client.experimental.tasks.callToolStream({ name: 'job', arguments: {} }, undefined, { task: { ttl: TTL } })) {
        if (message.type === 'error') throw message.error;
        if (message.type === 'result') {
          return (message.result.content as Array<{ text: string }>)[0]!.text;
        }
      }
      throw new Error('sdk: the stream ended without a result');
    },
  };
}

async function sequential(run: RunTask): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < N; i++) if ((await run()) !== 'ok') throw new Error('wrong result');
  return (N / (performance.now() - start)) * 1000;
}

async function concurrent(run: RunTask): Promise<number> {
  let started = 0;
  const start = performance.now();
  const lane = async (): Promise<void> => {
    while (started < N) {
      started++;
      if ((await run()) !== 'ok') throw new Error('wrong result');
    }
  };
  await Promise.all(Array.from({ length: Math.min(WINDOW, N) }, lane));
  return (N / (performance.now() - start)) * 1000;
}

const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

const [load1, load5] = os.loadavg();
console.log(`${os.cpus().length} CPUs, Node ${process.version}, load ${load1!.toFixed(2)} ${load5!.toFixed(2)}; ${N} tasks per run, ${REPS} reps, ${WINDOW} in flight when concurrent, servers suggest pollInterval ${POLL_MS} ms`);
console.log('sdk v2 (@modelcontextprotocol/server 2.4.0): no tasks extension, no row');

const impls = [await ours(), await sdk1(), await oursDirect()];
const workloads = [
  { name: 'sequential', go: sequential },
  { name: `concurrent x${WINDOW}`, go: concurrent },
];
for (const w of workloads) {
  for (const impl of impls) await w.go(impl.run); // warm-up
  const rates = impls.map(() => [] as number[]);
  const getsBefore = impls.map((impl) => impl.gets());
  for (let rep = 0; rep < REPS; rep++) {
    for (let k = 0; k < impls.length; k++) {
      const i = (rep + k) % impls.length; // rotating order
      rates[i]!.push(await w.go(impls[i]!.run));
    }
  }
  const medians = rates.map(median);
  for (let i = 0; i < impls.length; i++) {
    const spread = ((Math.max(...rates[i]!) - Math.min(...rates[i]!)) / medians[i]!) * 100;
    console.log(`${w.name.padEnd(15)} ${impls[i]!.label.padEnd(38)} ${fmt(medians[i]!).padStart(8)} tasks/s  ±${spread.toFixed(0)}%  (${rates[i]!.map(fmt).join(', ')})`);
  }
  const perTask = impls.map((impl, i) => ((impl.gets() - getsBefore[i]!) / (N * REPS)).toFixed(2));
  console.log(`${w.name.padEnd(15)} ratio ours/sdk: ${(medians[0]! / medians[1]!).toFixed(2)}x (tasks/result at once: ${(medians[2]! / medians[1]!).toFixed(2)}x); tasks/get per task: ours ${perTask[0]}, sdk ${perTask[1]} (above 1: the first found the task still working and the client waited a pollInterval)`);
}
process.exit(0);
