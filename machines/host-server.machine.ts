/**
 * One MCP server as a multi-server host sees it: connect, serve, and when the connection dies
 * (a stdio server crashed, an HTTP server went away) restart it with bounded exponential backoff
 * and jitter, giving up after `maxAttempts` restarts in a row.
 *
 * `idle` → (START) `connecting` → `ready` → (CRASHED) `crashed` → (RELEASED) `waiting` → (the
 * `restartDelay`, delayed event id `restart`) `connecting` …; `failed` once `maxAttempts`
 * restarts in a row have failed; `stopping` → `stopped` on STOP. A server that stays `ready` for
 * `resetAfterMs` (delayed event id `stable`) has its attempt count reset.
 *
 * No I/O here: `connect` (create a client and transport, connect, then report CONNECTED or
 * CONNECT_FAILED, later CRASHED), `releaseClient` (dispose of a dead client, then RELEASED) and
 * `disconnect` (close the client, then CLOSED) are placeholders the host supplies with
 * `hostServerMachine.provide({ actions })`. Randomness does not live here either: CRASHED and
 * CONNECT_FAILED carry the jitter `sample` (a number in [0, 1)), so the same events give the same
 * waits. Run it on the host's clock (`createActor(machine, { clock })`).
 */
import { assign, cancel, raise, setup } from 'xstate';

/** How a dead server is restarted. */
export interface RestartOptions {
  /** Restarts in a row that may fail before the server is `failed` (a stable run resets the count). */
  maxAttempts: number;
  /** Wait before the first restart, in ms. */
  initialDelayMs: number;
  /** Upper bound of the wait, in ms. */
  maxDelayMs: number;
  /** Growth of the wait per restart. */
  factor: number;
  /** Fraction of the wait that is random: the wait lies in [base × (1 − jitter), base]. 0..1. */
  jitter: number;
  /** Time `ready` after which the attempt count is reset to 0, in ms. */
  resetAfterMs: number;
}

export const DEFAULT_RESTART_OPTIONS: Readonly<RestartOptions> = {
  maxAttempts: 5,
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: 0.3,
  resetAfterMs: 60_000,
};

export type HostServerInput = Partial<RestartOptions>;

export type HostServerPhase = 'idle' | 'connecting' | 'ready' | 'crashed' | 'waiting' | 'stopping' | 'failed' | 'stopped';

export interface HostServerContext extends RestartOptions {
  /** Restarts begun since the server was last stable (0 for the first connection). */
  attempts: number;
  /** The wait chosen for the current `waiting` state, in ms. */
  delayMs: number;
  /** The jitter sample of the last crash. */
  sample: number;
  /** The revision negotiated by the current (or last) connection. */
  protocolVersion: string | undefined;
  /** The era of the current (or last) connection: 'modern' (2026-07-28) or 'legacy' (initialize). */
  era: 'modern' | 'legacy' | undefined;
  /** Why the last connection died or could not be made; cleared on CONNECTED. */
  error: Error | undefined;
}

export type HostServerEvent =
  /** Connect for the first time. */
  | { type: 'START' }
  /** The client initialized. */
  | { type: 'CONNECTED'; protocolVersion?: string; era?: 'modern' | 'legacy' }
  /** The connection or initialization failed. `sample` ∈ [0, 1) draws the jitter. */
  | { type: 'CONNECT_FAILED'; error: Error; sample: number }
  /** A ready connection ended without being asked to (process exit, transport failure). */
  | { type: 'CRASHED'; error: Error; sample: number }
  /** The dead client is disposed of. */
  | { type: 'RELEASED' }
  /** The backoff wait is over (delayed event `restart`). */
  | { type: 'RESTART' }
  /** The server stayed ready for `resetAfterMs` (delayed event `stable`). */
  | { type: 'STABLE' }
  /** Shut the server down. */
  | { type: 'STOP' }
  /** The client is closed (after STOP). */
  | { type: 'CLOSED' };

/**
 * The wait before restart `attempts` (0-based): `min(maxDelayMs, initialDelayMs × factor^attempts)`
 * less a random share of up to `jitter` of it (`sample` ∈ [0, 1) picks the share).
 */
export function restartDelay(options: Omit<RestartOptions, 'maxAttempts' | 'resetAfterMs'>, attempts: number, sample: number): number {
  const base = Math.min(options.maxDelayMs, options.initialDelayMs * Math.pow(options.factor, attempts));
  const jitter = Math.min(1, Math.max(0, options.jitter));
  const s = Math.min(1, Math.max(0, sample));
  return Math.round(base * (1 - jitter * s));
}

/**
 * One server of a multi-server host: connecting → ready → (crashed → waiting → connecting) |
 * failed | stopped. Provide `connect`, `releaseClient` and `disconnect` with `.provide({ actions })`.
 */
export const hostServerMachine = setup({
  types: {
    context: {} as HostServerContext,
    events: {} as HostServerEvent,
    input: {} as HostServerInput,
  },
  actions: {
    // I/O placeholders: replaced by the host via `.provide({ actions })`.
    connect: () => {},
    releaseClient: () => {},
    disconnect: () => {},
    assignConnected: assign({
      protocolVersion: ({ context, event }) => (event.type === 'CONNECTED' ? event.protocolVersion : context.protocolVersion),
      era: ({ context, event }) => (event.type === 'CONNECTED' ? event.era : context.era),
      error: undefined,
    }),
    assignCrash: assign({
      error: ({ context, event }) => (event.type === 'CRASHED' || event.type === 'CONNECT_FAILED' ? event.error : context.error),
      sample: ({ context, event }) => (event.type === 'CRASHED' || event.type === 'CONNECT_FAILED' ? event.sample : context.sample),
    }),
    computeDelay: assign({
      delayMs: ({ context }) => restartDelay(context, context.attempts, context.sample),
    }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    resetAttempts: assign({ attempts: 0 }),
    startRestartTimer: raise({ type: 'RESTART' }, { id: 'restart', delay: 'restartDelay' }),
    cancelRestartTimer: cancel('restart'),
    startStableTimer: raise({ type: 'STABLE' }, { id: 'stable', delay: 'resetAfter' }),
    cancelStableTimer: cancel('stable'),
  },
  guards: {
    attemptsLeft: ({ context }) => context.attempts < context.maxAttempts,
  },
  delays: {
    restartDelay: ({ context }) => context.delayMs,
    resetAfter: ({ context }) => context.resetAfterMs,
  },
}).createMachine({
  id: 'hostServer',
  context: ({ input }) => ({
    maxAttempts: input?.maxAttempts ?? DEFAULT_RESTART_OPTIONS.maxAttempts,
    initialDelayMs: input?.initialDelayMs ?? DEFAULT_RESTART_OPTIONS.initialDelayMs,
    maxDelayMs: input?.maxDelayMs ?? DEFAULT_RESTART_OPTIONS.maxDelayMs,
    factor: input?.factor ?? DEFAULT_RESTART_OPTIONS.factor,
    jitter: input?.jitter ?? DEFAULT_RESTART_OPTIONS.jitter,
    resetAfterMs: input?.resetAfterMs ?? DEFAULT_RESTART_OPTIONS.resetAfterMs,
    attempts: 0,
    delayMs: 0,
    sample: 0,
    protocolVersion: undefined,
    era: undefined,
    error: undefined,
  }),
  initial: 'idle',
  states: {
    idle: {
      description: 'Configured, not started.',
      on: {
        START: { target: 'connecting' },
        STOP: { target: 'stopped' },
      },
    },
    connecting: {
      description: 'A client and its transport are being created and initialized.',
      entry: ['connect'],
      on: {
        CONNECTED: { target: 'ready', actions: ['assignConnected'] },
        CONNECT_FAILED: { target: 'crashed', actions: ['assignCrash'] },
        STOP: { target: 'stopping' },
      },
    },
    ready: {
      description: 'Initialized and serving; after resetAfterMs here the attempt count is reset.',
      entry: ['startStableTimer'],
      exit: ['cancelStableTimer'],
      on: {
        STABLE: { actions: ['resetAttempts'] },
        CRASHED: { target: 'crashed', actions: ['assignCrash'] },
        STOP: { target: 'stopping' },
      },
    },
    crashed: {
      description: 'The connection died; the dead client is being disposed of.',
      entry: ['releaseClient'],
      on: {
        RELEASED: [
          { guard: 'attemptsLeft', target: 'waiting', actions: ['computeDelay'] },
          { target: 'failed' },
        ],
        STOP: { target: 'stopping' },
      },
    },
    waiting: {
      description: 'Waiting the backoff (delayed event `restart`) before connecting again.',
      entry: ['startRestartTimer'],
      exit: ['cancelRestartTimer'],
      on: {
        RESTART: { target: 'connecting', actions: ['countAttempt'] },
        STOP: { target: 'stopped' },
      },
    },
    stopping: {
      description: 'Closing the client (a stdio child: stdin, then SIGTERM, then SIGKILL).',
      entry: ['disconnect'],
      on: {
        CLOSED: { target: 'stopped' },
      },
    },
    failed: {
      description: 'maxAttempts restarts in a row failed; the last error is kept.',
      type: 'final',
    },
    stopped: {
      description: 'Shut down on request.',
      type: 'final',
    },
  },
});

export type HostServerMachine = typeof hostServerMachine;
