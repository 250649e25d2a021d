/**
 * One terminal of the terminal server: a shell in a pseudo-terminal.
 *
 * spawning → ready ⇄ busy (a command run and waited for) → exited; a spawn that fails ends in
 * `failed`. While busy, cancelling interrupts (Ctrl-C) and starts a grace timer; if the command
 * is still running when it fires, the shell gets SIGTERM and a second grace period, then
 * SIGKILL. Closing (or the owner's session ending) kills the shell at once.
 *
 * The I/O (spawning the PTY, writing keys, sending signals) is named here and supplied by
 * `lib/terminal/terminal.ts`, which runs this machine as an actor per terminal on the server's
 * clock, so `state$` of each terminal is this machine's snapshots.
 */
import { assign, setup } from 'xstate';

export interface TerminalMachineInput {
  id: string;
  /** Time between Ctrl-C and SIGTERM, and between SIGTERM and SIGKILL (ms). */
  graceMs: number;
}

export interface TerminalMachineContext {
  id: string;
  graceMs: number;
  /** The command being waited for, while busy. */
  command: string | undefined;
  exitCode: number | undefined;
  signal: number | undefined;
  error: string | undefined;
}

export type TerminalMachineEvent =
  | { type: 'SPAWNED' }
  | { type: 'SPAWN_FAILED'; error: string }
  | { type: 'RUN'; command: string }
  | { type: 'COMMAND_DONE' }
  | { type: 'CANCEL' }
  | { type: 'EXITED'; exitCode: number; signal?: number }
  | { type: 'CLOSE' };

export const terminalMachine = setup({
  types: {
    context: {} as TerminalMachineContext,
    events: {} as TerminalMachineEvent,
    input: {} as TerminalMachineInput,
  },
  actions: {
    // I/O supplied by the runtime.
    writeCommand: () => {},
    sendInterrupt: () => {},
    sendTerm: () => {},
    sendKill: () => {},
    reportExit: () => {},
    rememberCommand: assign({ command: ({ event }) => (event as Extract<TerminalMachineEvent, { type: 'RUN' }>).command }),
    forgetCommand: assign({ command: () => undefined }),
    rememberExit: assign(({ event }) => {
      const e = event as Extract<TerminalMachineEvent, { type: 'EXITED' }>;
      return { exitCode: e.exitCode, signal: e.signal };
    }),
    rememberError: assign({ error: ({ event }) => (event as Extract<TerminalMachineEvent, { type: 'SPAWN_FAILED' }>).error }),
  },
  delays: {
    grace: ({ context }) => context.graceMs,
  },
}).createMachine({
  id: 'terminal',
  context: ({ input }) => ({ id: input.id, graceMs: input.graceMs, command: undefined, exitCode: undefined, signal: undefined, error: undefined }),
  initial: 'spawning',
  on: {
    EXITED: { target: '.exited', actions: ['rememberExit', 'forgetCommand', 'reportExit'] },
  },
  states: {
    spawning: {
      on: {
        SPAWNED: 'ready',
        SPAWN_FAILED: { target: 'failed', actions: ['rememberError'] },
      },
    },
    ready: {
      on: {
        RUN: { target: 'busy', actions: ['rememberCommand', 'writeCommand'] },
        CLOSE: { target: 'closing', actions: ['sendKill'] },
      },
    },
    busy: {
      initial: 'running',
      on: {
        COMMAND_DONE: { target: 'ready', actions: ['forgetCommand'] },
        CLOSE: { target: 'closing', actions: ['sendKill'] },
      },
      states: {
        running: {
          on: { CANCEL: { target: 'interrupting', actions: ['sendInterrupt'] } },
        },
        interrupting: {
          after: { grace: { target: 'terminating', actions: ['sendTerm'] } },
        },
        terminating: {
          after: { grace: { target: 'killing', actions: ['sendKill'] } },
        },
        killing: {},
      },
    },
    closing: {},
    exited: { type: 'final' },
    failed: { type: 'final' },
  },
});
