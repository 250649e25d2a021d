/**
 * An in-process transport pair, for tests and for running a client and a server in one process.
 * Also home of the two small building blocks every transport here shares: a hot inbound stream
 * that buffers until its first subscriber, and a replaying state cell.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#custom-transports
 */
import { Observable, type Subscriber } from 'rxjs';
import type { Frame } from '../lib/jsonrpc/message.js';
import { TransportError } from '../lib/errors.js';
import { encodeFrame } from '../lib/jsonrpc/codec.js';
import { GuardedObservable, warnObserverFault } from './guarded.js';
import type { RawFrame, Transport, TransportPhase, TransportState } from './transport.js';

const NONE: readonly never[] = Object.freeze([]);
/** Settled once: what a memory end schedules its delivery on (see `MemoryEnd.schedule`). */
const SETTLED: Promise<void> = Promise.resolve();

/**
 * `subscribers` with `added`, less those that unsubscribed. The streams register no teardown:
 * RxJS would give every subscription a finalizer array and a closure (~0.4 KB for each of an
 * idle HTTP session's two), so an unsubscribed subscriber (closed, and a no-op to call) is
 * dropped here or at the next value instead. The array is exact-size (a spread reserves 16 slots).
 */
function withSubscriber<T>(subscribers: readonly Subscriber<T>[], added: Subscriber<T>): readonly Subscriber<T>[] {
  return subscribers.length === 0 ? [added] : subscribers.filter((s) => !s.closed).concat([added]);
}

/**
 * A hot stream that holds everything pushed before its first subscriber and hands it over, in
 * order, on that subscription; afterwards it is a plain multicast stream. A transport starts
 * reading before the session subscribes, and the peer may already be talking.
 * @internal
 */
export class HotInbound<T> {
  private buffer: T[] | null = [];
  private ended = false;
  // Subscribers kept by hand rather than in a Subject: a transport nearly always has exactly one
  // (its session), and this is the per-frame hot path. No teardown (see `withSubscriber`).
  private subscribers: readonly Subscriber<T>[] = NONE;

  readonly observable: Observable<T> = new Observable<T>((subscriber) => {
    const buffer = this.buffer;
    if (buffer !== null) {
      // Frames pushed while we flush land in the same array and are drained here, in order.
      let i = 0;
      while (i < buffer.length && !subscriber.closed) subscriber.next(buffer[i++]);
      if (subscriber.closed) {
        // Unsubscribed mid-flush: keep the rest for whoever subscribes next.
        this.buffer = buffer.slice(i);
        return;
      }
      this.buffer = null;
    }
    if (this.ended) {
      subscriber.complete();
      return;
    }
    this.subscribers = withSubscriber(this.subscribers, subscriber);
  });

  push(value: T): void {
    if (this.ended) return;
    if (this.buffer !== null) {
      this.buffer.push(value);
      return;
    }
    const subs = this.subscribers;
    if (subs.length === 1) {
      const only = subs[0]!;
      if (only.closed) this.subscribers = NONE;
      else only.next(value);
    } else {
      for (const s of subs) s.next(value);
      if (subs.some((s) => s.closed)) this.subscribers = subs.filter((s) => !s.closed);
    }
  }

  complete(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.buffer === null) for (const s of this.subscribers) s.complete();
    this.subscribers = NONE;
  }
}

/**
 * The current transport state, replayed to each new subscriber; completes after a terminal
 * phase ('closed' or 'failed') so `lastValueFrom(state$)` gives the final state.
 * @internal
 */
export class StateCell {
  // Subscribers kept by hand rather than in a ReplaySubject: every transport has one cell, and
  // an idle HTTP session should cost as little as possible.
  private subscribers: readonly Subscriber<TransportState>[] = NONE;
  private state: TransportState;
  readonly observable: Observable<TransportState> = new GuardedObservable<TransportState>((subscriber) => {
    subscriber.next(this.state);
    if (this.terminal) {
      subscriber.complete();
      return;
    }
    this.subscribers = withSubscriber(this.subscribers, subscriber);
  }, 'transport.state$', warnObserverFault);

  constructor(initial: TransportState) {
    this.state = initial;
  }

  get current(): TransportState {
    return this.state;
  }

  get phase(): TransportPhase {
    return this.state.phase;
  }

  get terminal(): boolean {
    return this.state.phase === 'closed' || this.state.phase === 'failed';
  }

  set(next: TransportState): void {
    if (this.terminal) return;
    this.state = next;
    const subs = this.subscribers;
    for (const s of subs) s.next(next);
    if (this.terminal) {
      this.subscribers = NONE;
      for (const s of subs) s.complete();
    } else if (subs.some((s) => s.closed)) {
      this.subscribers = subs.filter((s) => !s.closed);
    }
  }
}

export interface MemoryPairOptions {
  /**
   * Deliver `JSON.stringify(frame)` instead of the frame object, so the receiving side goes
   * through the same decode path as a byte transport. Default false.
   */
  serialize?: boolean;
}

/** One side of {@link createMemoryPair}. */
export interface MemoryTransport extends Transport {
  /** The other side of the pair. */
  readonly peer: MemoryTransport;
}

class MemoryEnd implements MemoryTransport {
  peer!: MemoryEnd;
  private readonly inbound = new HotInbound<RawFrame>();
  private readonly state = new StateCell({ phase: 'open' });
  private readonly queue: RawFrame[] = [];
  private scheduled = false;
  private endAfterQueue = false;
  private closedPromise: Promise<void> | undefined;
  private resolveClosed: (() => void) | undefined;

  readonly inbound$ = this.inbound.observable;
  readonly state$ = this.state.observable;
  // One bound drain per end, not one closure per frame.
  private readonly drain = (): void => this.flush();

  constructor(private readonly serialize: boolean) {}

  start(): Promise<void> {
    return this.state.phase === 'open'
      ? Promise.resolve()
      : Promise.reject(new TransportError(`Cannot start: the memory transport is ${this.state.phase}.`));
  }

  send(frame: Frame): void {
    if (this.state.phase !== 'open') {
      throw new TransportError(`Cannot send: the memory transport is ${this.state.phase}.`);
    }
    this.peer.enqueue(this.serialize ? encodeFrame(frame) : frame);
  }

  close(): Promise<void> {
    if (this.closedPromise === undefined) {
      this.shutdown();
      this.peer.shutdown();
    }
    return Promise.all([this.closedPromise, this.peer.closedPromise]).then(() => undefined);
  }

  private enqueue(raw: RawFrame): void {
    this.queue.push(raw);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // A reaction on a settled promise, not `queueMicrotask`: the same microtask queue, without the
    // AsyncResource and bound function Node's `queueMicrotask` makes per call (~110 ns on Node 20).
    void SETTLED.then(this.drain);
  }

  /** Stops sending at once; frames already in flight are still delivered, then inbound ends. */
  private shutdown(): void {
    if (this.closedPromise !== undefined) return;
    this.closedPromise = new Promise((resolve) => (this.resolveClosed = resolve));
    this.state.set({ phase: 'closed' });
    this.endAfterQueue = true;
    this.schedule();
  }

  private flush(): void {
    this.scheduled = false;
    const queue = this.queue;
    for (let i = 0; i < queue.length; i++) this.inbound.push(queue[i]);
    // Emptied by pops: `length = 0` is a runtime call (~75 ns), paid for every frame here.
    while (queue.length > 0) queue.pop();
    if (this.endAfterQueue) {
      this.inbound.complete();
      this.resolveClosed?.();
    }
  }
}

/**
 * Two linked in-memory transports: a frame sent on one arrives on the other's `inbound$`
 * asynchronously (one microtask later, in send order), as the same object (frames are immutable
 * by contract) or as JSON text with `{ serialize: true }`. Both are open from creation; `start()`
 * only confirms it. `close()` on either closes both: state 'closed', then frames already in flight
 * are delivered and both `inbound$` complete. `inbound$` is hot but buffers frames until its first
 * subscriber, so nothing sent before the session subscribes is lost.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#custom-transports
 */
export function createMemoryPair(opts: MemoryPairOptions = {}): [MemoryTransport, MemoryTransport] {
  const serialize = opts.serialize === true;
  const a = new MemoryEnd(serialize);
  const b = new MemoryEnd(serialize);
  a.peer = b;
  b.peer = a;
  return [a, b];
}
