// Helpers for the server-features specs: an McpServer and our Client over a memory pair.
import { Client, type ClientOptions } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createMcpServer, type McpServer, type McpServerOptions } from '../../lib/mcp-server.js';
import type { ServerSession } from '../../lib/server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';

export { CLIENT_INFO, SERVER_INFO, settle };

/** A fresh McpServer on a manual clock. */
export function makeServer(options: Partial<McpServerOptions> = {}): { mcp: McpServer; clock: ManualClock } {
  const clock = (options.clock as ManualClock | undefined) ?? new ManualClock(1_000_000);
  const mcp = createMcpServer({ info: SERVER_INFO, ...options, clock });
  return { mcp, clock };
}

export interface Connected {
  client: Client;
  session: ServerSession;
  /** Notifications the client received, in order. */
  notes: { method: string; params: any }[];
}

const WATCHED = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/message',
];

/** Connect one of our clients to `mcp`; resolves once both sides are operating. */
export async function connect(mcp: McpServer, clientOptions: Partial<ClientOptions> = {}): Promise<Connected> {
  const [a, b] = createMemoryPair();
  const session = await mcp.connect(a);
  const client = new Client({ era: 'legacy', info: CLIENT_INFO, ...clientOptions });
  const notes: Connected['notes'] = [];
  for (const m of WATCHED) client.onNotification(m, (params) => void notes.push({ method: m, params }));
  await client.connect(b);
  await session.whenOperating();
  return { client, session, notes };
}

/** The error a promise rejects with (fails when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<any> {
  return p.then(
    (v) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e,
  );
}
