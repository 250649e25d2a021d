/**
 * Multi round-trip requests (2026-07-28) in the mock server. A recorded `input_required` result
 * carries the recorded server's `requestState`: opaque, signed with that server's key, bound to
 * its clock. The mock cannot honour it, and must not take a state it never issued either. So
 * each input-required answer the mock replays gets a state of the mock's own, signed with the
 * key of the mock's request core (so the core refuses a tampered, foreign or expired one with
 * -32602 as any server does), and remembered with the recorded round it continues: a retry
 * carrying it is answered with the recorded retry of that round, whatever else the recording
 * holds. A round the recorded server answered without a state is continued by matching params.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { randomBytes } from 'node:crypto';
import type { JsonObject } from '../jsonrpc/message.js';
import { RequestStateCodec, paramsDigest } from '../modern/request-state.js';
import type { Exchange } from './recorded-exchanges.js';

export class MockRounds {
  /** The request core's signing key (`ServerOptions.modern.requestState.key`). */
  readonly key = randomBytes(32);
  private readonly codec = new RequestStateCodec({ key: this.key });
  /** States this mock handed out, with the recorded round each answered. */
  private readonly issued = new Map<string, Exchange>();

  /**
   * The result to send for a recorded one: an input-required result with a state gets a state
   * of the mock's own for the live request (`method`, `params`), remembered for its retry.
   */
  result(recorded: JsonObject, ex: Exchange, method: string, params: JsonObject | undefined): JsonObject {
    if (recorded.resultType !== 'input_required' || typeof recorded.requestState !== 'string') return recorded;
    const state = this.codec.seal({ method, digest: paramsDigest(params), answers: {}, round: this.depth(ex) + 1 });
    this.issued.set(state, ex);
    return { ...recorded, requestState: state };
  }

  /** The recorded round a live retry continues, from the state it echoes (undefined: not ours, or none). */
  continued(params: JsonObject | undefined): Exchange | undefined {
    const state = params?.requestState;
    return typeof state === 'string' ? this.issued.get(state) : undefined;
  }

  /** How many rounds came before `ex` in its request. */
  private depth(ex: Exchange): number {
    let n = 0;
    for (let e = ex.retryOf; e; e = e.retryOf) n++;
    return n;
  }
}
