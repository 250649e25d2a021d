/**
 * Correlate: responses go to the pending-request table, everything else goes on. A batch goes
 * on without its responses (or not at all when it held only responses).
 */
import { Observable, type OperatorFunction } from 'rxjs';
import type { JsonRpcResponse } from '../lib/jsonrpc/message.js';
import type { Inbound, SingleInbound } from './inbound.js';

/** A single frame that is not a response. */
export type RoutableSingle = Exclude<SingleInbound, { kind: 'response' }>;
/** What `correlate` lets through: non-responses, and batches of them. */
export type Routable = RoutableSingle | { kind: 'batch'; items: RoutableSingle[] };

export function correlate(settle: (response: JsonRpcResponse) => void): OperatorFunction<Inbound, Routable> {
  return (source) =>
    new Observable<Routable>((subscriber) =>
      source.subscribe({
        next(inbound) {
          if (inbound.kind === 'response') {
            settle(inbound.msg);
            return;
          }
          if (inbound.kind !== 'batch') {
            subscriber.next(inbound);
            return;
          }
          const rest: RoutableSingle[] = [];
          for (const item of inbound.items) {
            if (item.kind === 'response') settle(item.msg);
            else rest.push(item);
          }
          if (rest.length > 0) subscriber.next({ kind: 'batch', items: rest });
        },
        error: (e) => subscriber.error(e),
        complete: () => subscriber.complete(),
      }),
    );
}
