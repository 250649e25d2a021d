/**
 * The lifecycle of a spawned MCP server process, as the stdio client sees it: spawn, run, and
 * the graceful shutdown the spec asks for (close stdin, then SIGTERM, then SIGKILL).
 *
 * No I/O lives here: `spawnProcess`, `closeStdin`, `sendSigterm` and `sendSigkill` are
 * placeholders that the stdio client replaces through `childProcessMachine.provide(...)`, and it
 * reports what the process did with SPAWNED / SPAWN_FAILED / EXITED events.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#stdio
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 */
import { assign, setup } from 'xstate';

/** Default wait after closing stdin, and again after SIGTERM, before escalating. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 2000;
export const DEFAULT_TERM_TIMEOUT_MS = 2000;

export interface ChildProcessInput {
  /** Milliseconds to wait for an exit after closing stdin before sending SIGTERM. */
  closeTimeout?: number;
  /** Milliseconds to wait for an exit after SIGTERM before sending SIGKILL. */
  termTimeout?: number;
}

export interface ChildProcessContext {
  closeTimeout: number;
  termTimeout: number;
  pid: number | undefined;
  /** Exit code, when the process exited normally. */
  code: number | null;
  /** The signal that ended the process, if any. */
  signal: string | null;
  /** Why the process could not be started (ENOENT, EACCES...). */
  spawnError: Error | undefined;
}

export type ChildProcessEvent =
  | { type: 'SPAWNED'; pid: number | undefined }
  | { type: 'SPAWN_FAILED'; error: Error }
  | { type: 'EXITED'; code: number | null; signal: string | null }
  | { type: 'CLOSE' };

/**
 * Lifecycle of a spawned server process: `starting` → `running` → `closing` (`stdinClosed`, after
 * `closeTimeout` → `terminating` (SIGTERM), after `termTimeout` → `killing` (SIGKILL)) → `exited`;
 * or `crashed` when it exits on its own or cannot be spawned. Provide the I/O actions
 * (`spawnProcess`, `closeStdin`, `sendSigterm`, `sendSigkill`) with `.provide({ actions })`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#stdio
 */
export const childProcessMachine = setup({
  types: {
    context: {} as ChildProcessContext,
    events: {} as ChildProcessEvent,
    input: {} as ChildProcessInput,
  },
  actions: {
    // I/O placeholders: replaced by the transport via `.provide({ actions })`.
    spawnProcess: () => {},
    closeStdin: () => {},
    sendSigterm: () => {},
    sendSigkill: () => {},
    assignPid: assign({
      pid: ({ event }) => (event.type === 'SPAWNED' ? event.pid : undefined),
    }),
    assignSpawnError: assign({
      spawnError: ({ event }) => (event.type === 'SPAWN_FAILED' ? event.error : undefined),
    }),
    assignExit: assign({
      code: ({ event }) => (event.type === 'EXITED' ? event.code : null),
      signal: ({ event }) => (event.type === 'EXITED' ? event.signal : null),
    }),
  },
  delays: {
    closeTimeout: ({ context }) => context.closeTimeout,
    termTimeout: ({ context }) => context.termTimeout,
  },
}).createMachine({
  id: 'childProcess',
  context: ({ input }) => ({
    closeTimeout: input?.closeTimeout ?? DEFAULT_CLOSE_TIMEOUT_MS,
    termTimeout: input?.termTimeout ?? DEFAULT_TERM_TIMEOUT_MS,
    pid: undefined,
    code: null,
    signal: null,
    spawnError: undefined,
  }),
  initial: 'starting',
  states: {
    starting: {
      entry: 'spawnProcess',
      on: {
        SPAWNED: { target: 'running', actions: 'assignPid' },
        SPAWN_FAILED: { target: 'crashed', actions: 'assignSpawnError' },
        // Node always reports 'spawn' before 'exit'; kept so an odd order cannot wedge us.
        EXITED: { target: 'crashed', actions: 'assignExit' },
        // stdin exists as soon as spawn() returns, so closing can begin before SPAWNED.
        CLOSE: { target: 'closing' },
      },
    },
    running: {
      on: {
        EXITED: { target: 'crashed', actions: 'assignExit' },
        CLOSE: { target: 'closing' },
      },
    },
    closing: {
      initial: 'stdinClosed',
      on: {
        SPAWNED: { actions: 'assignPid' },
        SPAWN_FAILED: { target: 'crashed', actions: 'assignSpawnError' },
        EXITED: { target: 'exited', actions: 'assignExit' },
      },
      // `after` timers get ids derived from the state id (`xstate.after.<delay>.<state id>`),
      // never random ones, so a recorded session replays with the same timer ids.
      states: {
        stdinClosed: {
          entry: 'closeStdin',
          after: { closeTimeout: { target: 'terminating' } },
        },
        terminating: {
          entry: 'sendSigterm',
          after: { termTimeout: { target: 'killing' } },
        },
        killing: {
          // SIGKILL cannot be ignored; the EXITED that follows ends the machine.
          entry: 'sendSigkill',
        },
      },
    },
    exited: {
      description: 'The process exited after we asked it to.',
      type: 'final',
    },
    crashed: {
      description: 'The process exited on its own, or could not be started.',
      type: 'final',
    },
  },
});

export type ChildProcessMachine = typeof childProcessMachine;
