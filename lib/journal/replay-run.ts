/**
 * The replay loop: a fresh session fed a journal's recorded inputs one entry at a time on a
 * simulated clock, its frames compared with the recorded ones as they come. {@link replay}
 * builds the session from a whole journal; `replay --check` builds it itself and streams the
 * entries from the file.
 */
import { ManualClock } from '../clock.js';
import { McpError } from '../errors.js';
import type { Frame, JsonObject, JsonRpcResponse, RequestId } from '../jsonrpc/message.js';
import type { Session } from '../session/session.js';
import { DeepFrame, OversizeFrame } from '../../streams/transport.js';
import type { JournalEntry, RecordedSessionOptions } from './entry.js';
import { ReplayTransport } from './replay-transport.js';
import { Redactor } from '../shared/redactor.js';
import { OpaqueMap } from './opaque.js';

export interface ReplayOptions {
  /** Prepare the fresh session before inputs flow (register the handlers a server had). */
  setup?: (session: Session) => void;
  /**
   * Who answers the peer's requests during replay. `recorded` (the default without `setup`): the
   * answers the session sent when recording, each at the point it was sent — the decisions of
   * a user or a model (sampling results, elicitation answers) are inputs, and a replay needs no
   * handler for them. `handlers`: the handlers `setup` registered run again. A 2026-07-28
   * client's journal always gives its input-round answers as recorded (`setup` still gets the client).
   */
  answers?: 'recorded' | 'handlers';
  /**
   * Keep every frame in `outbound` and `recorded` (default true). False compares them as they
   * come and keeps none: what `mcp-actors replay --check` does, several times faster on long
   * journals (frames kept to the end survive every young-generation collection).
   */
  keepFrames?: boolean;
}

export interface ReplayResult {
  /** Frames the replayed session sent. */
  outbound: Frame[];
  /** Frames the recorded session sent. */
  recorded: Frame[];
  /** Whether both lists are equal, frame by frame. */
  matches: boolean;
  /** Where they first differ. */
  firstDifference?: {
    /** The position in its list (of frames, or of the modern era's rounds or results). */
    index: number;
    recorded: Frame | undefined;
    replayed: Frame | undefined;
    /** Modern era: what differs, the frames sent, the input rounds' moves or a call's outcome. */
    stream?: 'frame' | 'round' | 'result';
    /** Modern era: the recorded entry that differs (its `seq`), when there is one. */
    seq?: number;
    /** Modern era: the `seq` of the last recorded input replayed before the difference showed. */
    after?: number;
  };
  /** How many frames were compared (the longer of the two lists). */
  compared: number;
  /** The replayed session (closed or still open, as the recording ended). */
  session: Session;
}

/**
 * The methods of the requests in an inbound frame (one, or the items of a batch) that recorded
 * answers stand in for; the session answers initialize and ping itself.
 */
function requestMethodsIn(frame: unknown, into: (method: string) => void): void {
  const note = (m: unknown) => {
    if (m && typeof m === 'object' && 'method' in m && 'id' in m && typeof m.method === 'string' && m.method !== 'initialize' && m.method !== 'ping') into(m.method);
  };
  if (Array.isArray(frame)) frame.forEach(note);
  else note(frame);
}

/** The ids of the requests a journal's calls abort. */
export function abortedIn(entries: Iterable<JournalEntry>): Set<RequestId> {
  const aborted = new Set<RequestId>();
  for (const e of entries) if (e.kind === 'call' && e.op === 'abort') aborted.add(e.id);
  return aborted;
}

const isAnswer = (m: object): m is JsonRpcResponse => !('method' in m) && 'id' in m && (m as { id: unknown }).id !== null;
const NO_ANSWERS: JsonRpcResponse[] = [];

/** The responses with an id in an outbound frame (one, or the items of a batch). */
function answersIn(frame: Frame): JsonRpcResponse[] {
  if (!Array.isArray(frame)) return isAnswer(frame) ? [frame] : NO_ANSWERS;
  return (frame as object[]).filter(isAnswer);
}

/**
 * Whether two JSON values are equal as JSON texts would be (the same keys in the same order):
 * what comparing their JSON.stringify does, without building the texts.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Values JSON writes alike though they differ (NaN and null, say): compare their texts.
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return JSON.stringify(a) === JSON.stringify(b);
  const arrays = Array.isArray(a);
  if (arrays !== Array.isArray(b)) return false;
  if (arrays) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameJson(x[i] ?? null, y[i] ?? null)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // The same keys in the same order (as JSON.stringify writes them), undefined values left out.
  const ky: string[] = [];
  for (const k in y) if (y[k] !== undefined) ky.push(k);
  let i = 0;
  for (const k in x) {
    if (x[k] === undefined) continue;
    if (ky[i] !== k || !sameJson(x[k], y[k])) return false;
    i++;
  }
  return i === ky.length;
}

/**
 * Let what one input started run to completion before the next input, as the event loop did
 * between two recorded inputs. Promise chains and `process.nextTick` callbacks all run before a
 * tick queued now resolves (Node empties the microtask queue, then the tick queue, in one turn);
 * only when an immediate is pending (a response held back one turn after progress, say) does the
 * replay wait a turn of the event loop as well: most inputs need none, and a turn per input was
 * half of the time `replay --check` took.
 */
export function drain(): Promise<void> {
  return new Promise<void>((resolve) => process.nextTick(resolve)).then(() => (immediatePending() ? turns(4) : undefined));
}

/** Up to `n` turns of the event loop while an immediate is pending (one that keeps rescheduling itself elsewhere must not hold replay). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n && immediatePending(); i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Whether a `setImmediate` callback is waiting to run. */
function immediatePending(): boolean {
  return process.getActiveResourcesInfo().includes('Immediate');
}


/**
 * Connects the session to replay through to the replay transport itself: a server's session,
 * made by the server the user's factory builds (`replay(journal, { server })`).
 */
export type SessionConnector = (transport: ReplayTransport) => { session: Session; connected: Promise<unknown> };

/** What a replay needs of a journal's header. */
export interface ReplayHeader {
  role: 'client' | 'server';
  startedAt?: number;
  session?: RecordedSessionOptions;
}

/**
 * The simulated clock, starting at the recorded start, and the options of the fresh session to
 * replay through: the recorded ones on that clock. A session journal is of the legacy era: a
 * client is made with `era: 'legacy'` (a 2026-07-28 client's journal replays through
 * `replay-modern.ts` instead).
 */
export function replaySetup(header: ReplayHeader): { clock: ManualClock; sessionOptions: RecordedSessionOptions & { clock: ManualClock } } {
  if (!header.session) throw new Error('This journal has no session header (record with the `journal: true` option)');
  const clock = new ManualClock(header.startedAt ?? 0);
  return { clock, sessionOptions: { ...header.session, clock } };
}

/**
 * What {@link replay} does once the session is made (with {@link replaySetup}'s options): the
 * entries taken one at a time as `entries` yields them (a journal read from a file as it goes,
 * none kept), given the ids of the requests they abort (see {@link abortedIn}: a request gets
 * its signal when it starts, before its abort is read).
 */
export async function replayEntries(
  target: Session | SessionConnector,
  clock: ManualClock,
  entries: Iterable<JournalEntry>,
  aborted: ReadonlySet<RequestId>,
  options: ReplayOptions = {},
  redacted = false,
): Promise<ReplayResult> {
  // A redacted journal's frames are compared with the replayed ones redacted alike (the rules are deterministic).
  const redactor = redacted ? new Redactor() : undefined;
  // A server's session made by the user's factory: its task ids are its own, compared and sent back as opaque values.
  const opaque = typeof target === 'function' ? new OpaqueMap() : undefined;
  const same = opaque ? (replayed: unknown, rec: unknown) => opaque.same(rec, replayed) : sameJson;
  let session: Session;
  let connecting: Promise<unknown>;
  const pending: Frame[] = [];
  const onSent = (sent: Frame) => {
    const frame = redactor ? (redactor.value(sent) as Frame) : sent;
    if (unmatchedRecorded.length > 0) compare(frame, unmatchedRecorded.shift());
    else unmatchedOut.push(frame);
  };
  const keep = options.keepFrames !== false;
  const transport = new ReplayTransport(keep, (sent) => (ready ? onSent(sent) : pending.push(sent)));
  let ready = false;
  if (typeof target === 'function') {
    ({ session, connected: connecting } = target(transport));
  } else {
    session = target;
    connecting = Promise.resolve();
  }
  options.setup?.(session);
  const answers = options.answers ?? (options.setup ? 'handlers' : 'recorded');
  // Recorded answers: each inbound request's handler waits until replay reaches the response
  // the recording sent, then gives that same answer. A method's handler is set before the
  // first request for it is delivered (handlers are looked up when a request arrives).
  const waiting = new Map<RequestId, (response: JsonRpcResponse) => void>();
  const answered = new Set<string>();
  const answerRecorded = (method: string) => {
    if (answered.has(method)) return;
    answered.add(method);
    session.onRequest(method, (_params, ctx) =>
      new Promise<JsonObject>((resolve, reject) => {
        waiting.set(ctx.requestId, (response) => {
          if ('error' in response) reject(new McpError(response.error.code, response.error.message, response.error.data));
          else resolve(response.result);
        });
      }),
    );
  };
  const recorded: Frame[] = [];
  // Frames are compared pairwise in order, as soon as both of a pair are known.
  const unmatchedOut: Frame[] = [];
  const unmatchedRecorded: Frame[] = [];
  let compared = 0;
  let firstDifference: ReplayResult['firstDifference'];
  const compare = (replayed: Frame | undefined, rec: Frame | undefined) => {
    if (firstDifference === undefined && !same(replayed, rec)) firstDifference = { index: compared, recorded: rec, replayed };
    compared++;
  };
  ready = true;
  for (const sent of pending.splice(0)) onSent(sent);
  const connected = (typeof target === 'function' ? connecting : session.connect(transport)).catch(() => {});
  // A signal only for the requests the recording aborts: most never are, and a signal per request is garbage.
  const aborts = new Map<RequestId, AbortController>();

  for (const entry of entries) {
    if (entry.kind === 'timer') {
      clock.fireNamed(entry.name);
      await drain();
      continue;
    }
    if (entry.kind === 'out') {
      if (keep) recorded.push(entry.frame);
      if (unmatchedOut.length > 0) compare(unmatchedOut.shift(), entry.frame);
      else unmatchedRecorded.push(entry.frame);
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
    if (entry.kind === 'note' || entry.kind === 'stages') continue;
    // Move time forward, but never so far that a timer fires that the recording fired later.
    clock.advanceTo(Math.min(entry.t, clock.nextDue() - 1e-6));
    switch (entry.kind) {
      case 'in':
        if ('frame' in entry) {
          if (answers === 'recorded') requestMethodsIn(entry.frame, answerRecorded);
          transport.push((opaque ? opaque.substitute(entry.frame) : entry.frame) as object);
        } else if ('text' in entry) transport.push(entry.text);
        else if ('tooDeep' in entry) transport.push(new DeepFrame(entry.tooDeep.limit, entry.tooDeep.id, entry.tooDeep.respond));
        else transport.push(new OversizeFrame(entry.oversize.size, entry.oversize.limit, entry.oversize.head));
        break;
      case 'transport':
        transport.setPhase(entry.phase, entry.error);
        break;
      case 'call':
        switch (entry.op) {
          case 'request': {
            const ac = aborted.has(entry.id) ? new AbortController() : undefined;
            if (ac) aborts.set(entry.id, ac);
            const opts = entry.options ?? {};
            void session
              .request(entry.method, entry.params, {
                ...(opts.timeout !== undefined && { timeout: opts.timeout }),
                ...(opts.maxTotalTimeout !== undefined && { maxTotalTimeout: opts.maxTotalTimeout }),
                ...(opts.resetTimeoutOnProgress !== undefined && { resetTimeoutOnProgress: opts.resetTimeoutOnProgress }),
                ...(opts.progress && { onprogress: () => {} }),
                ...(ac && { signal: ac.signal }),
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

  // What one side sent and the other did not.
  for (const frame of unmatchedOut) compare(frame, undefined);
  for (const frame of unmatchedRecorded) compare(undefined, frame);
  const outbound = transport.sent;
  return firstDifference
    ? { outbound, recorded, matches: false, firstDifference, compared, session }
    : { outbound, recorded, matches: true, compared, session };
}
