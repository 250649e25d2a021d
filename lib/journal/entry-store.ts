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
const IN: readonly number[] = [0, RQ_IN];
const OUT: readonly number[] = [1, RQ_OUT];
const STATES: readonly number[] = [STATE];
const RESULTS: readonly number[] = [5];
const CALLS: readonly number[] = [6, 7, 8];
const NONE: readonly number[] = [];
function candidatesOf(kind: unknown): readonly number[] {
  switch (kind) {
    case 'in':
      return IN;
    case 'out':
      return OUT;
    case 'state':
      return STATES;
    case 'result':
      return RESULTS;
    case 'call':
      return CALLS;
    default:
      return NONE;
  }
}
/** Kept as the entry object. */
const OBJECT = 255;
/** Entries per chunk (a power of two); the first chunk starts at {@link FIRST} and doubles to it, so a small journal stays small. */
const CHUNK = 1024;
const CHUNK_BITS = 10;
const FIRST = 64;
/** Numbers per entry in a chunk: `seq`, `t`, and its shape with a request journal's `rq` ({@link RQ_LIMIT} × rq + shape). */
const STRIDE = 3;
/** Past the shapes (an `rq` times this, plus the shape, is exact for every `rq` below 2^44). */
const RQ_LIMIT = 256;
const MAX_RQ = 2 ** 44;

/** An `rq` kept as a number with the shape: a whole number from 0 below 2^44 (a request journal's count from 1). */
const isRq = (rq: unknown): rq is number => typeof rq === 'number' && Number.isInteger(rq) && rq >= 0 && rq < MAX_RQ;

/** How many values an entry of shape `s` keeps. */
const valueCount = (s: number): number => (s === OBJECT ? 1 : SHAPES[s]!.kept.length);

/**
 * The shape `entry` has among {@link SHAPES}, or {@link OBJECT}: its own keys compared in order
 * (`stamped`: with `seq` and `t` last; otherwise without them), its constants compared by value,
 * its `rq` a number.
 */
function shapeOf(entry: JournalEntry | JournalEntryInput, stamped: boolean): number {
  const candidates = candidatesOf(entry.kind);
  const fields = entry as unknown as Record<string, unknown>;
  next: for (let c = 0; c < candidates.length; c++) {
    const s = candidates[c]!;
    const shape = SHAPES[s]!;
    const keys = shape.keys;
    const length = stamped ? keys.length : keys.length - 2;
    let i = 0;
    for (const k in entry) if (i >= length || keys[i++] !== k) continue next;
    if (i !== length) continue;
    const { constKeys, constValues } = shape;
    for (let k = 0; k < constKeys.length; k++) if (fields[constKeys[k]!] !== constValues[k]) continue next;
    if (shape.rq && !isRq(fields.rq)) continue;
    return s;
  }
  return OBJECT;
}

/**
 * Up to {@link CHUNK} entries: per entry its numbers ({@link STRIDE}), in one typed array (one
 * allocation per chunk: a typed array's store lives outside the heap and costs microseconds to
 * make), and its values one after another.
 */
class Chunk {
  readonly numbers: Float64Array;
  /** The values of the fields kept as values, entry after entry (or the entry itself). */
  readonly values: unknown[];
  valueCount: number;

  constructor(capacity: number, from?: Chunk) {
    this.numbers = new Float64Array(capacity * STRIDE);
    if (from === undefined) {
      this.values = [];
      this.valueCount = 0;
    } else {
      this.numbers.set(from.numbers);
      this.values = from.values;
      this.valueCount = from.valueCount;
    }
  }

  get capacity(): number {
    return this.numbers.length / STRIDE;
  }
}

/** Entries in order, each as its values (a known shape) or as it is (see the file comment). */
export class EntryStore {
  private count = 0;
  private chunks: Chunk[] = [];
  /** The last chunk (undefined: none yet). */
  private current: Chunk | undefined = undefined;
  /** The entry {@link at} gave last and where its values start: the next one's start follows (entries are read in order). */
  private readAt = -1;
  private readStart = 0;

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
      if ((this.count & (CHUNK - 1)) < current.capacity) return current;
      // The first chunk, full below CHUNK: twice the room (its values array is kept as it is).
      const grown = new Chunk(current.capacity * 2, current);
      this.chunks[this.chunks.length - 1] = grown;
      return (this.current = grown);
    }
    const chunk = new Chunk(this.count === 0 ? FIRST : CHUNK);
    this.chunks.push(chunk);
    return (this.current = chunk);
  }

  /** Keep entry values by shape: the fields of {@link SHAPES}' `kept`, in order, read by name (one switch, no keyed reads). */
  private add(s: number, entry: JournalEntry | JournalEntryInput, seq: number, t: number): void {
    const chunk = this.slot();
    const i = (this.count++ & (CHUNK - 1)) * STRIDE;
    const numbers = chunk.numbers;
    numbers[i] = seq;
    numbers[i + 1] = t;
    numbers[i + 2] = s;
    const values = chunk.values;
    let v = chunk.valueCount;
    const e = entry as unknown as Record<string, unknown>;
    switch (s) {
      case 0:
      case 1:
        values[v++] = e.frame;
        break;
      case RQ_IN:
      case RQ_OUT:
        numbers[i + 2] = (e.rq as number) * RQ_LIMIT + s;
        values[v++] = e.frame;
        break;
      case STATE:
        numbers[i + 2] = (e.rq as number) * RQ_LIMIT + s;
        values[v++] = e.state;
        break;
      case 5:
        values[v++] = e.call;
        values[v++] = e.result;
        break;
      case 6:
        values[v++] = e.id;
        values[v++] = e.method;
        values[v++] = e.params;
        break;
      case 7:
        values[v++] = e.id;
        values[v++] = e.method;
        break;
      case 8:
        values[v++] = e.id;
        values[v++] = e.method;
        values[v++] = e.params;
        values[v++] = e.options;
        break;
      default:
        values[v++] = entry;
    }
    chunk.valueCount = v;
  }

  /**
   * Keep an entry of shape `in`/`out` with `rq` (`kind`, `rq`, `frame`) or `state` (`kind`, `rq`,
   * `state`) from its values, with no entry object made (the caller knows its shape: nobody
   * watches the entries as objects).
   */
  pushRequestEntry(kind: 'in' | 'out' | 'state', rq: number, value: unknown, seq: number, t: number): void {
    const chunk = this.slot();
    const i = (this.count++ & (CHUNK - 1)) * STRIDE;
    const numbers = chunk.numbers;
    numbers[i] = seq;
    numbers[i + 1] = t;
    const s = kind === 'state' ? STATE : kind === 'in' ? RQ_IN : RQ_OUT;
    // An rq out of reach of the packing (never, counting from 1) is kept as its entry object.
    if (isRq(rq)) {
      numbers[i + 2] = rq * RQ_LIMIT + s;
      chunk.values[chunk.valueCount++] = value;
    } else {
      numbers[i + 2] = OBJECT;
      chunk.values[chunk.valueCount++] = kind === 'state' ? { kind, rq, state: value, seq, t } : { kind, rq, frame: value, seq, t };
    }
  }

  /** Entry `n` (0 ≤ n < size): the object kept, or one made with the same keys in the same order. */
  at(n: number): JournalEntry {
    const chunk = this.chunks[n >> CHUNK_BITS]!;
    const numbers = chunk.numbers;
    const slot = n & (CHUNK - 1);
    let v = 0;
    if (slot !== 0 && n === this.readAt + 1) v = this.readStart + valueCount(numbers[(slot - 1) * STRIDE + 2]! % RQ_LIMIT);
    else for (let j = 0; j < slot; j++) v += valueCount(numbers[j * STRIDE + 2]! % RQ_LIMIT);
    this.readAt = n;
    this.readStart = v;
    const i = slot * STRIDE;
    const s = numbers[i + 2]! % RQ_LIMIT;
    if (s === OBJECT) return chunk.values[v] as JournalEntry;
    const { keys, constant } = SHAPES[s]!;
    const entry: Record<string, unknown> = {};
    for (let k = 0; k < constant.length; k++) {
      const key = keys[k]!;
      entry[key] = constant[k] ?? (key === 'rq' ? (numbers[i + 2]! - s) / RQ_LIMIT : chunk.values[v++]);
    }
    entry.seq = numbers[i];
    entry.t = numbers[i + 1];
    return entry as unknown as JournalEntry;
  }

  clear(): void {
    this.count = 0;
    this.chunks = [];
    this.current = undefined;
    this.readAt = -1;
  }
}
