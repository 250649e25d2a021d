/**
 * What a journal holds: the external inputs of a session (frames in, user calls, timer
 * firings, transport changes) and its outbound frames, each with a sequence number and the
 * session clock's time. Internally raised events are derived on replay, never recorded.
 * A client of the 2026-07-28 request era (no session: each request its own exchange) records
 * the same kinds at the request level, plus what its user saw: the answers its handlers gave
 * inside input rounds ({@link AnswerEntry}), the input rounds' states ({@link RoundEntry}) and
 * each call's outcome ({@link ResultEntry}).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import type { Frame, JsonObject, RequestId } from '../jsonrpc/message.js';
import type { TransportPhase } from '../../streams/transport.js';

export const JOURNAL_FORMAT = 'mcp-actors/journal';
/** The version of a session's journal (legacy era, and the CLI's recordings). */
export const JOURNAL_VERSION = 1;
/**
 * The version of a modern client's journal: 2 added the request era (`era`, `link` in the
 * header; `answer`, `round`, `result` entries; the `listen` call). Session journals stay version 1.
 */
export const MODERN_JOURNAL_VERSION = 2;
/** The versions this build reads. */
export const READABLE_JOURNAL_VERSIONS: readonly number[] = [JOURNAL_VERSION, MODERN_JOURNAL_VERSION];

export interface JournalHeader {
  format: typeof JOURNAL_FORMAT;
  version: number;
  role: 'client' | 'server';
  /** The negotiated revision, when the session got that far (a server's request journal: `2026-07-28`). */
  revision?: string;
  /** Clock time when the session was created. */
  startedAt: number;
  /** The options the session was created with that shape its frames (for replay). */
  session?: RecordedSessionOptions;
  /**
   * `modern`: a client of the 2026-07-28 request era (no `initialize`; each request carries its
   * own `_meta`), or (`role: 'server'`) the requests of that era a server served, on every
   * transport (`Server.journal`). Absent: a session (legacy era).
   */
  era?: 'modern';
  /** The modern era's exchange: over HTTP (one POST per request) or a byte stream (stdio), and the era probe's id. */
  link?: RecordedLink;
  /**
   * The entries were recorded with secrets hidden (see `Journal`): a replay hides them alike in
   * what it compares. Absent: recorded as they came (`journal: { redact: false }`, or an older build).
   */
  redacted?: true;
  /**
   * A server's journal of 2026-07-28 requests: the name prefixes of the timers whose firings are
   * entries (`progress:`, a request's progress flush). A replay fires such a timer only at its
   * entry, so a timer and an input in one millisecond (or a timer that ran late) keep their
   * recorded order; other timers fire by time. Absent (an older journal): all fire by time.
   */
  timers?: string[];
}

/** How a modern client's requests travelled (its replay needs the same transport kind and probe id). */
export interface RecordedLink {
  /** HTTP: no `ping` after the probe, a cancelled request closes its response stream. */
  http: boolean;
  /** The id of the first `server/discover` probe (later attempts add `-2`, ...). */
  probe: string;
}

export interface RecordedSessionOptions {
  info: { name: string; version: string; [key: string]: unknown };
  capabilities: Record<string, unknown>;
  supportedVersions: string[];
  instructions?: string;
  timeout?: number;
  maxFrameBytes?: number;
  maxFrameDepth?: number;
  progress?: { minIntervalMs?: number; inbound?: { limit: number; windowMs: number } | false };
}

interface Stamp {
  seq: number;
  /** Session clock time (ms). */
  t: number;
}

/**
 * A server's journal of 2026-07-28 requests: which request (numbered in the order they arrived,
 * from 1) an `in` or `out` frame belongs to. Requests of several clients may share a wire id.
 */
interface Served {
  rq?: number;
}

/** An inbound frame as the transport delivered it: parsed, unparseable text, or too large. */
export type InEntry = Stamp & Served & { kind: 'in' } & (
    | { frame: unknown }
    | { text: string }
    | { oversize: { size: number; limit: number; head?: string } }
    // A frame nested deeper than the limit: its value is not kept (see lib/jsonrpc/depth.ts).
    | { tooDeep: { limit: number; id: string | number | null; respond: boolean } }
  );
export type OutEntry = Stamp & Served & { kind: 'out'; frame: Frame };
/**
 * A named timer fired. A server's journal of 2026-07-28 requests: a timer that fired for request
 * `rq` (its progress flush), of a kind the header's `timers` names; replay fires it at this point
 * of the sequence, never by time alone.
 */
export type TimerEntry = Stamp & Served & { kind: 'timer'; name: string };
export type TransportEntry = Stamp & { kind: 'transport'; phase: TransportPhase; error?: string };

/** Options of a recorded request call that matter for replay (signals and callbacks are not data). */
export interface RecordedRequestOptions {
  timeout?: number;
  maxTotalTimeout?: number;
  resetTimeoutOnProgress?: boolean;
  progress?: boolean;
  /** Modern era: ask even when a cached result is fresh. */
  fresh?: boolean;
  /** Modern era: the trace context sent in `_meta`. */
  trace?: { traceparent?: string; tracestate?: string; baggage?: string };
}

/**
 * A call the user made. Modern era: a request's `id` names the call (`c1`, `c2`, ...), not a
 * wire id (a call may take several exchanges: input rounds, re-issues); `listen` says what the
 * client wants its `subscriptions/listen` stream to carry from now on (the live lists observed,
 * the resources subscribed; undefined: no stream).
 */
export type CallEntry = Stamp & { kind: 'call' } & (
    | { op: 'request'; id: RequestId; method: string; params?: JsonObject; options?: RecordedRequestOptions }
    | { op: 'listen'; filter?: JsonObject }
    | { op: 'notify'; method: string; params?: JsonObject }
    | { op: 'abort'; id: RequestId; reason?: string }
    | { op: 'close' }
  );

/** Things the session noticed and deliberately ignored (late or unknown responses, ...). */
export type NoteEntry = Stamp & {
  kind: 'note';
  /** `hibernated`/`revived`: an idle HTTP session's transport was dropped and later rebuilt (no frame; replay skips it). */
  note: 'late-response' | 'unknown-response' | 'unknown-progress' | 'unknown-cancel' | 'suppressed-response' | 'ignored' | 'hibernated' | 'revived';
  detail?: unknown;
};

/**
 * Modern era: the answer the client's handler gave to one input request of an input round
 * (`elicitation/create`, `sampling/createMessage`, `roots/list`), keyed as the server keyed it.
 * A user's or a model's decision: an input, given back as recorded on replay (no handler runs).
 */
export type AnswerEntry = Stamp & { kind: 'answer'; method: string; key: string } & ({ result: JsonObject } | { error: { message: string; code?: number } });

/**
 * Modern era: a move of the client's input-rounds machine for a call (`answering` round 1,
 * `sent`, `complete`...), as `Client.inputRounds$` showed it. Derived; replay compares them.
 */
export type RoundEntry = Stamp & { kind: 'round'; method: string; name?: string; state: string; round: number; keys?: string[] };

/**
 * Modern era: how a user call ended, as its promise settled (a result, or an error's code and
 * message). Derived; replay compares them, so a changed inbound answer shows even when the
 * client sends nothing different after it.
 */
export type ResultEntry = Stamp & { kind: 'result'; call: RequestId } & ({ result: JsonObject } | { error: { message: string; code?: number } });

/**
 * A server's journal of 2026-07-28 requests: the client went away from request `rq` (HTTP: its
 * response stream closed; stdio: `notifications/cancelled`). An input; replay cancels it at `t`.
 */
export type CancelEntry = Stamp & { kind: 'cancel'; rq: number; reason?: string };

/**
 * A server's journal of 2026-07-28 requests: the final state of request `rq`'s machine
 * (`machines/server-request.machine.ts`: answered, inputRequired, failed, cancelled). Derived;
 * replay compares it.
 */
/**
 * A 2026-07-28 request's end: the request machine's final state and the interceptor stages
 * (`Server.use`) it went through, in order, and the one that answered without `next`; both
 * absent when no stage ran.
 */
export type StateEntry = Stamp & { kind: 'state'; rq: number; state: string; stages?: string[]; shortCircuitBy?: string };

/**
 * A legacy session's request `id` that met interceptor stages (`Server.use`): the stages, in
 * order, and the one that answered without `next`. Written when the request ends, only for a
 * request that met a stage; derived on replay (the same stages run again), so never replayed.
 */
export type StagesEntry = Stamp & { kind: 'stages'; id: RequestId; method: string; stages: string[]; shortCircuitBy?: string };

export type JournalEntry = InEntry | OutEntry | TimerEntry | TransportEntry | CallEntry | NoteEntry | AnswerEntry | RoundEntry | ResultEntry | CancelEntry | StateEntry | StagesEntry;

/** Distributes Omit over the union so each variant keeps its own fields. */
export type Unstamped<E> = E extends Stamp ? Omit<E, 'seq' | 't'> : never;
export type JournalEntryInput = Unstamped<JournalEntry>;
