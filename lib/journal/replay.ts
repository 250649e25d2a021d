/**
 * Replay: run a journal's recorded inputs through a fresh session on a simulated clock and
 * return the frames it sends, next to the ones recorded. Same inputs, same machines, same
 * clock readings: a recorded session is a regression test.
 */
import { Client } from '../client.js';
import { ManualClock } from '../clock.js';
import { McpError } from '../errors.js';
import type { Frame, JsonObject, JsonRpcResponse, RequestId } from '../jsonrpc/message.js';
import { ServerSession } from '../server.js';
import type { Session } from '../session/session.js';
import { DeepFrame, OversizeFrame } from '../../streams/transport.js';
import { Journal } from './journal.js';
import { ReplayTransport } from './replay-transport.js';

export interface ReplayOptions {
  /** Prepare the fresh session before inputs flow (register the handlers a server had). */
  setup?: (session: Session) => void;
  /**
   * Who answers the peer's requests during replay. `recorded` (the default without `setup`): the
   * answers the session sent when recording, each at the point it was sent — the decisions of
   * a user or a model (sampling results, elicitation answers) are inputs, and a replay needs no
   * handler for them. `handlers`: the handlers `setup` registered run again.
   */
  answers?: 'recorded' | 'handlers';
}

export interface ReplayResult {
  /** Frames the replayed session sent. */
  outbound: Frame[];
  /** Frames the recorded session sent. */
  recorded: Frame[];
  /** Whether both lists are equal, frame by frame. */
  matches: boolean;
  /** Where they first differ. */
  firstDifference?: { index: number; recorded: Frame | undefined; replayed: Frame | undefined };
  /** The replayed session (closed or still open, as the recording ended). */
  session: Session;
}

/** Methods of the requests the peer sent in a journal (those the recorded answers stand in for). */
function requestMethodsIn(j: Journal): Set<string> {
  const methods = new Set<string>();
  const note = (m: unknown) => {
    if (m && typeof m === 'object' && 'method' in m && 'id' in m && typeof m.method === 'string') methods.add(m.method);
  };
  for (const e of j.entries) {
    if (e.kind !== 'in' || !('frame' in e)) continue;
    if (Array.isArray(e.frame)) e.frame.forEach(note);
    else note(e.frame);
  }
  // The session answers these itself.
  methods.delete('initialize');
  methods.delete('ping');
  return methods;
}

/** The responses with an id in an outbound frame (one, or the items of a batch). */
function answersIn(frame: Frame): JsonRpcResponse[] {
  const items = Array.isArray(frame) ? frame : [frame];
  return items.filter((m): m is JsonRpcResponse => !('method' in m) && 'id' in m && m.id !== null);
}

/** Let promise chains started by one input run to completion before the next input. */
const drain = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Replay `journal` (a {@link Journal} or its JSONL text): a fresh session of the recorded role
 * is fed the recorded inputs on a simulated clock, and the frames it sends are compared with the
 * recorded ones. Answers the session gave (a user's elicitation answers, sampling results)
 * replay as recorded, so no handler or person is needed. `matches` is true when every frame is
 * the same; otherwise `firstDifference` says where the runs part.
 * @see {@link Journal}
 * @see the "Record and replay" section of the README.md shipped in this package
 */
export async function replay(journal: Journal | string, options: ReplayOptions = {}): Promise<ReplayResult> {
  const j = typeof journal === 'string' ? Journal.parse(journal) : journal;
  if (!j.session) throw new Error('This journal has no session header (record with the `journal: true` option)');
  const clock = new ManualClock(j.startedAt);
  const sessionOptions = { ...j.session, clock };
  // A journal records a session: the legacy era (2026-07-28 requests are not journaled).
  const session: Session = j.role === 'client' ? new Client({ ...sessionOptions, era: 'legacy' }) : new ServerSession(sessionOptions);
  options.setup?.(session);
  const answers = options.answers ?? (options.setup ? 'handlers' : 'recorded');
  // Recorded answers: each inbound request's handler waits until replay reaches the response
  // the recording sent, then gives that same answer.
  const waiting = new Map<RequestId, (response: JsonRpcResponse) => void>();
  if (answers === 'recorded') {
    for (const method of requestMethodsIn(j)) {
      session.onRequest(method, (_params, ctx) =>
        new Promise<JsonObject>((resolve, reject) => {
          waiting.set(ctx.requestId, (response) => {
            if ('error' in response) reject(new McpError(response.error.code, response.error.message, response.error.data));
            else resolve(response.result);
          });
        }),
      );
    }
  }
  const transport = new ReplayTransport();
  const connected = session.connect(transport).catch(() => {});
  const recorded: Frame[] = [];
  const aborts = new Map<number | string, AbortController>();

  for (const entry of j.entries) {
    if (entry.kind === 'timer') {
      clock.fireNamed(entry.name);
      await drain();
      continue;
    }
    if (entry.kind === 'out') {
      recorded.push(entry.frame);
      let gave = false;
      for (const answer of answersIn(entry.frame)) {
        const give = waiting.get(answer.id!);
        if (!give) continue;
        waiting.delete(answer.id!);
        give(answer);
        gave = true;
      }
      if (gave) await drain();
      continue;
    }
    if (entry.kind === 'note') continue;
    // Move time forward, but never so far that a timer fires that the recording fired later.
    clock.advanceTo(Math.min(entry.t, clock.nextDue() - 1e-6));
    switch (entry.kind) {
      case 'in':
        if ('frame' in entry) transport.push(entry.frame as object);
        else if ('text' in entry) transport.push(entry.text);
        else if ('tooDeep' in entry) transport.push(new DeepFrame(entry.tooDeep.limit, entry.tooDeep.id, entry.tooDeep.respond));
        else transport.push(new OversizeFrame(entry.oversize.size, entry.oversize.limit, entry.oversize.head));
        break;
      case 'transport':
        transport.setPhase(entry.phase, entry.error);
        break;
      case 'call':
        switch (entry.op) {
          case 'request': {
            const ac = new AbortController();
            aborts.set(entry.id, ac);
            const opts = entry.options ?? {};
            void session
              .request(entry.method, entry.params, {
                ...(opts.timeout !== undefined && { timeout: opts.timeout }),
                ...(opts.maxTotalTimeout !== undefined && { maxTotalTimeout: opts.maxTotalTimeout }),
                ...(opts.resetTimeoutOnProgress !== undefined && { resetTimeoutOnProgress: opts.resetTimeoutOnProgress }),
                ...(opts.progress && { onprogress: () => {} }),
                signal: ac.signal,
              })
              .catch(() => {});
            break;
          }
          case 'abort':
            aborts.get(entry.id)?.abort(entry.reason);
            break;
          case 'notify':
            try {
              session.notify(entry.method, entry.params);
            } catch {
              // It failed when recorded too, or the difference shows in the frames.
            }
            break;
          case 'close':
            void session.close();
            break;
        }
        break;
    }
    await drain();
  }
  await Promise.race([connected, drain()]);

  const outbound = transport.sent;
  const n = Math.max(outbound.length, recorded.length);
  let firstDifference: ReplayResult['firstDifference'];
  for (let i = 0; i < n; i++) {
    if (JSON.stringify(outbound[i]) !== JSON.stringify(recorded[i])) {
      firstDifference = { index: i, recorded: recorded[i], replayed: outbound[i] };
      break;
    }
  }
  return firstDifference
    ? { outbound, recorded, matches: false, firstDifference, session }
    : { outbound, recorded, matches: true, session };
}
