/**
 * Reconnecting one resumable SSE stream of the Streamable HTTP client: the standalone GET
 * stream, or the stream of a POSTed request that ended before its response arrived (the server
 * dropped it, or closed it on purpose so that the client polls: SEP-1699).
 *
 * `connected` → (DROPPED) → `waiting` (the server's `retry` value if it sent one, otherwise
 * exponential backoff with jitter) → `connecting` (GET with `Last-Event-ID`) → `connected` on
 * CONNECTED, back to `waiting` on a retryable CONNECT_FAILED, `failed` on a fatal one;
 * `exhausted` once `maxAttempts` reconnects in a row have failed; `stopped` on STOP.
 *
 * No I/O here: `openStream` (issue the GET), `reportWaiting`, `reportExhausted` and
 * `reportFailed` are placeholders the transport supplies with `reconnectMachine.provide(...)`.
 * Randomness does not live here either: DROPPED and CONNECT_FAILED carry the jitter `sample`
 * (a number in [0, 1)), so a replay with the same events waits the same times.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#sse-processing-model
 */
import { assign, setup } from 'xstate';

/** How a dropped stream is retried. */
export interface ReconnectOptions {
  /** Reconnects in a row that may fail before giving up (a successful one resets the count). */
  maxAttempts: number;
  /** Wait before the first reconnect, in ms, when the server sent no `retry`. */
  initialDelayMs: number;
  /** Upper bound of the backoff, in ms. */
  maxDelayMs: number;
  /** Growth of the wait per failed attempt. */
  factor: number;
  /** Fraction of the wait that is random: the wait lies in [base × (1 − jitter), base]. 0..1. */
  jitter: number;
}

export const DEFAULT_RECONNECT_OPTIONS: Readonly<ReconnectOptions> = {
  maxAttempts: 6,
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: 0.3,
};

export interface ReconnectInput extends Partial<ReconnectOptions> {
  /** The last event id already seen on the stream. */
  lastEventId?: string;
  /** The `retry` value the server already sent on the stream, in ms. */
  serverRetryMs?: number;
}

export interface ReconnectContext extends ReconnectOptions {
  /** Reconnects started since the stream was last connected. */
  attempts: number;
  /** The wait chosen for the current `waiting` state, in ms. */
  delayMs: number;
  /** The server's `retry` field, which overrides the backoff (the client MUST respect it). */
  serverRetryMs: number | undefined;
  /** Sent as `Last-Event-ID` on the next GET. */
  lastEventId: string | undefined;
  /** Why the stream dropped or the last reconnect failed. */
  lastError: string | undefined;
}

export type ReconnectEvent =
  /** The stream ended or broke. `sample` ∈ [0, 1) draws the jitter. */
  | { type: 'DROPPED'; sample: number; error?: string }
  /** The reconnecting GET was answered with an event stream. */
  | { type: 'CONNECTED' }
  /** The reconnecting GET failed; `retryable` false ends reconnecting (`failed`). */
  | { type: 'CONNECT_FAILED'; retryable: boolean; sample: number; error: string }
  /** An event with an id arrived on the stream. */
  | { type: 'EVENT_ID'; id: string }
  /** The server sent a `retry` field. */
  | { type: 'RETRY'; ms: number }
  /** Nothing more to do: the response arrived, the request was cancelled, or the transport closes. */
  | { type: 'STOP' };

/**
 * The wait before reconnect attempt `attempts` (0-based): the server's `retry` value when it
 * sent one, else `min(maxDelayMs, initialDelayMs × factor^attempts)` less a random share of up
 * to `jitter` of it.
 */
export function reconnectDelay(options: ReconnectOptions, attempts: number, sample: number, serverRetryMs?: number): number {
  if (serverRetryMs !== undefined) return serverRetryMs;
  const base = Math.min(options.maxDelayMs, options.initialDelayMs * Math.pow(options.factor, attempts));
  const jitter = Math.min(1, Math.max(0, options.jitter));
  const s = Math.min(1, Math.max(0, sample));
  return Math.round(base * (1 - jitter * s));
}

/**
 * Reconnects one resumable SSE stream with the server's `retry` or bounded exponential backoff
 * with jitter, resuming with `Last-Event-ID`. Provide `openStream`, `reportWaiting`,
 * `reportExhausted` and `reportFailed` with `.provide({ actions })`; run it on the session clock.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
 */
export const reconnectMachine = setup({
  types: {
    context: {} as ReconnectContext,
    events: {} as ReconnectEvent,
    input: {} as ReconnectInput,
  },
  actions: {
    // I/O placeholders: replaced by the transport via `.provide({ actions })`.
    openStream: () => {},
    reportWaiting: () => {},
    reportExhausted: () => {},
    reportFailed: () => {},
    computeDelay: assign({
      delayMs: ({ context, event }) =>
        reconnectDelay(
          context,
          context.attempts,
          event.type === 'DROPPED' || event.type === 'CONNECT_FAILED' ? event.sample : 0,
          context.serverRetryMs,
        ),
      lastError: ({ context, event }) =>
        event.type === 'DROPPED' || event.type === 'CONNECT_FAILED' ? event.error : context.lastError,
    }),
    recordError: assign({
      lastError: ({ context, event }) =>
        event.type === 'DROPPED' || event.type === 'CONNECT_FAILED' ? event.error : context.lastError,
    }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    resetAttempts: assign({ attempts: 0 }),
    assignEventId: assign({
      lastEventId: ({ context, event }) => (event.type === 'EVENT_ID' ? event.id : context.lastEventId),
    }),
    assignRetry: assign({
      serverRetryMs: ({ context, event }) => (event.type === 'RETRY' ? event.ms : context.serverRetryMs),
    }),
  },
  guards: {
    attemptsLeft: ({ context }) => context.attempts < context.maxAttempts,
    notRetryable: ({ event }) => event.type === 'CONNECT_FAILED' && !event.retryable,
  },
  delays: {
    reconnectDelay: ({ context }) => context.delayMs,
  },
}).createMachine({
  id: 'reconnect',
  context: ({ input }) => ({
    maxAttempts: input.maxAttempts ?? DEFAULT_RECONNECT_OPTIONS.maxAttempts,
    initialDelayMs: input.initialDelayMs ?? DEFAULT_RECONNECT_OPTIONS.initialDelayMs,
    maxDelayMs: input.maxDelayMs ?? DEFAULT_RECONNECT_OPTIONS.maxDelayMs,
    factor: input.factor ?? DEFAULT_RECONNECT_OPTIONS.factor,
    jitter: input.jitter ?? DEFAULT_RECONNECT_OPTIONS.jitter,
    attempts: 0,
    delayMs: 0,
    serverRetryMs: input.serverRetryMs,
    lastEventId: input.lastEventId,
    lastError: undefined,
  }),
  initial: 'connected',
  on: {
    STOP: { target: '.stopped' },
    EVENT_ID: { actions: 'assignEventId' },
    RETRY: { actions: 'assignRetry' },
  },
  states: {
    connected: {
      description: 'The stream is open and being read.',
      on: {
        DROPPED: [
          { guard: 'attemptsLeft', target: 'waiting', actions: 'computeDelay' },
          { target: 'exhausted', actions: 'recordError' },
        ],
      },
    },
    waiting: {
      description: "Waiting the server's retry value, or the backoff, before the next GET.",
      entry: 'reportWaiting',
      // `after` timers get ids derived from the state id (`xstate.after.reconnectDelay.reconnect.waiting`).
      after: { reconnectDelay: { target: 'connecting' } },
    },
    connecting: {
      description: 'GET with Last-Event-ID sent; waiting for the event stream.',
      entry: ['countAttempt', 'openStream'],
      on: {
        CONNECTED: { target: 'connected', actions: 'resetAttempts' },
        CONNECT_FAILED: [
          { guard: 'notRetryable', target: 'failed', actions: 'recordError' },
          { guard: 'attemptsLeft', target: 'waiting', actions: 'computeDelay' },
          { target: 'exhausted', actions: 'recordError' },
        ],
      },
    },
    exhausted: {
      description: 'Every allowed reconnect failed; the transport reports it and stops trying.',
      type: 'final',
      entry: 'reportExhausted',
    },
    failed: {
      description: 'The server refused the resumption for good (for example 405 or 400).',
      type: 'final',
      entry: 'reportFailed',
    },
    stopped: {
      description: 'Nothing left to resume: the response arrived, the request was cancelled, or the transport closed.',
      type: 'final',
    },
  },
});

export type ReconnectMachine = typeof reconnectMachine;
