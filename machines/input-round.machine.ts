/**
 * One round of a multi round-trip request (MRTR, revision 2026-07-28) on the server.
 *
 * A handler is era-blind: it calls `ctx.elicit()`, `ctx.sample()` or `ctx.listRoots()` and
 * awaits the answer. On a modern request there is no server-to-client request to send: an ask
 * that the retry's `inputResponses` (or an earlier round's answers, carried in the signed
 * `requestState`) already answer resolves at once; the first unanswered ask starts `collecting`,
 * the asks made in the same turn (`Promise.all` of several) join it, and when the turn ends the
 * round ends `inputRequired`: the request is answered with an `InputRequiredResult` listing
 * every collected input request and a new signed state, the handler is abandoned (its signal
 * aborted), and nothing is kept. The client's retry runs the handler again from the start.
 * A handler that returns (or fails) first ends the round `complete` (or `failed`).
 *
 * Not run as an actor per request: `lib/modern/input-round.ts` executes these transitions with
 * `transition()` on one snapshot, and only once a handler asks (a request that asks nothing
 * never touches the machine). `spec/modern/input-round.spec.ts` walks the machine's paths.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { assign, setup } from 'xstate';

export interface InputRoundContext {
  /** Input keys asked this round and not answered, in the order asked. */
  pending: string[];
}

export type InputRoundEvent =
  /** The handler asked for an input that no answer covers. */
  | { type: 'ASKED'; key: string }
  /** The event loop turn in which the first unanswered ask happened is over. */
  | { type: 'TURN_ENDED' }
  /** The handler returned a result. */
  | { type: 'RETURNED' }
  /** The handler threw. */
  | { type: 'FAILED' };

export const inputRoundMachine = setup({
  types: {
    context: {} as InputRoundContext,
    events: {} as InputRoundEvent,
  },
  actions: {
    recordAsk: assign({ pending: ({ context, event }) => (event.type === 'ASKED' ? [...context.pending, event.key] : context.pending) }),
    // Supplied by the runtime: wait for the end of the current turn, then send TURN_ENDED.
    awaitTurnEnd: () => {},
    // Supplied by the runtime: answer InputRequiredResult (inputRequests + sealed state), abort the handler.
    answerInputRequired: () => {},
    // Supplied by the runtime: answer the handler's result (resultType complete).
    answerComplete: () => {},
    // Supplied by the runtime: answer the handler's error.
    answerError: () => {},
  },
}).createMachine({
  id: 'inputRound',
  context: () => ({ pending: [] }),
  initial: 'running',
  states: {
    running: {
      on: {
        ASKED: { target: 'collecting', actions: ['recordAsk', 'awaitTurnEnd'] },
        RETURNED: { target: 'complete' },
        FAILED: { target: 'failed' },
      },
    },
    collecting: {
      on: {
        ASKED: { actions: ['recordAsk'] },
        TURN_ENDED: { target: 'inputRequired' },
        RETURNED: { target: 'complete' },
        FAILED: { target: 'failed' },
      },
    },
    inputRequired: { type: 'final', entry: ['answerInputRequired'] },
    complete: { type: 'final', entry: ['answerComplete'] },
    failed: { type: 'final', entry: ['answerError'] },
  },
});
