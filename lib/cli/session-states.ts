/**
 * The machines' states through a recording, computed with the real machines (`session` and
 * `request` of `machines/`, run as pure transitions): the session's lifecycle from the side that
 * recorded it, and one request machine per request in either direction. Incremental, so a live
 * view can push entries as they come. Request transitions are memoized by state and event (the
 * machine decides each once), which keeps 100,000 entries cheap.
 */
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { requestMachine } from '../../machines/request.machine.js';
import { sessionMachine } from '../../machines/session.machine.js';
import type { JournalEntry, JournalHeader } from '../journal/entry.js';
import { SUPPORTED_REVISIONS } from '../protocol/revisions.js';
import { inboundRequestAllowed, outboundVerdict } from '../session/phase-gate.js';
import type { SessionPhase } from '../../machines/session.machine.js';
import { ModernRules, type ModernChain } from './modern-rules.js';
import { isModernFrame } from './recorded-exchanges.js';

export interface RequestTrack {
  /** Index in the list of requests. */
  n: number;
  id: string;
  method: string;
  /** Who sent the request. */
  from: 'client' | 'server';
  /** Entry index where it started and where it ended (settled, failed, cancelled, timed out). */
  start: number;
  end?: number;
  /** Start to end in ms, when it ended. */
  ms?: number;
  error?: string;
  /** [entry index, state] at each change, the first at `start`. */
  states: [number, string][];
  /** A 2026-07-28 request (no session; its envelope in `_meta`). */
  modern?: boolean;
  /** Its params, kept for modern requests (the rules look at the envelope and the round). */
  params?: Record<string, any> | undefined;
  /** The multi round-trip request it is a round of: the rounds machine's states. */
  chain?: ModernChain;
}

export interface StatesAt {
  session: string;
  requests: { id: string; method: string; from: string; state: string; rounds?: string }[];
}

/** What the session machine shows for a recording whose requests were all 2026-07-28 ones. */
export const NO_SESSION = 'none (2026-07-28: no session)';

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
type AnyFrame = Record<string, any>;

function stateName(value: unknown): string {
  if (typeof value === 'string') return value;
  const [k, v] = Object.entries(value as Record<string, unknown>)[0]!;
  return `${k}.${stateName(v)}`;
}

const requestMemo = new Map<string, string>();
const requestInitial = stateName(initialTransition(requestMachine, { method: 'x', timeout: 60000 })[0].value);

function nextRequestState(state: string, event: { type: string } & Record<string, unknown>, method: string): string {
  const key = `${state}|${event.type}|${method === 'initialize'}`;
  let next = requestMemo.get(key);
  if (next === undefined) {
    let [snap] = initialTransition(requestMachine, { method, timeout: 60000 });
    // Walk to `state` (pending → progressing is the only inner step before a final state).
    if (state === 'active.progressing') [snap] = transition(requestMachine, snap, { type: 'PROGRESS', progress: 0 });
    next = stateName(transition(requestMachine, snap, event as never)[0].value);
    requestMemo.set(key, next);
  }
  return next;
}

const isFinal = (s: string) => !s.startsWith('active');

export class StateTracker {
  readonly session: [number, string][] = [];
  readonly requests: RequestTrack[] = [];
  /** For each entry: the request it belongs to (index in `requests`), or -1. */
  readonly entryRequest: number[] = [];
  /** Frames the machines would not have let through, with why (the first is `replay --check`'s divergence). */
  readonly problems: { index: number; message: string }[] = [];
  private readonly role: 'client' | 'server';
  private snap: SessionSnapshot;
  private readonly open = new Map<string, RequestTrack>();
  private readonly tokens = new Map<string, RequestTrack>();
  private index = 0;
  private readonly clientKind: 'in' | 'out';
  private opened = false;
  private readonly modern = new ModernRules((m) => this.problem(m));
  /** Which eras the recording's requests spoke. */
  readonly eras = { legacy: false, modern: false };

  constructor(header: Pick<JournalHeader, 'role' | 'session'>) {
    this.clientKind = header.role === 'server' ? 'in' : 'out';
    this.role = header.role;
    this.snap = initialTransition(sessionMachine, {
      role: header.role,
      supportedVersions: header.session?.supportedVersions ?? [...SUPPORTED_REVISIONS],
      localInfo: header.session?.info ?? { name: 'recorded', version: '0' },
      localCapabilities: header.session?.capabilities ?? {},
      instructions: header.session?.instructions,
    } as never)[0];
    this.session.push([0, stateName(this.snap.value)]);
  }

  get sessionState(): string {
    return stateName(this.snap.value);
  }

  /** Whether only 2026-07-28 requests were seen: there is no session to show. */
  get sessionless(): boolean {
    return this.eras.modern && !this.eras.legacy;
  }

  private sessionEvent(event: Record<string, unknown> & { type: string }): void {
    const before = this.sessionState;
    this.snap = transition(sessionMachine, this.snap, event as never)[0];
    const after = this.sessionState;
    if (after !== before) this.session.push([this.index, after]);
  }

  private setRequest(r: RequestTrack, event: { type: string } & Record<string, unknown>, t: number, startT: Map<RequestTrack, number>): void {
    const prev = r.states.at(-1)![1];
    if (isFinal(prev)) return;
    const next = nextRequestState(prev, event, r.method);
    if (next === prev) return;
    r.states.push([this.index, next]);
    if (isFinal(next)) {
      r.end = this.index;
      r.ms = Math.round((t - (startT.get(r) ?? t)) * 1000) / 1000;
      startT.delete(r);
      this.open.delete(`${r.from}:${r.id}`);
    }
  }

  private readonly startT = new Map<RequestTrack, number>();

  /** Take the next entry; returns the index of the request it belongs to, or -1. */
  push(e: JournalEntry): number {
    let belongs = -1;
    if (e.kind === 'transport') {
      if (e.phase === 'open' && !this.opened) {
        this.opened = true;
        this.sessionEvent({ type: 'TRANSPORT_OPEN' });
      } else if (e.phase === 'closed' || e.phase === 'failed') {
        this.sessionEvent(e.error ? { type: 'TRANSPORT_CLOSED', error: { name: 'TransportError', message: e.error } } : { type: 'TRANSPORT_CLOSED' });
        for (const r of [...this.open.values()]) this.setRequest(r, { type: 'CONNECTION_CLOSED' }, e.t, this.startT);
      }
    } else if (e.kind === 'note') {
      const d = e.detail as { event?: unknown; requestId?: unknown } | undefined;
      if (d?.event === 'stream closed by client') {
        const id = JSON.stringify(d.requestId);
        const r = this.open.get(`client:${id}`);
        if (r) {
          belongs = r.n;
          this.modern.cancelled(id);
          this.setRequest(r, { type: 'ABORT', reason: 'stream closed' }, e.t, this.startT);
        }
      }
    } else if (e.kind === 'call' && e.op === 'close') {
      this.sessionEvent({ type: 'CLOSE' });
    } else if (e.kind === 'timer') {
      const m = /^request:(.+):(idle|total)$/.exec(e.name);
      const r = m && [...this.open.values()].find((x) => JSON.stringify(x.id) === m[1] || x.id === m[1]);
      if (r) {
        belongs = r.n;
        this.setRequest(r, { type: m![2] === 'idle' ? 'IDLE_TIMEOUT' : 'TOTAL_TIMEOUT' }, e.t, this.startT);
      }
    } else if ((e.kind === 'in' || e.kind === 'out') && 'frame' in e && e.frame && typeof e.frame === 'object') {
      if (!this.opened) {
        this.opened = true;
        this.sessionEvent({ type: 'TRANSPORT_OPEN' });
      }
      const from = e.kind === this.clientKind ? 'client' : 'server';
      for (const f of (Array.isArray(e.frame) ? e.frame : [e.frame]) as AnyFrame[]) {
        const b = this.frame(f, from, e.t);
        if (b >= 0) belongs = b;
      }
    }
    this.entryRequest.push(belongs);
    this.index++;
    return belongs;
  }

  private problem(message: string): void {
    this.problems.push({ index: this.index, message });
  }

  /** The lifecycle's phase gate, as the recording side's session applies it. */
  private gate(f: AnyFrame, from: 'client' | 'server'): void {
    if (typeof f.method !== 'string') return;
    const phase = this.sessionState as SessionPhase;
    const isRequest = f.id !== undefined && f.id !== null;
    if (from === this.role) {
      const verdict = outboundVerdict(this.role, phase, isRequest ? 'request' : 'notification', f.method);
      if (verdict !== 'ok' && !(f.method === 'initialize' && phase === 'initializing')) this.problem(`the ${from} sent ${f.method} while its session was ${phase} (${verdict})`);
    } else if (isRequest && !inboundRequestAllowed(this.role, phase, f.method)) {
      this.problem(`the ${from} sent ${f.method} before initialization`);
    } else if (phase === 'closed' || phase === 'failed') {
      this.problem(`the ${from} sent ${f.method} after the session ${phase}`);
    }
  }

  /** Whether a frame belongs to the 2026-07-28 era (no session: the lifecycle gate does not apply). */
  private isModern(f: AnyFrame, from: 'client' | 'server'): boolean {
    if (!this.eras.modern) return false;
    if (f.method === undefined) return this.open.get(`${from === 'client' ? 'server' : 'client'}:${JSON.stringify(f.id)}`)?.modern === true;
    if (f.method === 'notifications/progress') return this.tokens.get(`${from === 'client' ? 'server' : 'client'}:${JSON.stringify(f.params?.progressToken)}`)?.modern === true;
    if (f.method === 'notifications/cancelled') return this.open.get(`${from === 'client' ? 'server' : 'client'}:${JSON.stringify(f.params?.requestId)}`)?.modern === true;
    // What the server sends with no session operating is judged by this era's rules.
    return from === 'server' && this.sessionState !== 'operating';
  }

  /** The modern request a log message belongs to: the last one in flight (stdio), or the one whose stream carried it. */
  private lastModernInFlight(): RequestTrack | undefined {
    let last: RequestTrack | undefined;
    for (const r of this.open.values()) if (r.modern && r.from === 'client' && r.method !== 'subscriptions/listen') last = r;
    return last;
  }

  private frame(f: AnyFrame, from: 'client' | 'server', t: number): number {
    const other = from === 'client' ? 'server' : 'client';
    const isRequest = typeof f.method === 'string' && f.id !== undefined && f.id !== null;
    const claims = isRequest && from === 'client' && isModernFrame(f);
    if (isRequest && from === 'client') {
      if (claims) this.eras.modern = true;
      else this.eras.legacy = true;
    }
    const modern = claims || (!(isRequest && from === 'client') && this.isModern(f, from));
    if (!modern) this.gate(f, from);
    else if (from === 'server' && typeof f.method === 'string') {
      if (isRequest) this.modern.serverRequest(f);
      else if (!this.modern.listenNotification(f) && f.method === 'notifications/message') {
        const r = this.lastModernInFlight();
        if (r) this.modern.logMessage(r);
      }
    }
    if (isRequest) {
      const id = JSON.stringify(f.id);
      if (this.open.has(`${from}:${id}`)) this.problem(`the ${from} reused request id ${id} while that request was in flight`);
      if (f.method === 'initialize' && this.requests.some((r) => r.method === 'initialize' && r.from === from)) this.problem(`the ${from} sent initialize a second time`);
      const r: RequestTrack = { n: this.requests.length, id, method: f.method, from, start: this.index, states: [[this.index, requestInitial]] };
      if (claims) {
        r.modern = true;
        r.params = f.params;
        this.modern.request(f, r, this.index);
      }
      this.requests.push(r);
      this.open.set(`${from}:${id}`, r);
      this.startT.set(r, t);
      const token = f.params?._meta?.progressToken;
      if (token !== undefined) this.tokens.set(`${from}:${JSON.stringify(token)}`, r);
      if (f.method === 'initialize' && from === 'client') this.sessionEvent({ type: 'INITIALIZE_REQUEST', params: f.params ?? {}, id: f.id });
      return r.n;
    }
    if (f.method === undefined && f.id !== undefined) {
      const r = this.open.get(`${other}:${JSON.stringify(f.id)}`);
      if (!r) {
        if (f.id !== null) this.problem(`the ${from} answered request id ${JSON.stringify(f.id)}, which is not in flight (unknown or already answered)`);
        return -1;
      }
      if (r.modern) this.modern.response(f, r, this.index);
      else if (r.method === 'initialize') {
        if (f.error) this.sessionEvent({ type: 'INITIALIZE_FAILED', error: { name: 'McpError', message: String(f.error.message) } });
        else this.sessionEvent({ type: 'INITIALIZE_RESULT', result: f.result ?? {} });
      }
      if (f.error) r.error = `${f.error.code}: ${f.error.message}`;
      this.setRequest(r, f.error ? { type: 'ERROR_RESPONSE', error: f.error } : { type: 'RESPONSE', result: f.result }, t, this.startT);
      return r.n;
    }
    if (f.method === 'notifications/initialized' && from === 'client') this.sessionEvent({ type: 'INITIALIZED' });
    if (f.method === 'notifications/progress') {
      const r = this.tokens.get(`${other}:${JSON.stringify(f.params?.progressToken)}`);
      if (r) {
        this.setRequest(r, { type: 'PROGRESS', progress: f.params?.progress ?? 0 }, t, this.startT);
        return r.n;
      }
      this.problem(`the ${from} sent progress for token ${JSON.stringify(f.params?.progressToken)}, which belongs to no request in flight`);
    }
    if (f.method === 'notifications/cancelled') {
      const r = this.open.get(`${other}:${JSON.stringify(f.params?.requestId)}`);
      if (r?.modern) this.modern.cancelled(r.id);
      if (r) {
        this.setRequest(r, { type: 'ABORT', reason: f.params?.reason }, t, this.startT);
        return r.n;
      }
    }
    return -1;
  }

  /** The state of every machine after entry `i` (requests still in flight, and those that ended at i). */
  at(i: number): StatesAt {
    let session = this.session[0]![1];
    for (const [at, s] of this.session) if (at <= i) session = s;
    if (this.sessionless) session = NO_SESSION;
    const requests: StatesAt['requests'] = [];
    for (const r of this.requests) {
      if (r.start > i || (r.end !== undefined && r.end < i)) continue;
      let state = r.states[0]![1];
      for (const [at, s] of r.states) if (at <= i) state = s;
      let rounds: string | undefined;
      if (r.chain) for (const [at, s] of r.chain.states) if (at <= i) rounds = s;
      requests.push({ id: r.id, method: r.method, from: r.from, state, ...(rounds !== undefined && { rounds }) });
    }
    return { session, requests };
  }
}

/** Track a whole recording. */
export function trackStates(header: Pick<JournalHeader, 'role' | 'session'>, entries: readonly JournalEntry[]): StateTracker {
  const tracker = new StateTracker(header);
  for (const e of entries) tracker.push(e);
  return tracker;
}
