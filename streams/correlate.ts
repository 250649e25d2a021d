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
          const rest = correlateOne(inbound, settle);
          if (rest !== undefined) subscriber.next(rest);
        },
        error: (e) => subscriber.error(e),
        complete: () => subscriber.complete(),
      }),
    );
}

/** Settle the responses in one frame; return what is left to route, if anything. */
export function correlateOne(inbound: Inbound, settle: (response: JsonRpcResponse) => void): Routable | undefined {
  if (inbound.kind === 'response') {
    settle(inbound.msg);
    return undefined;
  }
  if (inbound.kind !== 'batch') return inbound;
  const rest: RoutableSingle[] = [];
  for (const item of inbound.items) {
    if (item.kind === 'response') settle(item.msg);
    else rest.push(item);
  }
  return rest.length > 0 ? { kind: 'batch', items: rest } : undefined;
}
