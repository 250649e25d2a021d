/**
 * The lifecycle of one Streamable HTTP session (`Mcp-Session-Id`) on the server.
 *
 * A session is `live` from its `initialize` POST until it is `terminated`: by a DELETE, by the
 * idle timer, or because its `ServerSession` ended (the application closed it or the server shut
 * down). While any HTTP exchange of the session is open (a POST waiting for its responses, an SSE
 * stream) it is `busy`; when the last one ends it is `idle` and the idle timer runs. The timer is
 * the only one a session owns.
 *
 * The server does not run this machine as an actor per session (an actor costs kilobytes and tens
 * of microseconds; sessions are many and mostly idle): `streams/http-session.ts` executes the same
 * states and transitions on a plain record with one clock timer, and
 * `spec/server-bindings/http-session.model.spec.ts` walks this machine and checks the record agrees.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
import { assign, cancel, raise, setup } from 'xstate';

export interface HttpSessionMachineInput {
  /** How long the session may stay idle (no open HTTP exchange) before it is terminated, in ms. */
  idleTtlMs: number;
}

export interface HttpSessionMachineContext {
  idleTtlMs: number;
  /** HTTP exchanges of this session open now (POSTs awaiting responses, SSE streams). */
  open: number;
}

export type HttpSessionMachineEvent =
  /** An HTTP exchange of the session began (a POST with requests, a GET stream). */
  | { type: 'EXCHANGE_OPENED' }
  /** An HTTP exchange of the session ended. */
  | { type: 'EXCHANGE_CLOSED' }
  /** The idle timer fired. */
  | { type: 'IDLE_TIMEOUT' }
  /** The client sent DELETE with the session id. */
  | { type: 'DELETE' }
  /** The ServerSession behind it ended (closed by the application, or failed). */
  | { type: 'SESSION_ENDED' };

export const httpSessionMachine = setup({
  types: {
    context: {} as HttpSessionMachineContext,
    events: {} as HttpSessionMachineEvent,
    input: {} as HttpSessionMachineInput,
  },
  actions: {
    // Supplied by the runtime: close the ServerSession and its streams, forget the session id
    // and its stored events.
    terminate: () => {},
    startIdleTimer: raise({ type: 'IDLE_TIMEOUT' }, { id: 'idleTimeout', delay: 'idleTtl' }),
    cancelIdleTimer: cancel('idleTimeout'),
    countOpened: assign({ open: ({ context }) => context.open + 1 }),
    countClosed: assign({ open: ({ context }) => context.open - 1 }),
  },
  guards: {
    lastExchange: ({ context }) => context.open <= 1,
  },
  delays: {
    idleTtl: ({ context }) => context.idleTtlMs,
  },
}).createMachine({
  id: 'httpSession',
  context: ({ input }) => ({ idleTtlMs: input.idleTtlMs, open: 0 }),
  initial: 'live',
  states: {
    live: {
      initial: 'idle',
      states: {
        idle: {
          entry: ['startIdleTimer'],
          exit: ['cancelIdleTimer'],
          on: {
            EXCHANGE_OPENED: { target: 'busy', actions: ['countOpened'] },
            IDLE_TIMEOUT: { target: '#httpSession.terminated' },
          },
        },
        busy: {
          on: {
            EXCHANGE_OPENED: { actions: ['countOpened'] },
            EXCHANGE_CLOSED: [
              { guard: 'lastExchange', target: 'idle', actions: ['countClosed'] },
              { actions: ['countClosed'] },
            ],
          },
        },
      },
      on: {
        DELETE: { target: 'terminated' },
        SESSION_ENDED: { target: 'terminated' },
      },
    },
    terminated: {
      type: 'final',
      entry: ['terminate'],
    },
  },
});
