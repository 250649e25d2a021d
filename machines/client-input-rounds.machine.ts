/**
 * One multi round-trip request (MRTR, revision 2026-07-28) on the client: the request is sent; an
 * `input_required` result is answered with the client's own handlers (elicitation, sampling,
 * roots: every input request of the round at once), then the request is sent again with a new id,
 * the `inputResponses` and the unchanged `requestState`; a `complete` result ends it. The number
 * of rounds is bounded: past the bound the request fails with `InputRoundsExceededError`.
 *
 * Run with `transition()` by `lib/client-modern/input-rounds.ts` (one snapshot per request).
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { assign, setup } from 'xstate';

export interface ClientInputRoundsContext {
  /** Input-required rounds answered so far. */
  round: number;
  maxRounds: number;
}

export type ClientInputRoundsEvent =
  | { type: 'COMPLETE' }
  | { type: 'INPUT_REQUIRED' }
  /** Every input request of the round has its response. */
  | { type: 'ANSWERED' }
  /** The request failed: an error response, a handler missing or failing, a malformed result. */
  | { type: 'FAILED' };

export const clientInputRoundsMachine = setup({
  types: {
    context: {} as ClientInputRoundsContext,
    events: {} as ClientInputRoundsEvent,
    input: {} as { maxRounds: number },
  },
  guards: {
    withinBound: ({ context }) => context.round < context.maxRounds,
  },
  actions: {
    nextRound: assign({ round: ({ context }) => context.round + 1 }),
  },
}).createMachine({
  id: 'clientInputRounds',
  context: ({ input }) => ({ round: 0, maxRounds: input.maxRounds }),
  initial: 'sent',
  states: {
    sent: {
      on: {
        COMPLETE: { target: 'complete' },
        INPUT_REQUIRED: [{ guard: 'withinBound', target: 'answering', actions: ['nextRound'] }, { target: 'exceeded' }],
        FAILED: { target: 'failed' },
      },
    },
    answering: {
      on: {
        ANSWERED: { target: 'sent' },
        FAILED: { target: 'failed' },
      },
    },
    complete: { type: 'final' },
    exceeded: { type: 'final' },
    failed: { type: 'final' },
  },
});
