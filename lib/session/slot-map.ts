/**
 * A map for tables that mostly hold one entry at a time: the requests in flight on a session
 * answered one by one. The first entry lives in a slot, the others in a `Map` made when needed.
 * V8 shrinks a `Map` that empties (a new backing table) and grows it again at the next entry, so
 * a table that goes 0 → 1 → 0 per request allocated 100-150 B per request besides its two hash
 * operations; the slot costs neither. Iteration keeps insertion order: the slot takes an entry only
 * while the `Map` is empty, so it always holds the oldest.
 */
export class SlotMap<K, V> {
  private filled = false;
  private slotKey: K | undefined = undefined;
  private slotValue: V | undefined = undefined;
  private rest: Map<K, V> | undefined = undefined;

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
    } else if (!this.filled && (this.rest === undefined || this.rest.size === 0)) {
      this.filled = true;
      this.slotKey = key;
      this.slotValue = value;
    } else {
      (this.rest ??= new Map()).set(key, value);
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
    return this.rest !== undefined && this.rest.delete(key);
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
    this.rest?.clear();
  }
}
