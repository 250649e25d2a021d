/**
 * Journal entries kept in memory without their entry objects, so that a journal kept in memory
 * costs little more to collect than its frames. An entry of a shape the runtime records on every
 * call (`in`/`out` with its frame, a modern `state`, `result` or `call`) is kept as the values
 * of its fields in one array (not those its shape fixes: `kind`, a call's `op`) and its stamp
 * (`seq`, `t`) in typed arrays; a recorder whose entries nobody watches gives them unstamped
 * ({@link EntryStore.keep}); the entry object itself, its property store and its
 * boxed time die young, and only what its fields point to (the frame, shared with the rest of the
 * runtime) stays. An entry of any other shape (or with another key, or keys in another order) is
 * kept as it is. {@link EntryStore.at} gives an entry back with the same keys in the same order,
 * so its JSON text is what it would have been.
 */
import type { JournalEntry, JournalEntryInput } from './entry.js';

/**
 * A shape kept as values: the entry's own keys in order (the stamp, `seq` and `t`, last), and
 * which of them are the same in every entry of the shape (`kind`, a call's `op`): those are not
 * kept per entry, only the others' values are (fewer slots for the collector to scan and fill).
 */
interface Shape {
  readonly keys: readonly string[];
  /** Per key but the stamp: its value in every entry of the shape, or undefined (kept per entry). */
  readonly constant: readonly (string | undefined)[];
  /** The keys whose values are kept, in order. */
  readonly kept: readonly string[];
  /** The constant keys and their values. */
  readonly constKeys: readonly string[];
  readonly constValues: readonly string[];
  /** Where its `frame` is among its values (-1: none). */
  readonly frameAt: number;
}

function shape(keys: readonly string[], constants: Record<string, string>): Shape {
  const own = keys.slice(0, -2);
  const kept = own.filter((k) => !(k in constants));
  return { keys, constant: own.map((k) => constants[k]), kept, constKeys: Object.keys(constants), constValues: Object.values(constants), frameAt: kept.indexOf('frame') };
}

const CALL = { kind: 'call', op: 'request' };
const SHAPES: readonly Shape[] = [
  shape(['kind', 'frame', 'seq', 't'], { kind: 'in' }),
  shape(['kind', 'frame', 'seq', 't'], { kind: 'out' }),
  shape(['kind', 'rq', 'frame', 'seq', 't'], { kind: 'in' }),
  shape(['kind', 'rq', 'frame', 'seq', 't'], { kind: 'out' }),
  shape(['kind', 'rq', 'state', 'seq', 't'], { kind: 'state' }),
  shape(['kind', 'call', 'result', 'seq', 't'], { kind: 'result' }),
  shape(['kind', 'op', 'id', 'method', 'params', 'seq', 't'], CALL),
  shape(['kind', 'op', 'id', 'method', 'seq', 't'], CALL),
  shape(['kind', 'op', 'id', 'method', 'params', 'options', 'seq', 't'], CALL),
];
/** `kind`, `rq`, `frame` (in, out) and `kind`, `rq`, `state`: the entries of a server's request journal. */
const RQ_IN = 2;
const RQ_OUT = 3;
const STATE = 4;
/** The shapes to try for each kind (most frequent first). */
const BY_KIND: Readonly<Record<string, readonly number[]>> = { in: [0, 2], out: [1, 3], state: [STATE], result: [5], call: [6, 7, 8] };
/** Kept as the entry object. */
const OBJECT = 255;
const INITIAL = 64;

/**
 * The shape `entry` has among {@link SHAPES}, or {@link OBJECT}: its own keys compared in order
 * (`stamped`: with `seq` and `t` last; otherwise without them), its constants compared by value.
 */
function shapeOf(entry: JournalEntry | JournalEntryInput, stamped: boolean): number {
  const candidates = BY_KIND[entry.kind];
  if (candidates === undefined) return OBJECT;
  const fields = entry as unknown as Record<string, unknown>;
  next: for (const s of candidates) {
    const { keys, constKeys, constValues } = SHAPES[s]!;
    const length = stamped ? keys.length : keys.length - 2;
    let i = 0;
    for (const k in entry) if (i >= length || keys[i++] !== k) continue next;
    if (i !== length) continue;
    for (let c = 0; c < constKeys.length; c++) if (fields[constKeys[c]!] !== constValues[c]) continue next;
    return s;
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
  /** The values of the fields other than the constants and the stamp, entry after entry (or the entry itself). */
  private values: unknown[] = [];

  get size(): number {
    return this.count;
  }

  /** Keep `entry`, stamped (its `seq` and `t` its last keys when it is of a known shape). */
  push(entry: JournalEntry): void {
    const s = typeof entry.seq === 'number' && typeof entry.t === 'number' ? shapeOf(entry, true) : OBJECT;
    this.add(s, entry, entry.seq, entry.t);
  }

  /**
   * Keep `entry` as stamped with `seq` and `t`, without stamping it: what {@link push} of the
   * stamped entry keeps. An entry of a known shape is not kept (nor changed); one of another
   * shape is stamped and kept.
   */
  keep(entry: JournalEntryInput, seq: number, t: number): void {
    const s = shapeOf(entry, false);
    if (s === OBJECT) {
      const stamped = entry as JournalEntry;
      stamped.seq = seq;
      stamped.t = t;
    }
    this.add(s, entry, seq, t);
  }

  private add(s: number, entry: JournalEntry | JournalEntryInput, seq: number, t: number): void {
    if (this.count === this.shapes.length) this.grow();
    const n = this.count++;
    this.shapes[n] = s;
    this.starts[n] = this.values.length;
    if (s === OBJECT) {
      this.values.push(entry);
      return;
    }
    this.seqs[n] = seq;
    this.times[n] = t;
    const kept = SHAPES[s]!.kept;
    const fields = entry as unknown as Record<string, unknown>;
    for (let i = 0; i < kept.length; i++) this.values.push(fields[kept[i]!]);
  }

  /**
   * Keep an entry of shape `in`/`out` with `rq` (`kind`, `rq`, `frame`) or `state` (`kind`, `rq`,
   * `state`) from its values, with no entry object made (the caller knows its shape: nobody
   * watches the entries as objects).
   */
  pushRequestEntry(kind: 'in' | 'out' | 'state', rq: number, value: unknown, seq: number, t: number): void {
    if (this.count === this.shapes.length) this.grow();
    const n = this.count++;
    this.shapes[n] = kind === 'state' ? STATE : kind === 'in' ? RQ_IN : RQ_OUT;
    this.starts[n] = this.values.length;
    this.seqs[n] = seq;
    this.times[n] = t;
    this.values.push(rq, value);
  }

  /** Entry `n` (0 ≤ n < size): the object kept, or one made with the same keys in the same order. */
  at(n: number): JournalEntry {
    const s = this.shapes[n]!;
    let v = this.starts[n]!;
    if (s === OBJECT) return this.values[v] as JournalEntry;
    const { keys, constant } = SHAPES[s]!;
    const entry: Record<string, unknown> = {};
    for (let i = 0; i < constant.length; i++) entry[keys[i]!] = constant[i] ?? this.values[v++];
    entry.seq = this.seqs[n];
    entry.t = this.times[n];
    return entry as unknown as JournalEntry;
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
