/**
 * Journal entries kept in memory without their entry objects, so that a journal kept in memory
 * costs little more to collect than its frames. An entry of a shape the runtime records on every
 * call (`in`/`out` with its frame, a modern `state`, `result` or `call`) is kept as the values
 * of its fields (not those its shape fixes: `kind`, a call's `op`), and its stamp (`seq`, `t`)
 * and a request journal's `rq` as numbers in typed arrays; a recorder whose entries nobody
 * watches gives them unstamped ({@link EntryStore.keep}); the entry object itself, its property
 * store and its boxed time die young, and only what its fields point to (the frame, shared with
 * the rest of the runtime) stays. An entry of any other shape (or with another key, or keys in
 * another order) is kept as it is. {@link EntryStore.at} gives an entry back with the same keys
 * in the same order, so its JSON text is what it would have been.
 *
 * Kept in chunks of {@link CHUNK} entries, not in arrays that double: one array of every entry's
 * values grew into a large object the collector copied at each doubling and marked whole at each
 * full collection, with a remembered slot for each young frame written into it (measured: about
 * 0.15 µs an entry of 200,000 fresh frames kept). A chunk's values array is young with its frames.
 */
import type { JournalEntry, JournalEntryInput } from './entry.js';

/**
 * A shape kept as values: the entry's own keys in order (the stamp, `seq` and `t`, last), and
 * which of them are the same in every entry of the shape (`kind`, a call's `op`): those are not
 * kept per entry, only the others' values are (fewer slots for the collector to scan and fill).
 * A request journal's `rq` (a number) is kept with the stamp, not among the values.
 */
interface Shape {
  readonly keys: readonly string[];
  /** Per key but the stamp: its value in every entry of the shape, or undefined (kept per entry). */
  readonly constant: readonly (string | undefined)[];
  /** The constant keys and their values. */
  readonly constKeys: readonly string[];
  readonly constValues: readonly string[];
  /** The keys whose values are kept as values, in order (not `rq`). */
  readonly kept: readonly string[];
  /** Whether it has `rq` (a number, kept with the stamp). */
  readonly rq: boolean;
}

function shape(keys: readonly string[], constants: Record<string, string>): Shape {
  const own = keys.slice(0, -2);
  const kept = own.filter((k) => !(k in constants) && k !== 'rq');
  return { keys, constant: own.map((k) => constants[k]), constKeys: Object.keys(constants), constValues: Object.values(constants), kept, rq: own.includes('rq') };
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
/** Entries per chunk (a power of two); the first chunk starts at {@link FIRST} and doubles to it, so a small journal stays small. */
const CHUNK = 1024;
const CHUNK_BITS = 10;
const FIRST = 64;
/** Numbers per entry in a chunk's `numbers`: `seq`, `t`, `rq`. */
const NUMBERS = 3;

/**
 * The shape `entry` has among {@link SHAPES}, or {@link OBJECT}: its own keys compared in order
 * (`stamped`: with `seq` and `t` last; otherwise without them), its constants compared by value,
 * its `rq` a number.
 */
function shapeOf(entry: JournalEntry | JournalEntryInput, stamped: boolean): number {
  const candidates = BY_KIND[entry.kind];
  if (candidates === undefined) return OBJECT;
  const fields = entry as unknown as Record<string, unknown>;
  next: for (const s of candidates) {
    const { keys, constKeys, constValues, rq } = SHAPES[s]!;
    const length = stamped ? keys.length : keys.length - 2;
    let i = 0;
    for (const k in entry) if (i >= length || keys[i++] !== k) continue next;
    if (i !== length) continue;
    for (let c = 0; c < constKeys.length; c++) if (fields[constKeys[c]!] !== constValues[c]) continue next;
    if (rq && typeof fields.rq !== 'number') continue;
    return s;
  }
  return OBJECT;
}

/** Up to {@link CHUNK} entries: per entry its shape, numbers and where its values start. */
class Chunk {
  readonly shapes: Uint8Array;
  readonly numbers: Float64Array;
  readonly starts: Int32Array;
  /** The values of the fields kept as values, entry after entry (or the entry itself). */
  readonly values: unknown[];
  valueCount: number;

  constructor(capacity: number, from?: Chunk) {
    this.shapes = new Uint8Array(capacity);
    this.numbers = new Float64Array(capacity * NUMBERS);
    this.starts = new Int32Array(capacity);
    if (from === undefined) {
      this.values = [];
      this.valueCount = 0;
    } else {
      this.shapes.set(from.shapes);
      this.numbers.set(from.numbers);
      this.starts.set(from.starts);
      this.values = from.values;
      this.valueCount = from.valueCount;
    }
  }
}

/** Entries in order, each as its values (a known shape) or as it is (see the file comment). */
export class EntryStore {
  private count = 0;
  private chunks: Chunk[] = [];
  /** The last chunk (undefined: none yet). */
  private current: Chunk | undefined = undefined;

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

  /** The chunk the next entry goes to (its slot there: `count` modulo {@link CHUNK}). */
  private slot(): Chunk {
    const current = this.current;
    if (current !== undefined && this.count >> CHUNK_BITS === this.chunks.length - 1) {
      if ((this.count & (CHUNK - 1)) < current.shapes.length) return current;
      // The first chunk, full below CHUNK: twice the room (its values array is kept as it is).
      const grown = new Chunk(current.shapes.length * 2, current);
      this.chunks[this.chunks.length - 1] = grown;
      return (this.current = grown);
    }
    const chunk = new Chunk(this.count === 0 ? FIRST : CHUNK);
    this.chunks.push(chunk);
    return (this.current = chunk);
  }

  private add(s: number, entry: JournalEntry | JournalEntryInput, seq: number, t: number): void {
    const chunk = this.slot();
    const i = this.count++ & (CHUNK - 1);
    chunk.shapes[i] = s;
    chunk.starts[i] = chunk.valueCount;
    const values = chunk.values;
    if (s === OBJECT) {
      values[chunk.valueCount++] = entry;
      return;
    }
    const numbers = chunk.numbers;
    numbers[i * NUMBERS] = seq;
    numbers[i * NUMBERS + 1] = t;
    const { kept, rq } = SHAPES[s]!;
    const fields = entry as unknown as Record<string, unknown>;
    if (rq) numbers[i * NUMBERS + 2] = fields.rq as number;
    for (let k = 0; k < kept.length; k++) values[chunk.valueCount++] = fields[kept[k]!];
  }

  /**
   * Keep an entry of shape `in`/`out` with `rq` (`kind`, `rq`, `frame`) or `state` (`kind`, `rq`,
   * `state`) from its values, with no entry object made (the caller knows its shape: nobody
   * watches the entries as objects).
   */
  pushRequestEntry(kind: 'in' | 'out' | 'state', rq: number, value: unknown, seq: number, t: number): void {
    const chunk = this.slot();
    const i = this.count++ & (CHUNK - 1);
    chunk.shapes[i] = kind === 'state' ? STATE : kind === 'in' ? RQ_IN : RQ_OUT;
    chunk.starts[i] = chunk.valueCount;
    const numbers = chunk.numbers;
    numbers[i * NUMBERS] = seq;
    numbers[i * NUMBERS + 1] = t;
    numbers[i * NUMBERS + 2] = rq;
    chunk.values[chunk.valueCount++] = value;
  }

  /** Entry `n` (0 ≤ n < size): the object kept, or one made with the same keys in the same order. */
  at(n: number): JournalEntry {
    const chunk = this.chunks[n >> CHUNK_BITS]!;
    const i = n & (CHUNK - 1);
    const s = chunk.shapes[i]!;
    let v = chunk.starts[i]!;
    if (s === OBJECT) return chunk.values[v] as JournalEntry;
    const { keys, constant } = SHAPES[s]!;
    const numbers = chunk.numbers;
    const entry: Record<string, unknown> = {};
    for (let k = 0; k < constant.length; k++) {
      const key = keys[k]!;
      entry[key] = constant[k] ?? (key === 'rq' ? numbers[i * NUMBERS + 2] : chunk.values[v++]);
    }
    entry.seq = numbers[i * NUMBERS];
    entry.t = numbers[i * NUMBERS + 1];
    return entry as unknown as JournalEntry;
  }

  clear(): void {
    this.count = 0;
    this.chunks = [];
    this.current = undefined;
  }
}
