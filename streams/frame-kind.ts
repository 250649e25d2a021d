/**
 * Splitting classified frames by kind. Classification itself happens in the codec (one pass
 * per frame); these helpers let each consumer take the kinds it handles, with narrowed types.
 */
import { filter, type OperatorFunction } from 'rxjs';
import type { Inbound } from './inbound.js';

/** The members of {@link Inbound} with one of the given kinds. */
export type InboundOf<K extends Inbound['kind']> = Extract<Inbound, { kind: K }>;

/** A type guard: whether an inbound item has one of the given kinds. */
export function isKind<K extends Inbound['kind']>(...kinds: K[]): (x: Inbound) => x is InboundOf<K> {
  if (kinds.length === 1) {
    // One kind is the usual case: a plain comparison, no array search per frame.
    const k = kinds[0];
    return (x): x is InboundOf<K> => x.kind === k;
  }
  const set: ReadonlySet<Inbound['kind']> = new Set(kinds);
  return (x): x is InboundOf<K> => set.has(x.kind);
}

/**
 * Keeps the items of the given kinds, typed accordingly:
 * `inbound$.pipe(ofKind('request'))` is an `Observable<{ kind: 'request'; msg: JsonRpcRequest }>`.
 * Batches stay whole (`ofKind('batch')`): their answers must go back as one batch.
 */
export function ofKind<K extends Inbound['kind']>(...kinds: K[]): OperatorFunction<Inbound, InboundOf<K>> {
  return filter(isKind(...kinds));
}
