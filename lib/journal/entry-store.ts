/**
 * Journal entries kept in memory without their entry objects, so that a journal kept in memory
 * costs little more to collect than its frames. An entry of a shape the runtime records on every
 * call (`in`/`out` with its frame, a modern `state`, `result` or `call`) is kept as its field
 * values in one array and
 * its stamp (`seq`, `t`) in typed arrays; the entry object itself, its property store and its
 * boxed time die young, and only what its fields point to (the frame, shared with the rest of the
 * runtime) stays. An entry of any other shape (or with another key, or keys in another order) is
 * kept as it is. {@link EntryStore.at} gives an entry back with the same keys in the same order,
 * so its JSON text is what it would have been.
 */
import type { JournalEntry } from './entry.js';

/** The shapes kept as values: an entry's own keys, in order; the stamp (`seq`, `t`) last. */
const SHAPES: readonly (readonly string[])[] = [
  ['kind', 'frame', 'seq', 't'],
  ['kind', 'rq', 'frame', 'seq', 't'],
  ['kind', 'rq', 'state', 'seq', 't'],
  ['kind', 'call', 'result', 'seq', 't'],
  ['kind', 'op', 'id', 'method', 'seq', 't'],
  ['kind', 'op', 'id', 'method', 'params', 'seq', 't'],
  ['kind', 'op', 'id', 'method', 'params', 'options', 'seq', 't'],
];
/** `kind`, `rq`, `frame` and `kind`, `rq`, `state`: the entries of a server's request journal. */
const RQ_FRAME_SHAPE = 1;
const STATE_SHAPE = 2;
/** The shapes to try for each kind (most frequent first). */
const BY_KIND: Readonly<Record<string, readonly number[]>> = { in: [0, 1], out: [0, 1], state: [2], result: [3], call: [5, 4, 6] };
/** Kept as the entry object. */
const OBJECT = 255;
const INITIAL = 64;

/** The shape `entry` has among {@link SHAPES}, or {@link OBJECT}: its own keys compared in order. */
function shapeOf(entry: JournalEntry): number {
  if (typeof entry.seq !== 'number' || typeof entry.t !== 'number') return OBJECT;
  const candidates = BY_KIND[entry.kind];
  if (candidates === undefined) return OBJECT;
  next: for (const s of candidates) {
    const keys = SHAPES[s]!;
    let i = 0;
    for (const k in entry) if (keys[i++] !== k) continue next;
    if (i === keys.length) return s;
  }
  return OBJECT;
}

/** Entries in order, each as its values (a known shape) or as it is (see the file comment). */
export class EntryStore {
  private count = 0;
  private shapes = new Uint8Array(INITIAL);
  private seqs = new Float64Array(INITIAL);
  private times = new Float64Array(INITIAL);
  /** Where each entry's values start in `values`. */
  private starts = new Int32Array(INITIAL);
  /** The values of the fields other than the stamp, entry after entry (or the entry itself). */
  private values: unknown[] = [];

  get size(): number {
    return this.count;
  }

  push(entry: JournalEntry): void {
    if (this.count === this.shapes.length) this.grow();
    const n = this.count++;
    const s = shapeOf(entry);
    this.shapes[n] = s;
    this.starts[n] = this.values.length;
    if (s === OBJECT) {
      this.values.push(entry);
      return;
    }
    this.seqs[n] = entry.seq;
    this.times[n] = entry.t;
    const keys = SHAPES[s]!;
    const fields = entry as unknown as Record<string, unknown>;
    for (let i = 0; i < keys.length - 2; i++) this.values.push(fields[keys[i]!]);
  }

  /**
   * Keep an entry of shape `in`/`out` with `rq` (`kind`, `rq`, `frame`) or `state` (`kind`, `rq`,
   * `state`) from its values, with no entry object made (the caller knows its shape: nobody
   * watches the entries as objects).
   */
  pushRequestEntry(kind: 'in' | 'out' | 'state', rq: number, value: unknown, seq: number, t: number): void {
    if (this.count === this.shapes.length) this.grow();
    const n = this.count++;
    this.shapes[n] = kind === 'state' ? STATE_SHAPE : RQ_FRAME_SHAPE;
    this.starts[n] = this.values.length;
    this.seqs[n] = seq;
    this.times[n] = t;
    this.values.push(kind, rq, value);
  }

  /** Entry `n` (0 ≤ n < size): the object kept, or one made with the same keys in the same order. */
  at(n: number): JournalEntry {
    const s = this.shapes[n]!;
    const start = this.starts[n]!;
    if (s === OBJECT) return this.values[start] as JournalEntry;
    const keys = SHAPES[s]!;
    const entry: Record<string, unknown> = {};
    for (let i = 0; i < keys.length - 2; i++) entry[keys[i]!] = this.values[start + i];
    entry.seq = this.seqs[n];
    entry.t = this.times[n];
    return entry as unknown as JournalEntry;
  }

  /** Drop the latest of the last `within` entries whose `frame` is `frame` (the same object). */
  forgetFrame(frame: object, within: number): void {
    for (let n = this.count - 1; n >= 0 && n >= this.count - within; n--) {
      const s = this.shapes[n]!;
      const start = this.starts[n]!;
      const held = s === OBJECT ? (this.values[start] as { frame?: unknown }).frame : s <= 1 ? this.values[start + s + 1] : undefined;
      if (held === frame) {
        this.remove(n);
        return;
      }
    }
  }

  clear(): void {
    this.count = 0;
    this.values = [];
    if (this.shapes.length > INITIAL) {
      this.shapes = new Uint8Array(INITIAL);
      this.seqs = new Float64Array(INITIAL);
      this.times = new Float64Array(INITIAL);
      this.starts = new Int32Array(INITIAL);
    }
  }

  private remove(n: number): void {
    const start = this.starts[n]!;
    if (n === this.count - 1) {
      // The latest entry (what `forget` finds on every request it serves): a splice here made and
      // threw away an array per call.
      this.values.length = start;
      this.count--;
      return;
    }
    const end = n + 1 < this.count ? this.starts[n + 1]! : this.values.length;
    this.values.splice(start, end - start);
    this.shapes.copyWithin(n, n + 1, this.count);
    this.seqs.copyWithin(n, n + 1, this.count);
    this.times.copyWithin(n, n + 1, this.count);
    this.starts.copyWithin(n, n + 1, this.count);
    this.count--;
    for (let i = n; i < this.count; i++) this.starts[i] -= end - start;
  }

  private grow(): void {
    const size = this.shapes.length * 2;
    const shapes = new Uint8Array(size);
    shapes.set(this.shapes);
    this.shapes = shapes;
    const seqs = new Float64Array(size);
    seqs.set(this.seqs);
    this.seqs = seqs;
    const times = new Float64Array(size);
    times.set(this.times);
    this.times = times;
    const starts = new Int32Array(size);
    starts.set(this.starts);
    this.starts = starts;
  }
}
