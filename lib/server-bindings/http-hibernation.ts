/**
 * Hibernation of idle legacy Streamable HTTP sessions (so that 100,000 idle sessions fit in
 * one process under 512 MB RSS). A session with nothing in flight (no request served or sent, no open
 * stream, no timer but its idle expiry) for `hibernateAfterMs` is reduced to a
 * {@link HibernatedSession}: its `HttpSession` transport, the session's two subscriptions to it
 * and the machine snapshot's own parts are dropped; the `ServerSession` stays (the object
 * `sessions$` gave, what features key their per-session state on: log level, subscriptions), in
 * `operating`, with the record as its transport. The next request for its id revives it (a new
 * `HttpSession` for the same id, tag and stream counters) before a byte of that request is
 * read, so no frame is lost and the session never looks closed.
 *
 * While hibernated, what the session sends follows the rule of a session with no open stream:
 * a notification is dropped unless the standalone stream keeps events for resumption (then the
 * session wakes to keep it); a request to the client throws, as it would. Expiry runs on the
 * record, at the time the session's idle timer would have fired.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
import { NEVER, Observable } from 'rxjs';
import type { Clock } from '../clock.js';
import { TransportError } from '../errors.js';
import type { Frame } from '../jsonrpc/message.js';
import type { ServerSession } from '../server.js';
import type { SendOptions, Transport, TransportPeer, TransportState } from '../../streams/transport.js';

/** The name of the timer that hibernates sessions gone quiet. */
export const HIBERNATE_TIMER_NAME = 'http-session:hibernate';
/** The name of the timer that expires hibernated sessions (their idle timeout). */
export const HIBERNATED_EXPIRY_TIMER_NAME = 'http-session:hibernated-expiry';

/** What a hibernated session keeps of its transport to be rebuilt as it was. */
export interface HibernatedState {
  readonly id: string;
  readonly tag: string;
  readonly identity: string | undefined;
  authInfo: unknown;
  readonly serverSession: ServerSession;
  readonly remote: { readonly address?: string | undefined; readonly port?: number | undefined } | undefined;
  /** Last seq used on the standalone stream, and whether it was ever opened (its events are kept). */
  readonly getSeq: number;
  readonly getOpened: boolean;
  readonly nextStreamNo: number;
}

/** What hibernation needs of a live HTTP session (`HttpSession` has it all). */
export interface Hibernatable {
  readonly id: string;
  readonly lifecycle: 'idle' | 'busy' | 'terminated';
  /** Clock time it last went idle. */
  readonly quietSince: number;
  /** It waits in the hibernation queue. */
  hibernateQueued: boolean;
  /** Nothing in flight on the transport's side: no exchange, no standalone stream. */
  readonly quiet: boolean;
  readonly serverSession: ServerSession | undefined;
  /** The state to keep. */
  hibernationState(): HibernatedState | undefined;
  /** Leave the idle queue without ending (the record carries the deadline). */
  retire(): void;
  /** Its idle timer fired (the session ends). */
  idleTimeout(): void;
  send(frame: Frame, options?: SendOptions): void;
  close(): Promise<void>;
}

/** What hibernation needs of the handler's core. */
export interface HibernationCore<S extends Hibernatable> {
  readonly clock: Clock;
  readonly idleTtlMs: number;
  /** Events of the standalone stream are kept (an event store, a session id). */
  readonly resumable: boolean;
  /** Sessions by id; a hibernated one leaves it, a revived one comes back. */
  readonly sessions: Map<string, S>;
  /** Any session's keep-alive would need a timer. */
  readonly keepsAlive: boolean;
  /** A live session rebuilt from its record (put into `sessions`, its ServerSession revived on it). */
  revived(state: HibernatedState): S;
}

const OPEN: Observable<TransportState> = new Observable((subscriber) => subscriber.next({ phase: 'open' }));

/**
 * A hibernated session: its record, held in the handler's map, and the transport its
 * ServerSession has meanwhile (see the file's comment for what sending does).
 * @internal
 */
export class HibernatedSession implements Transport, HibernatedState {
  constructor(
    private readonly owner: Hibernation<Hibernatable>,
    readonly id: string,
    readonly tag: string,
    readonly identity: string | undefined,
    public authInfo: unknown,
    readonly serverSession: ServerSession,
    readonly remote: HibernatedState['remote'],
    readonly getSeq: number,
    readonly getOpened: boolean,
    readonly nextStreamNo: number,
    /** When it expires (clock time; Infinity: never). */
    readonly due: number,
  ) {}

  get inbound$(): Observable<never> {
    return NEVER;
  }

  get state$(): Observable<TransportState> {
    return OPEN;
  }

  get peerFacts(): TransportPeer {
    return { sessionId: this.id, transport: 'tcp', protocolName: 'http', address: this.remote?.address, port: this.remote?.port };
  }

  /** The negotiated revision. */
  get revision(): string | undefined {
    return this.serverSession.protocolVersion;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(frame: Frame, options?: SendOptions): void {
    // A response: its POST is gone, as for a live session.
    if (Array.isArray(frame) || !('method' in frame)) return;
    const isRequest = 'id' in frame && frame.id !== undefined;
    if (!(this.getOpened && this.owner.core.resumable)) {
      // No stream to carry it and none keeping it: what a live session without a GET stream does.
      if (isRequest) throw new TransportError('Cannot send a request to the client: it has no open GET stream');
      return;
    }
    // The standalone stream keeps its events for resumption: the session wakes to keep this one.
    this.owner.wake(this).send(frame, options);
  }

  close(): Promise<void> {
    // The ServerSession closes: its transport ends as a live one would (the session's machine hears it).
    return this.owner.wake(this).close();
  }
}

/**
 * Deadlines that come in the order they are pushed (one TTL, times that only grow), as one clock
 * timer for the earliest. An entry is not removed when it stops mattering: `onDue` checks it.
 */
class DeadlineQueue<T> {
  private items: (T | undefined)[] = [];
  private dues: number[] = [];
  private head = 0;
  private timer: unknown;

  constructor(
    private readonly clock: Clock,
    private readonly name: string,
    private readonly onDue: (item: T) => void,
  ) {}

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T, due: number): void {
    this.items.push(item);
    this.dues.push(due);
    if (this.timer === undefined) this.arm();
  }

  private arm(): void {
    if (this.head >= this.items.length) {
      this.items = [];
      this.dues = [];
      this.head = 0;
      return;
    }
    this.timer = this.clock.setTimeout(() => this.fire(), Math.max(0, this.dues[this.head]! - this.clock.now()), this.name);
  }

  private fire(): void {
    this.timer = undefined;
    const now = this.clock.now();
    // The head is due even when fired early (a simulated clock's fireNamed).
    let first = true;
    while (this.head < this.items.length && (first || this.dues[this.head]! <= now)) {
      first = false;
      const item = this.items[this.head]!;
      this.items[this.head] = undefined;
      this.head++;
      this.onDue(item);
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.dues = this.dues.slice(this.head);
      this.head = 0;
    }
    if (this.timer === undefined) this.arm();
  }

  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.items = [];
    this.dues = [];
    this.head = 0;
  }
}

/**
 * Equal values shared: the capabilities, client info and revision lists that thousands of
 * sessions hold alike are kept once. Bounded: past `max` distinct values a value stays its own.
 */
class Interner {
  private readonly byJson = new Map<string, object>();
  /** Values already looked at: shared ones and those kept as their own (each is serialized once). */
  private readonly seen = new WeakSet<object>();

  constructor(private readonly max = 1024) {}

  share = <T>(value: T): T => {
    if (value === null || typeof value !== 'object' || this.seen.has(value)) return value;
    this.seen.add(value);
    let key: string;
    try {
      key = JSON.stringify(value);
    } catch {
      return value;
    }
    // A client's oversized info stays its own: the table holds only small, common values.
    if (key.length > 8192) return value;
    const known = this.byJson.get(key);
    if (known !== undefined) return known as T;
    if (this.byJson.size < this.max) this.byJson.set(key, value);
    return value;
  };
}

/**
 * The hibernated sessions of one HTTP handler, and the queues that put sessions to sleep and
 * expire the sleeping ones.
 * @internal
 */
export class Hibernation<S extends Hibernatable> {
  /** Hibernated sessions by id. */
  readonly records = new Map<string, HibernatedSession>();
  private readonly quiet: DeadlineQueue<S>;
  private readonly expiry: DeadlineQueue<HibernatedSession>;
  private readonly interner = new Interner();

  constructor(
    readonly core: HibernationCore<S>,
    /** Quiet this long (ms), a session hibernates. */
    readonly afterMs: number,
  ) {
    this.quiet = new DeadlineQueue(core.clock, HIBERNATE_TIMER_NAME, (s) => this.due(s));
    this.expiry = new DeadlineQueue(core.clock, HIBERNATED_EXPIRY_TIMER_NAME, (r) => this.expire(r));
  }

  /** `session` went idle (at its `quietSince`): it hibernates `afterMs` later if it stays so. */
  wentQuiet(session: S): void {
    if (session.hibernateQueued) return;
    session.hibernateQueued = true;
    this.quiet.push(session, session.quietSince + this.afterMs);
  }

  private due(session: S): void {
    session.hibernateQueued = false;
    if (session.lifecycle !== 'idle' || this.core.sessions.get(session.id) !== session) return;
    const at = session.quietSince + this.afterMs;
    // Busy and quiet again since it was queued: its time starts over.
    if (at > this.core.clock.now()) {
      session.hibernateQueued = true;
      this.quiet.push(session, at);
      return;
    }
    this.hibernate(session);
  }

  /** Whether `session` has nothing in flight but its idle timer. */
  hibernatable(session: S): boolean {
    if (session.lifecycle !== 'idle' || !session.quiet || this.core.keepsAlive) return false;
    const s = session.serverSession;
    return (
      s !== undefined &&
      s.currentPhase === 'operating' &&
      // An inspected session is an actor its inspector watches; it stays as it is.
      s.inspectActor === undefined &&
      s.incoming.size === 0 &&
      s.pendingRequests === 0
    );
  }

  /** Hibernate `session` now if it can be; returns whether it did. */
  hibernate(session: S): boolean {
    if (!this.hibernatable(session)) return false;
    const state = session.hibernationState();
    if (state === undefined) return false;
    const ttl = this.core.idleTtlMs;
    const record = new HibernatedSession(
      this as unknown as Hibernation<Hibernatable>,
      state.id,
      state.tag,
      state.identity,
      state.authInfo,
      state.serverSession,
      state.remote,
      state.getSeq,
      state.getOpened,
      state.nextStreamNo,
      Number.isFinite(ttl) ? session.quietSince + ttl : Infinity,
    );
    session.retire();
    this.core.sessions.delete(state.id);
    this.records.set(state.id, record);
    state.serverSession.hibernate(record, this.interner.share);
    if (Number.isFinite(record.due)) this.expiry.push(record, record.due);
    return true;
  }

  /** The live session for a hibernated one, rebuilt (its ServerSession revived on it). */
  wake(record: HibernatedSession): S {
    if (this.records.get(record.id) === record) this.records.delete(record.id);
    return this.core.revived(record);
  }

  private expire(record: HibernatedSession): void {
    if (this.records.get(record.id) !== record) return; // revived meanwhile
    const session = this.wake(record);
    // Its idle timer, run late by the time it slept: the session ends as an idle one does.
    session.idleTimeout();
  }

  /** Every hibernated session, revived (the handler is closing and ends them all). */
  wakeAll(): void {
    for (const record of [...this.records.values()]) this.wake(record);
  }

  stop(): void {
    this.quiet.stop();
    this.expiry.stop();
  }
}
