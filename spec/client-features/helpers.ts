/**
 * A typed client against a low-level server over a memory pair, on a manual clock.
 */
import { Client, type ClientOptions } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { Server, type ServerSession } from '../../lib/server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';

export { settle };

export interface PairOptions {
  /** What the server declares. */
  serverCapabilities?: Record<string, unknown>;
  /** Revisions the client offers. */
  supportedVersions?: string[];
  /** Register client features before connecting. */
  setup?: (client: Client, server: Server) => void;
  client?: Partial<ClientOptions>;
  /** Let the server send requests the client did not declare (to test the client's answers). */
  serverUnchecked?: boolean;
}

export interface Pair {
  clock: ManualClock;
  client: Client;
  server: Server;
  session: ServerSession;
  /** Methods of the requests the server received, in order. */
  received: string[];
  /** Frames the client sent, in order. */
  clientOut: any[];
}

export async function pair(opts: PairOptions = {}): Promise<Pair> {
  const clock = new ManualClock(0);
  const [a, b] = createMemoryPair();
  const server = new Server({
    info: SERVER_INFO,
    capabilities: opts.serverCapabilities ?? {},
    ...(opts.serverUnchecked && { enforceCapabilities: false }),
  });
  const client = new Client({
    era: 'legacy',
    info: CLIENT_INFO,
    clock,
    ...(opts.supportedVersions && { supportedVersions: opts.supportedVersions }),
    ...opts.client,
  });
  const received: string[] = [];
  const clientOut: any[] = [];
  client.frames$.subscribe((f) => {
    if (f.direction === 'out') clientOut.push(f.frame);
  });
  opts.setup?.(client, server);
  const sessionP = server.connect(a);
  const session = await sessionP;
  session.frames$.subscribe((f) => {
    const frame = f.frame as any;
    if (f.direction === 'in' && frame && typeof frame.method === 'string' && frame.id !== undefined) received.push(frame.method);
  });
  await client.connect(b);
  await session.whenOperating();
  return { clock, client, server, session, received, clientOut };
}

/** Let memory transports and promise chains run (several turns). */
export async function flush(turns = 3): Promise<void> {
  for (let i = 0; i < turns; i++) await settle();
}

/** The rejection of `p` (fails when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<any> {
  return p.then(
    (v) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(v)}`);
    },
    (e) => e,
  );
}
