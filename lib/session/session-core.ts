/**
 * What every session is below its requests: the transport it is connected to, the session machine
 * that decides its lifecycle (run as pure transitions, or as an actor when inspected), the journal
 * and the observables (`frames$`, `state$`, `journal$`, `diagnostics$`), the keep-alive, and how it
 * ends. `Session` (`session.ts`) adds handlers, the request dispatch and outgoing requests.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import { EMPTY, Observable, filter, map, type Subscription } from 'rxjs';
import { createActor, initialTransition, transition, type Actor, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { sessionMachine, type PeerInfo, type SessionEvent, type SessionPhase, type SessionRole } from '../../machines/session.machine.js';
import { guarded, warnObserverFault, type ObserverFault } from '../../streams/guarded.js';
import { DeepFrame, OversizeFrame, type RawFrame, type Transport, type TransportPeer, type TransportState } from '../../streams/transport.js';
import { systemClock, type Clock } from '../clock.js';
import type { Frame, RequestId } from '../jsonrpc/message.js';
import { CapabilityError, ConnectionClosedError, PhaseError, TransportError, VersionMismatchError } from '../errors.js';
import { hasCapability } from '../protocol/methods.js';
import { capabilityFor } from './outbound.js';
import { outboundVerdict } from './phase-gate.js';
import type { InEntry, JournalEntry, JournalEntryInput, NoteEntry, OutEntry } from '../journal/entry.js';
import { Journal } from '../journal/journal.js';
import { SUPPORTED_REVISIONS, isSupportedRevision } from '../protocol/revisions.js';
import { Channel } from './channel.js';
import { toFailure } from './handshake.js';
import { KeepAlive, keepAliveOptions } from './keep-alive.js';
import type { Progress } from './request-registry.js';
import { operatingSnapshot } from './operating-snapshot.js';
import type { Diagnostic, FrameEvent, SessionOptions } from './session-options.js';

type SessionActor = Actor<typeof sessionMachine>;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** Which session each session actor belongs to (see `SessionCore.machine`). */
const owners = new WeakMap<object, SessionCore>();
function ownerOf(actor: object): SessionCore {
  const session = owners.get(actor);
  if (!session) throw new Error('Session actor without a session');
  return session;
}

/** Diagnostics that also go into the journal: inputs that were ignored (the rest is derived). */
const NOTED = new Set<Diagnostic['kind']>(['late-response', 'unknown-response', 'unknown-progress', 'unknown-cancel', 'suppressed-response', 'ignored']);

/** An inbound frame held back from the journal, its `seq`, and its entry when it was shown on `journal$`. */
interface HeldIn {
  frame: object | undefined;
  seq: number;
  entry: JournalEntry | undefined;
}

export abstract class SessionCore {
  readonly role: SessionRole;
  /** The journal, when the `journal` option is on. */
  readonly journal: Journal | undefined;

  protected readonly clock: Clock;
  private readonly enforceCapabilities: boolean;
  // The machine runs as pure transitions on `snapshot`, or as `actor` when an inspector is attached.
  protected readonly actor: SessionActor | undefined;
  private snapshot!: SessionSnapshot;
  private lastNotified: SessionSnapshot | undefined;
  private mailbox: SessionEvent[] | undefined;
  // Arrays of waiters and subscriptions made to size: a push onto an empty array reserves 17 slots.
  protected subscriptions: Subscription[] = [];
  // Created on first subscription (see Channel): an idle session carries no Subjects.
  protected readonly stateChannel = new Channel<SessionSnapshot>();
  protected readonly journalSubject = new Channel<JournalEntry>();
  protected readonly diagnosticsSubject = new Channel<Diagnostic>();
  protected readonly progressSubject = new Channel<Progress & { requestId: RequestId; method: string }>();
  private isOver = false;
  protected transport: Transport | undefined;
  protected phase: SessionPhase = 'connecting';
  protected seq = 0;
  /** An inbound entry held back (see {@link keptElsewhere}); one per session, made at its first hold (an idle session carries one slot). */
  private held: HeldIn | undefined = undefined;
  protected revision: string | undefined;
  protected failure: Error | undefined;
  protected transportError: Error | undefined;
  protected readyWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  protected readonly keepAlive: KeepAlive | undefined;
  protected doneWaiters: (() => void)[] = [];

  constructor(role: SessionRole, options: SessionOptions & { instructions?: string }) {
    this.role = role;
    this.clock = options.clock ?? systemClock;
    this.enforceCapabilities = options.enforceCapabilities ?? true;
    if (options.keepAlive) {
      const { interval, timeout } = keepAliveOptions(options.keepAlive);
      this.keepAlive = new KeepAlive(this.clock, interval, timeout, {
        operating: () => this.phase === 'operating',
        timerFired: (name) => this.record({ kind: 'timer', name }),
        probe: (t) => this.keepAliveProbe(t),
        lost: (error) => {
          // A ping that goes unanswered means the connection is gone, whatever the transport says.
          this.diagnose('ping-failed', `Keep-alive ping failed: ${error.message}`, error);
          this.transportError = new ConnectionClosedError(`The peer stopped answering pings (${error.message})`, error);
          this.send({ type: 'TRANSPORT_CLOSED', error: toFailure(this.transportError) });
        },
      });
    }
    const supportedVersions = options.supportedVersions ?? [...SUPPORTED_REVISIONS];
    if (options.journal) {
      this.journal = new Journal({ redact: options.journal === true || options.journal.redact !== false });
      this.journal.role = role;
      this.journal.startedAt = this.clock.now();
      this.journal.session = {
        info: options.info,
        capabilities: options.capabilities ?? {},
        supportedVersions,
        ...(options.instructions !== undefined && { instructions: options.instructions }),
        ...(options.timeout !== undefined && { timeout: options.timeout }),
        ...(options.maxFrameBytes !== undefined && { maxFrameBytes: options.maxFrameBytes }),
        ...(options.maxFrameDepth !== undefined && { maxFrameDepth: options.maxFrameDepth }),
        ...(options.progress !== undefined && { progress: options.progress }),
      };
    }
    for (const v of supportedVersions) {
      if (!isSupportedRevision(v)) throw new Error(`Unsupported protocol revision "${v}"; this build speaks ${SUPPORTED_REVISIONS.join(', ')}`);
    }
    if (supportedVersions.length === 0) throw new Error('supportedVersions must name at least one revision');
    const input = {
      role,
      supportedVersions,
      localInfo: options.info,
      localCapabilities: options.capabilities ?? {},
      instructions: options.instructions,
    };
    if (options.inspect !== undefined || options.inspectParent !== undefined) {
      // An inspector needs a live actor to watch.
      const parent = options.inspectParent;
      this.actor = createActor(SessionCore.machine, parent ? { input, parent, id: 'session' } : { input, clock: this.clock, inspect: options.inspect });
      owners.set(this.actor, this);
      this.actor.subscribe((snapshot) => {
        // A request actor's end reaches this actor too (as its parent) and changes nothing.
        if (snapshot === this.lastNotified) return;
        this.lastNotified = snapshot;
        this.onSnapshot(snapshot);
      });
      this.actor.start();
    } else {
      this.actor = undefined;
      this.snapshot = initialTransition(sessionMachine, input)[0];
    }
  }

  /** The session machine's named effects (`sendInitialize`, `answerInitialize`...), whichever way the machine runs. */
  protected abstract effect(name: string, context: SessionSnapshot['context'], event: SessionEvent): void;
  /** What the keep-alive sends (`ping`; the client's 2026-07-28 era sends `server/discover`). */
  protected abstract keepAliveProbe(timeout: number): Promise<unknown>;
  /** The peer's input ended (stdin closed): close once every request received is answered. */
  protected abstract peerInputEnded(): void;
  /** The session ended: reject our requests in flight and cancel the ones we serve. */
  protected abstract releaseRequests(cause: Error | undefined): void;

  /**
   * The session machine with the runtime's effects, built once for all sessions: `provide`
   * copies the machine, which would cost every idle session kilobytes. Each action finds its
   * session through the actor it runs in.
   */
  private static readonly machine = sessionMachine.provide({
    actions: {
      sendInitialize: ({ self, context, event }) => ownerOf(self).effect('sendInitialize', context, event),
      sendInitialized: ({ self, context, event }) => ownerOf(self).effect('sendInitialized', context, event),
      answerInitialize: ({ self, context, event }) => ownerOf(self).effect('answerInitialize', context, event),
      closeTransport: ({ self, context, event }) => ownerOf(self).effect('closeTransport', context, event),
      releaseAll: ({ self, context, event }) => ownerOf(self).effect('releaseAll', context, event),
    },
  });

  /** Capabilities declared after construction (by feature APIs) must reach the journal header too. */
  protected fixRecordedCapabilities(capabilities: Record<string, unknown>): void {
    if (this.journal?.session) this.journal.session.capabilities = capabilities;
  }

  /** The machine's current snapshot. */
  protected get snap(): SessionSnapshot {
    return this.actor ? this.actor.getSnapshot() : this.snapshot;
  }

  /**
   * Send the session machine an event. Without an inspector the machine runs as pure
   * transitions (`xstate`'s `transition`) on one snapshot: an actor and its actor system cost an
   * idle session about 4 KB. Events raised while effects run wait their turn, as in an actor's
   * mailbox.
   */
  protected send(event: SessionEvent): void {
    if (this.actor) {
      this.actor.send(event);
      return;
    }
    if (this.mailbox) {
      this.mailbox.push(event);
      return;
    }
    const mailbox: SessionEvent[] = (this.mailbox = [event]);
    try {
      for (let i = 0; i < mailbox.length; i++) {
        if (this.snapshot.status !== 'active') break;
        const [next, actions] = transition(sessionMachine, this.snapshot, mailbox[i]!);
        this.snapshot = next;
        for (const action of actions) this.effect(action.type, action.info.context as SessionSnapshot['context'], action.info.event as SessionEvent);
        if (next !== this.lastNotified) {
          this.lastNotified = next;
          this.onSnapshot(next);
        }
      }
    } finally {
      this.mailbox = undefined;
    }
  }

  /** Stand the machine at `snapshot` without running it there (a hibernated session's `operating`). */
  protected placeAt(snapshot: SessionSnapshot): void {
    this.snapshot = snapshot;
    this.lastNotified = snapshot;
  }

  /**
   * @internal Hibernation of an idle legacy HTTP session (`lib/server-bindings/http-hibernation.ts`):
   * the subscriptions to its transport end, `standIn` takes the transport's place until
   * {@link Session.revive}, and the machine stands in the same `operating` state, its snapshot's
   * parts those every operating session shares and its context's values passed through `share`
   * (equal capabilities kept once). Journaled as a `hibernated` note.
   */
  hibernate(standIn: Transport, share: <T>(value: T) => T): void {
    if (this.role !== 'server' || this.phase !== 'operating' || this.actor !== undefined) throw new Error(`Only an operating server session without an inspector hibernates (it is ${this.phase})`);
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions = [];
    this.transport = standIn;
    const c = this.snapshot.context;
    const operating = operatingSnapshot(c, { revision: c.protocolVersion!, clientCapabilities: {}, clientInfo: c.peerInfo! });
    this.placeAt({
      ...operating,
      context: { ...c, supportedVersions: share(c.supportedVersions), localCapabilities: share(c.localCapabilities), peerCapabilities: share(c.peerCapabilities), peerInfo: share(c.peerInfo) },
    } as SessionSnapshot);
    this.record({ kind: 'note', note: 'hibernated' });
  }

  /** Every frame in and out, with sequence number, clock time and direction. */
  get frames$(): Observable<FrameEvent> {
    return this.guard('session.frames$', this.journalSubject.asObservable().pipe(
      filter((e): e is InEntry | OutEntry => e.kind === 'in' || e.kind === 'out'),
      map((e) =>
        e.kind === 'out'
          ? { seq: e.seq, t: e.t, direction: 'out' as const, frame: e.frame }
          : { seq: e.seq, t: e.t, direction: 'in' as const, frame: 'frame' in e ? (e.frame as Frame) : 'text' in e ? e.text : e },
      ),
    ));
  }
  /** Session machine snapshots: the current one on subscribe, then every change. */
  get state$(): Observable<SessionSnapshot> {
    return this.guard('session.state$', new Observable<SessionSnapshot>((subscriber) => {
      subscriber.next(this.snap);
      if (this.isOver) {
        subscriber.complete();
        return;
      }
      return this.stateChannel.asObservable().subscribe(subscriber);
    }));
  }
  /** Every journal entry as it happens (whether or not the journal is kept). */
  get journal$(): Observable<JournalEntry> {
    return this.guard('session.journal$', this.journalSubject.asObservable());
  }
  /**
   * The transport's own states, with its details: a stdio exit code, an HTTP session that was
   * re-initialized after a 404, a reconnect in progress. Empty until `connect`.
   */
  get transportState$(): Observable<TransportState> {
    return this.guard('session.transportState$', this.transport ? this.transport.state$ : EMPTY);
  }
  /** Frames and events the session handled without failing: late responses, unknown ids... */
  get diagnostics$(): Observable<Diagnostic> {
    // Faults of diagnostics observers go to the warning channel only: reporting them on
    // diagnostics$ would feed the observer that threw.
    return guarded(this.diagnosticsSubject.asObservable(), 'session.diagnostics$');
  }
  /** Progress of every outgoing request that asked for it. */
  get progress$(): Observable<Progress & { requestId: RequestId; method: string }> {
    return this.guard('session.progress$', this.progressSubject.asObservable());
  }

  /**
   * `source` with its observers isolated (`streams/guarded.ts`): an exception one of them throws
   * is reported as an `observer-error` diagnostic and once per subscription as a process warning,
   * and neither ends the process nor disturbs the session.
   */
  protected guard<T>(name: string, source: Observable<T>): Observable<T> {
    return guarded(source, name, (fault) => this.onObserverFault(fault));
  }

  private onObserverFault(fault: ObserverFault): void {
    const message = fault.error instanceof Error ? fault.error.message : String(fault.error);
    this.diagnose('observer-error', `An observer of ${fault.observable} threw in ${fault.callback}: ${message}`, fault);
    warnObserverFault(fault);
  }

  // ---------------------------------------------------------------- public state

  /** @internal The session's actor (only with an inspector): the parent its inspector sees for what the session owns. */
  get inspectActor(): AnyActorRef | undefined {
    return this.actor;
  }

  /** The session clock (timeouts, journal times). */
  get sessionClock(): Clock {
    return this.clock;
  }

  /** The lifecycle phase (the session machine's state). */
  get currentPhase(): SessionPhase {
    return this.phase;
  }
  /** The negotiated protocol revision, once initialized. */
  get protocolVersion(): string | undefined {
    return this.revision;
  }
  /** What the peer declared during initialization. */
  get peerCapabilities(): Record<string, unknown> | undefined {
    return this.snap.context.peerCapabilities;
  }
  /** The peer's name and version. */
  get peerInfo(): PeerInfo | undefined {
    return this.snap.context.peerInfo;
  }
  /** What we declared. */
  get localCapabilities(): Record<string, unknown> {
    return this.snap.context.localCapabilities;
  }
  /** Server instructions (the server's own, or what the server sent, on a client). */
  get instructions(): string | undefined {
    return this.snap.context.instructions;
  }
  /** The error the session failed with, if it failed. */
  get error(): Error | undefined {
    return this.failure;
  }

  /** Resolves when the session is operating; rejects if it fails or closes first. */
  whenOperating(): Promise<void> {
    if (this.phase === 'operating') return Promise.resolve();
    if (this.phase === 'failed' || this.phase === 'closed') {
      return Promise.reject(this.failure ?? new ConnectionClosedError('The session closed before it was initialized'));
    }
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  /** @internal Call `fn` once when the session ends (cheaper than a promise per session). */
  onEnd(fn: () => void): void {
    if (this.phase === 'closed' || this.phase === 'failed') fn();
    else this.doneWaiters = this.doneWaiters.concat(fn);
  }

  /** Resolves when the session has ended (closed or failed). */
  ended(): Promise<void> {
    if (this.phase === 'closed' || this.phase === 'failed') return Promise.resolve();
    return new Promise<void>((resolve) => this.doneWaiters.push(resolve));
  }

  /** `kept`: false for a frame another journal keeps (see {@link show}). */
  protected sendFrame(frame: Frame, relatedRequestId?: RequestId, kept = true): void {
    const transport = this.transport;
    if (!transport) throw new ConnectionClosedError('Not connected: call connect(transport) first');
    // (Checked here too: the entry is made only for a journal or a watcher.)
    if (this.journal || this.journalSubject.observed) {
      if (kept) this.record({ kind: 'out', frame });
      else this.show({ kind: 'out', frame });
    }
    const sent = relatedRequestId === undefined ? transport.send(frame) : transport.send(frame, { relatedRequestId });
    if (sent && typeof (sent as Promise<void>).catch === 'function') {
      (sent as Promise<void>).catch((e: unknown) => this.diagnose('ignored', `Sending a frame failed: ${(e as Error).message}`, frame));
    }
  }

  /** Throws when the phase, or the peer's capabilities, forbid sending `method` now. */
  protected check(method: string, kind: 'request' | 'notification'): void {
    const verdict = outboundVerdict(this.role, this.phase, kind, method);
    if (verdict === 'closed') {
      throw new ConnectionClosedError(`Cannot send "${method}": the session is ${this.phase}`, this.failure);
    }
    if (verdict !== 'ok') throw new PhaseError(method, this.phase);
    if (kind === 'request' && this.enforceCapabilities && this.phase === 'operating') {
      const needed = this.capabilityFor(method);
      if (needed && !hasCapability(this.peerCapabilities, needed)) {
        throw new CapabilityError(method, needed.join('.'), this.role === 'client' ? 'server' : 'client');
      }
    }
  }

  /** @internal The capability a request needs of its receiver, per negotiated revision. */
  capabilityFor(method: string): string[] | undefined {
    return capabilityFor(this.revision, method);
  }

  /** @internal Journal an entry (at `t`, default now): the client's modern era records its requests here. */
  protected record(entry: JournalEntryInput, t?: number): void {
    const observed = this.journalSubject.observed;
    if (!this.journal && !observed) return;
    // A held inbound entry comes first: its `seq` is the earlier.
    if (this.held?.frame !== undefined) this.keepHeldIn();
    // The time only once an entry is kept: reading the clock for every frame nobody records cost each call.
    t ??= this.clock.now();
    // Unwatched: kept from its values, never stamped (no entry object extended per frame: journaling must stay cheap per entry).
    if (!observed) return this.journal!.keep(entry, this.seq++, t);
    // Stamped in place (no copy: each entry is a fresh object, recorded once).
    const stamped = entry as JournalEntry;
    stamped.seq = this.seq++;
    stamped.t = t;
    this.journal?.push(stamped);
    this.journalSubject.next(stamped);
  }

  protected recordIn(raw: RawFrame): void {
    // Anything the peer sends shows it is there: keep-alive pings wait for a quiet interval.
    this.keepAlive?.heard();
    if (!this.journal && !this.journalSubject.observed) return;
    if (typeof raw === 'string') this.record({ kind: 'in', text: raw });
    else if (raw instanceof OversizeFrame) {
      this.record({ kind: 'in', oversize: raw.head === undefined ? { size: raw.size, limit: raw.limit } : { size: raw.size, limit: raw.limit, head: raw.head } });
    }
    else if (raw instanceof DeepFrame) this.record({ kind: 'in', tooDeep: { limit: raw.limit, id: raw.id, respond: raw.respond } });
    else if (this.journal !== undefined && this.keptElsewhere(raw)) this.holdIn(raw as object);
    else this.record({ kind: 'in', frame: raw });
  }

  /**
   * Whether an inbound frame may be another journal's to keep (a server's 2026-07-28 request: its
   * request journal's, which replays it): its entry is then held until the frame is routed.
   */
  protected keptElsewhere(_frame: unknown): boolean {
    return false;
  }

  /**
   * Hold back an inbound frame's entry (see {@link keptElsewhere}): its `seq` taken (and shown
   * on `journal$` when watched) now, kept by {@link keepHeldIn} (the next entry recorded, or the
   * frame's routing over) unless {@link dropHeldIn} lets it go first. Recording it and then
   * taking it back out of the journal cost every such request on the frame path. Unwatched, its
   * time is read only if it is kept: within the same step (a frame refused as it is routed).
   */
  private holdIn(frame: object): void {
    const held = (this.held ??= { frame: undefined, seq: 0, entry: undefined });
    if (held.frame !== undefined) this.keepHeldIn();
    held.seq = this.seq++;
    held.frame = frame;
    if (this.journalSubject.observed) {
      const entry: JournalEntry = { kind: 'in', frame, seq: held.seq, t: this.clock.now() };
      held.entry = entry;
      this.journalSubject.next(entry);
    }
  }

  /** @internal Keep the held inbound entry (its frame was not another journal's after all). */
  protected keepHeldIn(): void {
    const held = this.held;
    const frame = held?.frame;
    if (frame === undefined) return;
    held!.frame = undefined;
    const entry = held!.entry;
    if (entry === undefined) this.journal!.keep({ kind: 'in', frame }, held!.seq, this.clock.now());
    else {
      held!.entry = undefined;
      this.journal!.push(entry);
    }
  }

  /**
   * @internal `frame` is another journal's: its held entry is let go. Its `seq` stays spent (the
   * entry was shown on `journal$`, or would have been), so the journal reads as it always did.
   */
  protected dropHeldIn(frame: object): void {
    const held = this.held;
    if (held?.frame !== frame) return;
    held.frame = undefined;
    held.entry = undefined;
  }

  /**
   * An entry another journal keeps: shown on `journal$` (stamped, as {@link record} would) but
   * not kept here; unwatched, only its `seq` is spent.
   */
  private show(entry: JournalEntryInput): void {
    if (this.held?.frame !== undefined) this.keepHeldIn();
    const seq = this.seq++;
    if (!this.journalSubject.observed) return;
    const stamped = entry as JournalEntry;
    stamped.seq = seq;
    stamped.t = this.clock.now();
    this.journalSubject.next(stamped);
  }

  /** @internal Note something handled without failing (journaled when it is an ignored input). */
  diagnose(kind: Diagnostic['kind'], message: string, detail?: unknown): void {
    if (NOTED.has(kind)) this.record({ kind: 'note', note: kind as NoteEntry['note'], detail });
    if (this.diagnosticsSubject.observed) this.diagnosticsSubject.next({ kind, message, detail });
  }

  protected onSnapshot(snapshot: SessionSnapshot): void {
    const previous = this.phase;
    this.phase = snapshot.value as SessionPhase;
    if (this.phase === 'failed' && !this.failure) {
      const err = snapshot.context.error;
      if (err?.name === 'VersionMismatchError') {
        const data = err.data as { supported: string[]; answered: string };
        this.failure = new VersionMismatchError(data.supported, data.answered);
      } else {
        this.failure = this.transportError ?? new ConnectionClosedError(err?.message ?? 'Session failed');
      }
    }
    this.stateChannel.next(snapshot);
    if (previous !== this.phase) {
      if (this.phase === 'operating') {
        this.settleReady();
        this.keepAlive?.schedule();
      }
      if (this.phase === 'closed' || this.phase === 'failed') {
        this.settleReady();
        for (const done of this.doneWaiters.splice(0)) done();
        this.dispose();
      }
    }
  }

  protected settleReady(): void {
    const waiters = this.readyWaiters.splice(0);
    for (const w of waiters) {
      if (this.phase === 'operating') w.resolve();
      else w.reject(this.failure ?? new ConnectionClosedError('The session closed before it was initialized'));
    }
  }

  protected onTransportState(state: TransportState): void {
    this.record(state.error ? { kind: 'transport', phase: state.phase, error: state.error.message } : { kind: 'transport', phase: state.phase });
    switch (state.phase) {
      case 'open':
        this.send({ type: 'TRANSPORT_OPEN' });
        break;
      case 'closing':
        // The peer's input ended (stdio: stdin closed) while answers may be owed: close the
        // transport once every request received is answered (see closeWhenAnswered).
        if (state.details?.['inputEnded'] === true) {
          this.peerInputEnded();
        }
        break;
      case 'closed':
        this.send({ type: 'TRANSPORT_CLOSED' });
        break;
      case 'failed': {
        const error = state.error ?? new TransportError('Transport failed', state.details);
        this.transportError = error;
        this.send({ type: 'TRANSPORT_CLOSED', error: toFailure(error) });
        break;
      }
      default:
        break;
    }
  }

  /** The peer sent a frame the session's own reader does not see (the client's modern link): the keep-alive waits. */
  protected heardFromPeer(): void {
    this.keepAlive?.heard();
  }

  /** Entry of `closed` and `failed`: nothing stays waiting. */
  protected releaseAll(): void {
    this.keepAlive?.stop();
    this.releaseRequests(this.transportError ?? this.failure);
  }


  protected dispose(): void {
    // Deferred: the final snapshot must reach state$ subscribers before streams complete.
    queueMicrotask(() => {
      for (const s of this.subscriptions.splice(0)) s.unsubscribe();
      this.isOver = true;
      this.stateChannel.complete();
      this.journalSubject.complete();
      this.diagnosticsSubject.complete();
      this.progressSubject.complete();
    });
  }

  /** What the transport knows of its peer (HTTP session id, channel kind, address), for interceptors. */
  get transportPeer(): TransportPeer | undefined {
    return this.transport?.peerFacts;
  }

  /** Who the transport says the peer is (set by an `authenticate` hook), if anyone. */
  get authInfo(): unknown {
    return this.transport?.authInfo;
  }

  /** Serves one request of a stateless transport: the session says nothing about who sent the next. */
  get stateless(): boolean {
    return this.transport?.stateless === true;
  }
}
