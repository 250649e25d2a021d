// Helpers for the tasks specs: an McpServer with task tools, our Client, memory transports.
import { Client, type ClientOptions } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import type { ServerSession } from '../../lib/server.js';
import { MemoryTaskStore } from '../../lib/tasks/memory-task-store.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';

export { CLIENT_INFO, SERVER_INFO };

/** A server on a manual clock whose tasks suggest polling every 5 ms (real time on the client). */
export function taskServer(options: { rateLimit?: { limit: number; windowMs: number } | false; maxLivePerOwner?: number; pageSize?: number; pollInterval?: number } = {}): {
  mcp: McpServer;
  clock: ManualClock;
  store: MemoryTaskStore;
} {
  const clock = new ManualClock(1_700_000_000_000);
  const store = new MemoryTaskStore({ clock, pollInterval: options.pollInterval ?? 5, defaultTtl: 60_000, maxTtl: 120_000, ...(options.maxLivePerOwner && { maxLivePerOwner: options.maxLivePerOwner }), ...(options.pageSize && { pageSize: options.pageSize }) });
  const mcp = createMcpServer({ info: SERVER_INFO, clock, tasks: { store, rateLimit: options.rateLimit ?? false } });
  return { mcp, clock, store };
}

/** A controllable deferred value. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface Linked {
  client: Client;
  session: ServerSession;
  /** Every frame the client sent, in order. */
  sent: any[];
  /** Every frame the server sent, in order. */
  received: any[];
}

/** Connect our client; `subject` makes the server-side transport carry an authorization subject. */
export async function link(mcp: McpServer, options: { subject?: string; client?: Partial<ClientOptions>; setup?: (client: Client) => void } = {}): Promise<Linked> {
  const [a, b] = createMemoryPair();
  if (options.subject !== undefined) Object.defineProperty(a, 'authInfo', { value: { subject: options.subject, clientId: 'c', scopes: [], resource: 'http://127.0.0.1/mcp' } });
  const session = await mcp.connect(a);
  const client = new Client({ era: 'legacy', info: CLIENT_INFO, ...options.client });
  options.setup?.(client);
  const sent: any[] = [];
  const received: any[] = [];
  client.frames$.subscribe((f: any) => (f.direction === 'out' ? sent : received).push(f.frame));
  await client.connect(b);
  await session.whenOperating();
  return { client, session, sent, received };
}

/** Wait (real time, polled) until `pred` holds; fails after `ms`. */
export async function until(pred: () => boolean, ms = 10_000): Promise<void> {
  const start = Date.now();
  while (!pred()) {
    if (Date.now() - start > ms) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 2));
  }
}
