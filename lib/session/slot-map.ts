/**
 * A map for tables that mostly hold one entry at a time: the requests in flight on a session
 * answered one by one. The first entry lives in a slot, the others in a `Map` made when needed.
 * V8 shrinks a `Map` that empties (a new backing table) and grows it again at the next entry, so
 * a table that goes 0 → 1 → 0 per request allocated 100-150 B per request besides its two hash
 * operations; the slot costs neither. Iteration keeps insertion order: the slot takes an entry only
 * while there is no `Map`, so it always holds the oldest.
 *
 * The `Map` is kept young. Under steady load (many in flight, answered as new ones come) a `Map`
 * replaces its backing table every few hundred entries; once a full GC has found a table in use
 * (and so moved it to old space), V8 makes every later table of that `Map` in old space too, and a
 * table left behind keeps its entries alive through every scavenge until the next full GC: each
 * request's objects were promoted (2.8 MB a scavenge, GC time 10x; the 2026-07-28 pipelined row
 * after the sequential one, bench/README.md). So the `Map` is dropped when it empties, and one
 * that never empties is copied into a new `Map` now and then.
 */
export class SlotMap<K, V> {
  private filled = false;
  private slotKey: K | undefined = undefined;
  private slotValue: V | undefined = undefined;
  /** The entries after the slot's; undefined when there are none. */
  private rest: Map<K, V> | undefined = undefined;
  /** Sets on `rest` since it was made: it is copied into a young one past `REMAKE_AFTER` (plus twice its size, so copies stay a small part of the work). */
  private restSets = 0;

  get size(): number {
    return (this.filled ? 1 : 0) + (this.rest === undefined ? 0 : this.rest.size);
  }

  get(key: K): V | undefined {
    if (this.filled && this.slotKey === key) return this.slotValue;
    return this.rest?.get(key);
  }

  has(key: K): boolean {
    if (this.filled && this.slotKey === key) return true;
    return this.rest !== undefined && this.rest.has(key);
  }

  set(key: K, value: V): this {
    if (this.filled && this.slotKey === key) {
      this.slotValue = value;
    } else if (!this.filled && this.rest === undefined) {
      this.filled = true;
      this.slotKey = key;
      this.slotValue = value;
    } else {
      this.restOf().set(key, value);
    }
    return this;
  }

  delete(key: K): boolean {
    if (this.filled && this.slotKey === key) {
      this.filled = false;
      this.slotKey = undefined;
      this.slotValue = undefined;
      return true;
    }
    const rest = this.rest;
    if (rest === undefined || !rest.delete(key)) return false;
    if (rest.size === 0) this.rest = undefined;
    return true;
  }

  /** The values in insertion order, as an array made now (entries may be deleted while it is walked). */
  values(): V[] {
    const out: V[] = this.filled ? [this.slotValue as V] : [];
    if (this.rest !== undefined) for (const v of this.rest.values()) out.push(v);
    return out;
  }

  clear(): void {
    this.filled = false;
    this.slotKey = undefined;
    this.slotValue = undefined;
    this.rest = undefined;
  }

  /** The `Map` for one more entry: made when there is none, remade (same entries, same order) when it has served long. */
  private restOf(): Map<K, V> {
    let rest = this.rest;
    if (rest === undefined) {
      this.restSets = 0;
      return (this.rest = new Map());
    }
    if (++this.restSets > REMAKE_AFTER + 2 * rest.size) {
      this.restSets = 0;
      this.rest = rest = new Map(rest);
    }
    return rest;
  }
}

/** Sets a `Map` of a {@link SlotMap} takes before it is remade: a scavenge comes every few thousand requests, so a table rarely lives through two. */
const REMAKE_AFTER = 4096;
