/**
 * The task benches' rows (bench/task-throughput.ts, bench/redis-stores.ts): one task, "create it,
 * it completes, fetch its result", as a user of each SDK writes it, and the two workloads.
 */
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '../lib/entries/client.js';
import { createMcpServer } from '../lib/mcp-server.js';
import { MemoryTaskStore } from '../lib/tasks/memory-task-store.js';
import type { TaskStore } from '../lib/tasks/task-store.js';
import { createMemoryPair } from '../streams/memory.js';

export const TTL = 60_000;
const INFO = { name: 'bench', version: '1' };

/** One task, start to result; resolves with the result's text (checked by the caller). */
export type RunTask = () => Promise<string>;

export interface Impl {
  label: string;
  run: RunTask;
  /** `tasks/get` requests the client has sent so far. */
  gets: () => number;
}

/** Count the client's `tasks/get` requests as they leave (both clients poll with it). */
export function countGets<F>(end: { send(frame: F, ...rest: never[]): Promise<void> | void }): () => number {
  let gets = 0;
  const send = end.send.bind(end);
  end.send = (frame: F, ...rest: never[]) => {
    if ((frame as { method?: string }).method === 'tasks/get') gets++;
    return send(frame, ...rest);
  };
  return () => gets;
}

/** A store for a row: the in-memory one unless given. */
export function memoryStore(pollMs: number): TaskStore {
  return new MemoryTaskStore({ maxTasks: 10_000_000, maxLivePerOwner: 10_000_000, defaultTtl: TTL, pollInterval: pollMs });
}

export async function ours(pollMs: number, store: TaskStore = memoryStore(pollMs), label = 'ours (callToolAsTask + result())'): Promise<Impl> {
  const mcp = createMcpServer({ info: INFO, tasks: { store, rateLimit: false } });
  mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'ok');
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  const gets = countGets(b);
  const client = new Client({ info: INFO });
  await client.connect(b);
  return {
    label,
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
export async function oursDirect(pollMs: number, store: TaskStore = memoryStore(pollMs), label = 'ours (tools/call, then tasks/result)'): Promise<Impl> {
  const mcp = createMcpServer({ info: INFO, tasks: { store, rateLimit: false } });
  mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'ok');
  const [a, b] = createMemoryPair();
  await mcp.connect(a);
  const gets = countGets(b);
  const client = new Client({ info: INFO });
  await client.connect(b);
  return {
    label,
    gets,
    run: async () => {
      const created = (await client.request('tools/call', { name: 'job', arguments: {}, task: { ttl: TTL } })) as { task: { taskId: string } };
      const result = (await client.request('tasks/result', { taskId: created.task.taskId })) as { content: Array<{ text: string }> };
      return result.content[0]!.text;
    },
  };
}

export async function sdk1(pollMs: number): Promise<Impl> {
  const server = new SdkMcpServer(INFO, { capabilities: { tasks: { requests: { tools: { call: {} } } } }, taskStore: new InMemoryTaskStore() });
  server.experimental.tasks.registerToolTask(
    'job',
    { execution: { taskSupport: 'optional' } },
    {
      async createTask({ taskStore, taskRequestedTtl }) {
        const task = await taskStore.createTask({ ttl: taskRequestedTtl, pollInterval: pollMs });
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

export async function sequential(run: RunTask, N: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < N; i++) if ((await run()) !== 'ok') throw new Error('wrong result');
  return (N / (performance.now() - start)) * 1000;
}

export async function concurrent(run: RunTask, N: number, WINDOW: number): Promise<number> {
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

export const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

