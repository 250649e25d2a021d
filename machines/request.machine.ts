/**
 * The one definition of an outgoing request's lifecycle.
 *
 * The hot path does not run this machine as an actor (an actor per request costs 35-60 µs and
 * child actors slow down quadratically with requests in flight); `lib/session/request-registry.ts`
 * executes the same states and transitions by hand, and `spec/machines/request.model.spec.ts`
 * walks this machine's graph with `@xstate/graph` and checks the registry does the same.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#timeouts
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation
 */
import { cancel, enqueueActions, raise, setup } from 'xstate';

export interface RequestMachineInput {
  method: string;
  /** Idle timeout in ms (reset on progress when `resetTimeoutOnProgress`). */
  timeout: number;
  /** Hard cap in ms regardless of progress. */
  maxTotalTimeout?: number;
  resetTimeoutOnProgress?: boolean;
}

export interface RequestMachineContext {
  method: string;
  timeout: number;
  maxTotalTimeout: number | undefined;
  resetTimeoutOnProgress: boolean;
}

export type RequestMachineEvent =
  | { type: 'PROGRESS'; progress: number; total?: number; message?: string }
  | { type: 'RESPONSE'; result: unknown }
  | { type: 'ERROR_RESPONSE'; error: { code: number; message: string; data?: unknown } }
  | { type: 'ABORT'; reason?: unknown }
  | { type: 'CONNECTION_CLOSED'; error?: unknown }
  | { type: 'IDLE_TIMEOUT' }
  | { type: 'TOTAL_TIMEOUT' };

export const requestMachine = setup({
  types: {
    context: {} as RequestMachineContext,
    events: {} as RequestMachineEvent,
    input: {} as RequestMachineInput,
  },
  actions: {
    // The effects below are supplied by the runtime (`machine.provide`); the machine only names them.
    reportProgress: () => {},
    resolve: () => {},
    rejectWithError: () => {},
    rejectTimedOut: () => {},
    rejectAborted: () => {},
    rejectClosed: () => {},
    sendCancelled: () => {},
    startIdleTimer: raise({ type: 'IDLE_TIMEOUT' }, { id: 'idleTimeout', delay: ({ context }) => context.timeout }),
    cancelIdleTimer: cancel('idleTimeout'),
    startTotalTimer: enqueueActions(({ context, enqueue }) => {
      if (context.maxTotalTimeout !== undefined) {
        enqueue.raise({ type: 'TOTAL_TIMEOUT' }, { id: 'totalTimeout', delay: context.maxTotalTimeout });
      }
    }),
    cancelTotalTimer: cancel('totalTimeout'),
  },
  guards: {
    // `initialize` must never be cancelled (lifecycle: "The initialize request MUST NOT be cancelled").
    isCancellable: ({ context }) => context.method !== 'initialize',
    resetsTimeoutOnProgress: ({ context }) => context.resetTimeoutOnProgress,
  },
}).createMachine({
  id: 'request',
  context: ({ input }) => ({
    method: input.method,
    timeout: input.timeout,
    maxTotalTimeout: input.maxTotalTimeout,
    resetTimeoutOnProgress: input.resetTimeoutOnProgress ?? false,
  }),
  initial: 'active',
  states: {
    active: {
      entry: ['startIdleTimer', 'startTotalTimer'],
      exit: ['cancelIdleTimer', 'cancelTotalTimer'],
      initial: 'pending',
      states: {
        pending: {
          on: {
            PROGRESS: [
              {
                guard: 'resetsTimeoutOnProgress',
                target: 'progressing',
                actions: ['reportProgress', 'cancelIdleTimer', 'startIdleTimer'],
              },
              { target: 'progressing', actions: ['reportProgress'] },
            ],
          },
        },
        progressing: {
          on: {
            PROGRESS: [
              { guard: 'resetsTimeoutOnProgress', actions: ['reportProgress', 'cancelIdleTimer', 'startIdleTimer'] },
              { actions: ['reportProgress'] },
            ],
          },
        },
      },
      on: {
        RESPONSE: { target: 'settled', actions: ['resolve'] },
        ERROR_RESPONSE: { target: 'settled', actions: ['rejectWithError'] },
        IDLE_TIMEOUT: [
          { guard: 'isCancellable', target: 'timedOut', actions: ['sendCancelled', 'rejectTimedOut'] },
          { target: 'timedOut', actions: ['rejectTimedOut'] },
        ],
        TOTAL_TIMEOUT: [
          { guard: 'isCancellable', target: 'timedOut', actions: ['sendCancelled', 'rejectTimedOut'] },
          { target: 'timedOut', actions: ['rejectTimedOut'] },
        ],
        // Giving up on `initialize` rejects locally but tells the peer nothing: it must not be cancelled.
        ABORT: [
          { guard: 'isCancellable', target: 'cancelled', actions: ['sendCancelled', 'rejectAborted'] },
          { target: 'cancelled', actions: ['rejectAborted'] },
        ],
        CONNECTION_CLOSED: { target: 'failed', actions: ['rejectClosed'] },
      },
    },
    settled: { type: 'final' },
    timedOut: { type: 'final' },
    cancelled: { type: 'final' },
    failed: { type: 'final' },
  },
});
