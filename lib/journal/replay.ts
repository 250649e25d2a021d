/**
 * Replay: run a journal's recorded inputs through a fresh session on a simulated clock and
 * return the frames it sends, next to the ones recorded. Same inputs, same machines, same
 * clock readings: a recorded session is a regression test.
 */
import { Client } from '../client.js';
import { ServerSession, type Server } from '../server.js';
import type { Session } from '../session/session.js';
import type { ReplayTransport } from './replay-transport.js';
import { Journal } from './journal.js';
import { MODERN_REVISIONS } from '../protocol/revisions.js';
import { replayModern } from './replay-modern.js';
import { abortedIn, replayEntries, replaySetup, type ReplayOptions, type ReplayResult } from './replay-run.js';
import { replayServer, ServerFactoryMissingError, type ServerReplayOptions, type ServerReplayResult } from './replay-server.js';

export { abortedIn, sameJson, type ReplayOptions, type ReplayResult } from './replay-run.js';
export { ServerFactoryMissingError, type ServerFactory, type ServerReplayOptions, type ServerReplayResult } from './replay-server.js';

/**
 * Thrown by {@link replay} for a journal it cannot reproduce (a 2026-07-28 client journal
 * written before the request era was journaled: it has no `era` header and holds no requests),
 * instead of a mismatch against frames that were never recorded.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
export class UnreplayableJournalError extends Error {
  override readonly name = 'UnreplayableJournalError';
}

/**
 * Replay `journal` (a {@link Journal} or its JSONL text): a fresh session of the recorded role
 * is fed the recorded inputs on a simulated clock, and the frames it sends are compared with the
 * recorded ones. Answers the session gave (a user's elicitation answers, sampling results)
 * replay as recorded, so no handler or person is needed. A 2026-07-28 client's journal replays
 * through a fresh client of that era (see `replay-modern.ts`): its input rounds' moves and each
 * call's outcome are compared too. A server's journal of 2026-07-28 requests (`Server.journal`)
 * replays through a server the `server` factory builds on the simulated clock (see
 * `replay-server.ts`). `matches` is true when every frame is
 * the same; otherwise `firstDifference` says where the runs part.
 * @see {@link Journal}
 * @see the "Record and replay" section of the README.md shipped in this package
 */
export async function replay(journal: Journal | string, options: ServerReplayOptions): Promise<ServerReplayResult>;
export async function replay(journal: Journal | string, options?: ReplayOptions): Promise<ReplayResult>;
export async function replay(journal: Journal | string, options: ReplayOptions | ServerReplayOptions = {}): Promise<ReplayResult | ServerReplayResult> {
  const j = typeof journal === 'string' ? Journal.parse(journal) : journal;
  if (j.era === 'modern' && j.role === 'server') {
    if (!('server' in options)) throw new ServerFactoryMissingError('This is a server journal of 2026-07-28 requests: replay it through a server built the same way, replay(journal, { server: ({ clock }) => createMyServer({ clock }) })');
    return replayServer(j, options);
  }
  if ('server' in options && j.role === 'server' && j.era === undefined) {
    // A server's session: replayed through a session of a server the factory builds (its handlers run; what it asks the client is answered as recorded).
    const { clock } = replaySetup(j);
    const made = options.server({ clock });
    const server = 'server' in made && typeof made.server === 'object' ? made.server : (made as Server);
    const connect = (transport: ReplayTransport) => {
      let session: Session | undefined;
      const sub = server.sessions$.subscribe((s) => (session ??= s));
      const connected = server.connect(transport);
      sub.unsubscribe();
      return { session: session!, connected };
    };
    const result = await replayEntries(connect, clock, j.entries, abortedIn(j.entries), { keepFrames: options.keepFrames !== false, answers: 'handlers' }, j.redacted);
    const { session: _session, ...rest } = result;
    return { ...rest, server };
  }
  if ('server' in options) throw new TypeError(`The \`server\` option replays a server's journal of 2026-07-28 requests; this is a ${j.role} journal${j.era === 'modern' ? ' of that era' : ' of a session'}`);
  if (j.era === 'modern') return replayModern(j, j.entries, options);
  if (j.role === 'client' && j.revision !== undefined && (MODERN_REVISIONS as readonly string[]).includes(j.revision)) {
    throw new UnreplayableJournalError(`This client journal was recorded in the ${j.revision} request era by an mcp-actors that did not journal that era's requests (it has no era header): record it again with this version.`);
  }
  const { clock, sessionOptions } = replaySetup(j);
  const session = j.role === 'client' ? new Client({ ...sessionOptions, era: 'legacy' }) : new ServerSession(sessionOptions);
  return replayEntries(session, clock, j.entries, abortedIn(j.entries), options, j.redacted);
}

