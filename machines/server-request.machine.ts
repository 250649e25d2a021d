/**
 * The one definition of an inbound request's life on a server, in both eras: received, then
 * running its handler; a legacy request may wait on requests it sent the client (`asking`); a
 * 2026-07-28 request may end its round with input requests (`inputRequired`, answered by a retry
 * that is a request of its own); otherwise it is answered, fails, or is cancelled.
 *
 * The hot path does not run this machine as an actor: `lib/session/server-request.ts` steps a
 * transition table computed once from this definition (a model-based spec checks the table
 * against `transition()`), and makes a real actor only when an inspector is given.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation
 */
import { setup } from 'xstate';

export type ServerRequestEvent =
  | { type: 'START' }
  | { type: 'ASK'; method?: string }
  | { type: 'ASKED' }
  | { type: 'INPUT_REQUIRED'; keys?: string[] }
  | { type: 'RESULT' }
  | { type: 'ERROR'; code?: number }
  | { type: 'CANCEL'; reason?: string };

export const serverRequestMachine = setup({
  types: {
    events: {} as ServerRequestEvent,
  },
}).createMachine({
  id: 'serverRequest',
  initial: 'received',
  states: {
    // Decoded and checked by the dispatch; a refusal (unknown method, bad params) fails it here.
    received: {
      on: {
        START: 'running',
        ERROR: 'failed',
        CANCEL: 'cancelled',
      },
    },
    running: {
      on: {
        ASK: 'asking',
        INPUT_REQUIRED: 'inputRequired',
        RESULT: 'answered',
        ERROR: 'failed',
        CANCEL: 'cancelled',
      },
    },
    // Legacy era: at least one request to the client (elicitation, sampling, roots) is open.
    asking: {
      on: {
        ASKED: 'running',
        INPUT_REQUIRED: 'inputRequired',
        RESULT: 'answered',
        ERROR: 'failed',
        CANCEL: 'cancelled',
      },
    },
    answered: { type: 'final' },
    inputRequired: { type: 'final' },
    failed: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
