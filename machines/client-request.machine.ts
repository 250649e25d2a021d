/**
 * The one definition of an outbound request's life on a client, in both eras: sent and waiting
 * for its answer; in 2026-07-28 an `input_required` answer takes it into an input round (the
 * client's handlers answer the server's input requests), and the retry sends it again; it ends
 * answered, failed (an error answer), cancelled (its signal, or the connection's end) or timed out.
 *
 * The client does not run this machine on the hot path: `lib/client-era/client-request.ts` steps
 * a transition table read once from this definition, and makes a real actor, a child of the
 * client's session actor, only when an inspector is given. The timers themselves are the request
 * registry's (`request.machine.ts`); this machine is what the request is, seen from the client.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation
 */
import { setup } from 'xstate';

export type ClientRequestEvent =
  | { type: 'INPUT_REQUIRED'; round?: number }
  | { type: 'RETRY' }
  | { type: 'RESULT' }
  | { type: 'ERROR'; code?: number }
  | { type: 'CANCEL' }
  | { type: 'TIMEOUT' };

export const clientRequestMachine = setup({
  types: {
    events: {} as ClientRequestEvent,
  },
}).createMachine({
  id: 'clientRequest',
  initial: 'waiting',
  states: {
    // Sent: its answer is awaited.
    waiting: {
      on: {
        INPUT_REQUIRED: 'inputRound',
        RESULT: 'answered',
        ERROR: 'failed',
        CANCEL: 'cancelled',
        TIMEOUT: 'timedOut',
      },
    },
    // 2026-07-28: the client's handlers answer the round's input requests; RETRY sends it again.
    inputRound: {
      on: {
        RETRY: 'waiting',
        ERROR: 'failed',
        CANCEL: 'cancelled',
        TIMEOUT: 'timedOut',
      },
    },
    answered: { type: 'final' },
    failed: { type: 'final' },
    cancelled: { type: 'final' },
    timedOut: { type: 'final' },
  },
});
