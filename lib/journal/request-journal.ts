/**
 * A server's journal of the 2026-07-28 requests it serves, on every transport (stdio, HTTP, the
 * fetch handler): each request as received (envelope and all), the notifications sent on its
 * stream, its answer (an `input_required` result too), the client going away, and its machine's
 * final state, stamped with the server's clock. The request-scoped core calls {@link RequestJournal.begin}
 * at a request's entry and the returned tap's `end` at its exit; that is all it knows of journals.
 *
 * A sealed `requestState` is never opened and never kept: each one the server sends is recorded
 * as a placeholder (`<requestState #1>`, ...), and a retry carrying it is recorded with the same
 * placeholder. Replay maps the placeholders to what the replaying server seals (a fresh nonce each
 * time); task ids, random too, are mapped alike (see `opaque.ts`).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { Channel } from '../session/channel.js';
import type { Clock } from '../clock.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc/message.js';
import type { JournalEntry, JournalEntryInput, StateEntry, Unstamped } from './entry.js';
import { Journal } from './journal.js';
import { OpaqueValues } from './opaque.js';

/** What a transport hands the core for one request, as far as the journal taps it (the core's `RequestIo`). */
export interface TappableIo {
  notify(frame: JsonRpcNotification): void;
  /** A timer fired for the request (its progress flush); the tapped io records it, a transport's has none. */
  timerFired?(name: string): void;
  authInfo?: unknown;
  peerFacts?: unknown;
  readonly signal?: AbortSignal | undefined;
  readonly cancellation?: TappableCancellation | undefined;
}

/** The client going away, without a signal (the core's `RequestCancellation`). */
export interface TappableCancellation {
  readonly aborted: boolean;
  readonly reason: unknown;
  onAbort(end: () => void): () => void;
  /** Where given: `request.clientGone()` once the client goes away, unless it was answered first (no closure per request). */
  watchRequest?(request: ClientGoneWatcher): void;
}

/** What {@link TappableCancellation.watchRequest} ends when the client goes away. */
export interface ClientGoneWatcher {
  clientGone(): void;
}

/** The interceptor stages a request went through, in order, and the one that short-circuited it. */
export interface StagePath {
  readonly interceptors?: readonly string[] | undefined;
  readonly shortCircuitBy?: string | undefined;
}

/** One journaled request: serve it with `io`, call `end` with its answer once it has one. */
export interface RequestTap<Io extends TappableIo> {
  readonly io: Io;
  /**
   * The answer (undefined: none sent, a listen stream that ended or a cancelled request), the
   * request machine's state and the interceptor stages it met (undefined: none ran).
   */
  end(response: JsonRpcResponse | undefined, state: string, path?: StagePath): void;
}

/** What the server tells its request journal of itself. */
export interface RequestJournalOptions {
  clock: Clock;
  /** `journal` of the server's options: keep the entries (`server.journal`), with or without redaction. */
  journal?: boolean | { redact?: boolean } | undefined;
  info: { name: string; version: string; [key: string]: unknown };
  /** The capabilities declared when the first request comes (features register after construction). */
  capabilities: () => Record<string, unknown>;
}

export const MODERN_REVISION = '2026-07-28';

/**
 * The timers whose firings this journal records (by name prefix, the header's `timers`): a
 * request's progress flush (`progress:<id>`, `ProgressCoalescer`), the one timer a request's
 * own code sets on the server's clock. Replay fires these only at their entries.
 */
export const JOURNALED_TIMERS: readonly string[] = ['progress:'];

/** The io of a refused request: it sends nothing but its answer. */
const NO_IO: TappableIo = { notify: () => {} };

/**
 * The journal of a server's 2026-07-28 requests (see the file comment). `journal` holds them when
 * the server's `journal` option is on; `journal$` shows each entry as it is recorded, whether
 * or not they are kept. Without either, `begin` returns undefined and costs nothing more.
 */
export class RequestJournal {
  readonly journal: Journal | undefined;
  private readonly channel = new Channel<JournalEntry>();
  private seq = 0;
  private requests = 0;
  private readonly opaque = new OpaqueValues();

  constructor(private readonly options: RequestJournalOptions) {
    const j = options.journal;
    if (j) {
      this.journal = new Journal({ redact: j === true || j.redact !== false });
      this.journal.role = 'server';
      this.journal.era = 'modern';
      this.journal.revision = MODERN_REVISION;
      this.journal.startedAt = options.clock.now();
      this.journal.timers = [...JOURNALED_TIMERS];
    }
  }

  /** @internal Replay: the sealed state a placeholder of this server's journal stands for (held in memory only). */
  tokenOf(placeholder: string): string | undefined {
    return this.opaque.tokenOf(placeholder);
  }

  /** Every entry as it is recorded. */
  get journal$(): ReturnType<Channel<JournalEntry>['asObservable']> {
    return this.channel.asObservable();
  }

  /** A request arrived: record it and tap its io, or undefined when nobody keeps or watches the journal. */
  begin<Io extends TappableIo>(msg: JsonRpcRequest, io: Io): RequestTap<Io> | undefined {
    if (this.journal === undefined && !this.channel.observed) return undefined;
    if (this.journal !== undefined && this.journal.session === undefined) {
      this.journal.session = { info: this.options.info, capabilities: this.options.capabilities(), supportedVersions: [MODERN_REVISION] };
    }
    const rq = ++this.requests;
    this.recordOf('in', rq, this.opaque.inbound(msg), this.options.clock.now());
    // One object is the tap and the io it serves with: closures per request were most of a journaled request's cost.
    return new JournaledRequest<Io>(this, rq, io);
  }

  /**
   * A request refused before dispatch (its envelope: a malformed `_meta`, a revision this server
   * does not speak): recorded as received, with its answer and the `failed` state (a replay
   * refuses it again, on the core's same check).
   */
  refused(msg: JsonRpcRequest, response: JsonRpcResponse): void {
    this.begin(msg, NO_IO)?.end(response, 'failed');
  }

  /** @internal The server's clock, read once for entries of one moment. */
  now(): number {
    return this.options.clock.now();
  }

  /** @internal The answer as recorded (a sealed state replaced by its placeholder). */
  outbound(response: JsonRpcResponse): JsonRpcResponse {
    return this.opaque.outbound(response);
  }

  /** @internal Stamp and keep an entry (at `t`, default now), and show it on `journal$`. */
  record(entry: JournalEntryInput, t: number = this.options.clock.now()): void {
    const stamped = entry as JournalEntry;
    stamped.seq = this.seq++;
    stamped.t = t;
    this.journal?.push(stamped);
    this.channel.next(stamped);
  }

  /**
   * @internal A request's `in`/`out` frame or its `state`, at `t`: kept from its values when
   * nobody watches `journal$` (no entry object per frame: the journal's budget is 1 µs an entry).
   */
  recordOf(kind: 'in' | 'out' | 'state', rq: number, value: unknown, t: number): void {
    if (this.channel.observed) this.record((kind === 'state' ? { kind, rq, state: value } : { kind, rq, frame: value }) as JournalEntryInput, t);
    else this.journal?.keepRequestEntry(kind, rq, value, this.seq++, t);
  }
}

/**
 * One journaled request: its tap (`end`) and the io it is served with, the transport's with its
 * notifications, timers and cancellation recorded. Its `signal` is read from the transport's only
 * when read (a session makes it lazily), except to watch it when there is no `cancellation`.
 * Where the transport's cancellation watches without closures (`watchRequest`, a session's), this
 * object is the tapped cancellation too, and the watcher the transport calls: a cancellation
 * object and two closures per request were most of what a journaled request made that dies young.
 */
class JournaledRequest<Io extends TappableIo> implements TappableIo, RequestTap<Io>, TappableCancellation, ClientGoneWatcher {
  readonly cancellation: TappableCancellation | undefined;
  private ended = false;
  private cancelled = false;
  /** What the core watches with, through {@link watchRequest}. */
  private watcher: ClientGoneWatcher | undefined = undefined;

  constructor(
    private readonly journal: RequestJournal,
    private readonly rq: number,
    private readonly given: TappableIo,
  ) {
    const c = given.cancellation;
    if (c !== undefined) this.cancellation = c.watchRequest === undefined ? new TappedCancellation(this, c) : this;
    else {
      this.cancellation = undefined;
      const signal = given.signal;
      signal?.addEventListener('abort', () => this.cancel(signal.reason), { once: true });
    }
  }

  // (The core's io has no more than a TappableIo names: this stands for it.)
  get io(): Io {
    return this as unknown as Io;
  }
  get authInfo(): unknown {
    return this.given.authInfo;
  }
  get peerFacts(): unknown {
    return this.given.peerFacts;
  }
  get signal(): AbortSignal | undefined {
    return this.given.signal;
  }

  // As the tapped cancellation (only when the transport's has `watchRequest`).
  get aborted(): boolean {
    return this.given.cancellation!.aborted;
  }
  get reason(): unknown {
    return this.given.cancellation!.reason;
  }
  onAbort(end: () => void): () => void {
    const given = this.given.cancellation!;
    return given.onAbort(() => {
      this.cancel(given.reason);
      end();
    });
  }
  watchRequest(request: ClientGoneWatcher): void {
    this.watcher = request;
    this.given.cancellation!.watchRequest!(this);
  }
  /** The transport's cancellation: recorded before the core hears of it. */
  clientGone(): void {
    this.cancel(this.given.cancellation!.reason);
    const watcher = this.watcher;
    this.watcher = undefined;
    watcher?.clientGone();
  }

  notify(frame: JsonRpcNotification): void {
    this.journal.record({ kind: 'out', rq: this.rq, frame });
    this.given.notify(frame);
  }

  timerFired(name: string): void {
    this.journal.record({ kind: 'timer', rq: this.rq, name });
  }

  /** The client went away (recorded once, and not after the request ended). */
  cancel(reason: unknown): void {
    if (this.cancelled || this.ended) return;
    this.cancelled = true;
    this.journal.record(reason === undefined ? { kind: 'cancel', rq: this.rq } : { kind: 'cancel', rq: this.rq, reason: String(reason) });
  }

  end(response: JsonRpcResponse | undefined, state: string, path?: StagePath): void {
    if (this.ended) return;
    // The client went away though nothing watched for it (the core checks only at its exit).
    const gone = this.given.cancellation ?? this.given.signal;
    if (gone?.aborted === true) this.cancel(gone.reason);
    this.ended = true;
    this.watcher = undefined;
    // The answer and the final state are one moment: one clock read.
    const t = this.journal.now();
    if (response !== undefined && !this.cancelled) this.journal.recordOf('out', this.rq, this.journal.outbound(response), t);
    const stages = path?.interceptors !== undefined && path.interceptors.length > 0;
    if (!stages && path?.shortCircuitBy === undefined) {
      this.journal.recordOf('state', this.rq, state, t);
      return;
    }
    const entry: Unstamped<StateEntry> = { kind: 'state', rq: this.rq, state };
    if (stages) entry.stages = [...path!.interceptors!];
    if (path?.shortCircuitBy !== undefined) entry.shortCircuitBy = path.shortCircuitBy;
    this.journal.record(entry, t);
  }
}

/** A transport's cancellation without `watchRequest` (see {@link JournaledRequest}), the client's going away recorded before the core hears of it. */
class TappedCancellation implements TappableCancellation {
  constructor(
    private readonly tap: JournaledRequest<TappableIo>,
    private readonly given: TappableCancellation,
  ) {}
  get aborted(): boolean {
    return this.given.aborted;
  }
  get reason(): unknown {
    return this.given.reason;
  }
  onAbort(end: () => void): () => void {
    return this.given.onAbort(() => {
      this.tap.cancel(this.given.reason);
      end();
    });
  }
}
