/**
 * What later requests link back to: the span whose answer ended an input round (by its
 * `requestState`, which the retry of the next round carries) and the span that created a task (by
 * its `taskId`, which `tasks/*` carry). The conventions say nothing of rounds or tasks; a span per
 * round or task request, linked to the one that began it, keeps each short and still joins them.
 * Bounded (oldest dropped first), so a client that never retries cannot grow it.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import type { SpanContext } from '@opentelemetry/api';

/** A bounded map from a round's `requestState` or a task's id to the span that began it. */
export class SpanIndex<T extends { readonly span: SpanContext } = { readonly span: SpanContext }> {
  private readonly map = new Map<string, T>();
  constructor(private readonly limit = 1024) {}

  remember(key: string, entry: T): void {
    this.map.delete(key);
    this.map.set(key, entry);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value!);
  }

  recall(key: unknown): T | undefined {
    return typeof key === 'string' ? this.map.get(key) : undefined;
  }

  get size(): number {
    return this.map.size;
  }
}
