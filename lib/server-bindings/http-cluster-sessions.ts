/**
 * The HTTP server core's side of a store shared by several processes (`http-cluster.ts`): which
 * sessions this process serves a replica of, how a replica is built from the store's record, what
 * goes through the store instead of this process's memory (the standalone stream, answers to
 * requests another process sent, cancellations of requests running elsewhere), and the
 * renewal of the sessions in use here.
 *
 * The core calls it at a few seams; without a store none of this runs.
 */
import type { HttpResponseOut } from '../../streams/http-shape.js';
import type { Subscription } from 'rxjs';
import { TransportError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject, JsonRpcMessage, JsonRpcResponse, RequestId } from '../jsonrpc/message.js';
import type { ClusterMessage, Follow, SessionCluster, SessionRecord } from './http-cluster.js';
import type { Caller } from '../../streams/http-auth.js';
import { writeEmpty, writeError } from '../../streams/http-body.js';
import { SseSink } from '../../streams/http-sse-sink.js';
import { sseEvent, sseStreamStart } from '../../streams/sse-encode.js';
import type { Clock } from '../clock.js';
import type { Server, ServerSession } from '../server.js';
import type { HttpSessionLifecycle } from '../../streams/http-session.js';
import type { HttpHeadersOut } from '../../streams/http-shape.js';
import type { KeepAliveTicker } from '../../streams/http-sse-sink.js';

/** The name of the timer that renews the sessions in use here. */
export const RENEW_TIMER_NAME = 'http:cluster-renew';

const SESSION_HEADER = 'mcp-session-id';

interface ReplicaState {
  record: SessionRecord;
  /** Clock time of the last touch (request or renewal). */
  touched: number;
  /** Busy at the last renewal tick (renew once more when it went idle since). */
  wasBusy: boolean;
}

/** What a request needs of the store before it is served. */
export interface TouchNeeds {
  /** The POST carries requests: reserve a stream number for their SSE stream. */
  stream?: boolean;
  /** A GET for the standalone stream. */
  standalone?: boolean;
  /** The POST carries `notifications/initialized`. */
  initialized?: boolean;
}

/**
 * What the cluster uses of an HTTP session (the handler's `HttpSession` has it all), so that this
 * file and the handler's core, which makes a `ClusterSessions`, do not import each other.
 */
export interface ClusterSession extends HttpSessionLifecycle {
  readonly id: string;
  readonly tag: string;
  readonly identity: string | undefined;
  authInfo: unknown;
  serverSession: ServerSession | undefined;
  readonly exchanges: ReadonlyMap<RequestId, unknown>;
  readonly primes: boolean;
  push(value: unknown): void;
  cancelledElsewhere(notification: unknown, id: RequestId): void;
  attachStandalone(res: HttpResponseOut, onClosed?: () => void): SseSink;
  endStandalone(): void;
  sseHeaders(): HttpHeadersOut;
}

/** What the cluster uses of the handler's core. */
export interface ClusterCore<S extends ClusterSession> {
  readonly server: Server;
  readonly sessions: ReadonlyMap<string, S>;
  readonly clock: Clock;
  readonly ticker: KeepAliveTicker;
  readonly idleTtlMs: number;
  readonly retryMs: number | undefined;
  report(error: unknown): void;
  internalError(res: HttpResponseOut, e: unknown): void;
  replica(id: string, tag: string, caller: Caller | undefined): S;
}

/** The sessions of a handler in a cluster: replicas made on demand, their records kept and renewed. */
export class ClusterSessions<S extends ClusterSession> {
  private readonly state = new WeakMap<S, ReplicaState>();
  private readonly messages: Subscription;
  private timer: unknown;
  /** A session in use is renewed once this old (a quarter of the idle TTL). */
  private readonly renewEveryMs: number;
  /** How often the sessions in use are looked at (a heartbeat, or less for a short TTL). */
  private readonly tickMs: number;

  constructor(
    private readonly core: ClusterCore<S>,
    readonly cluster: SessionCluster,
  ) {
    this.renewEveryMs = core.idleTtlMs / 4;
    this.tickMs = Math.max(10, Math.min(cluster.heartbeatMs, this.renewEveryMs));
    cluster.attach(core.server);
    this.messages = cluster.messages$.subscribe((m) => this.onMessage(m));
    // Sessions without an idle TTL never need renewing.
    if (Number.isFinite(this.renewEveryMs)) this.schedule();
  }

  get processId(): string {
    return this.cluster.processId;
  }

  recordOf(session: S): SessionRecord | undefined {
    return this.state.get(session)?.record;
  }

  // ------------------------------------------------------------------------------ finding sessions

  /**
   * The session `id` as this process serves it: its replica here (built from the store's record
   * when there is none), after renewing it in the store. Undefined when the store does not have
   * it (or it belongs to another identity): 404.
   */
  async resolve(id: string, caller: Caller | undefined, needs: TouchNeeds): Promise<{ session: S; streamNo?: number } | undefined> {
    const local = this.core.sessions.get(id);
    const known = local !== undefined && local.lifecycle !== 'terminated' ? this.state.get(local)?.record : undefined;
    const touched = await this.cluster.touch(id, this.core.idleTtlMs, needs, known);
    let session = this.core.sessions.get(id);
    if (touched === undefined) {
      // Gone from the store: expired or deleted, everywhere at once.
      session?.sessionEnded();
      return undefined;
    }
    const record = touched.record;
    if (record.identity !== (caller?.identity ?? null)) return undefined;
    if (session === undefined || session.lifecycle === 'terminated') {
      // Read as a delta for a copy that went meanwhile: read it whole (the stream number stays).
      if (known !== undefined) {
        const again = await this.resolve(id, caller, { initialized: needs.initialized });
        return again === undefined || touched.streamNo === undefined ? again : { ...again, streamNo: touched.streamNo };
      }
      session = this.replicate(id, record, caller);
    }
    else if (caller !== undefined) session.authInfo = caller.authInfo;
    if (session === undefined) return undefined;
    this.remember(session, record);
    const s = session.serverSession;
    // The client said `initialized` to another process: this copy is told too (unless this POST says it).
    if (record.initialized && !needs.initialized && s?.currentPhase === 'awaitingInitialized') session.push({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return touched.streamNo === undefined ? { session } : { session, streamNo: touched.streamNo };
  }

  /** A new session on this process: its requests to the client carry this process's id. */
  created(session: S): void {
    session.serverSession?.prefixRequestIds(`${this.processId}.`);
  }

  /**
   * The initialize answer of a new session is about to go out: keep the session in the store
   * first (so that its next request may reach any process), then `deliver`; if the store fails,
   * the client gets an error instead and the session is dropped.
   */
  initializeAnswered(session: S, answer: JsonRpcResponse, deliver: (frame: JsonRpcResponse) => void): void {
    const s = session.serverSession;
    if (s === undefined || s.protocolVersion === undefined || s.peerInfo === undefined || !('result' in answer)) {
      deliver(answer);
      return;
    }
    const record: SessionRecord = {
      tag: session.tag,
      identity: session.identity ?? null,
      revision: s.protocolVersion,
      clientCapabilities: s.peerCapabilities ?? {},
      clientInfo: s.peerInfo as SessionRecord['clientInfo'],
      serverCapabilities: s.localCapabilities,
      logLevel: null,
      initialized: false,
      standaloneOpened: false,
      standaloneSeq: 0,
    };
    this.cluster.create(session.id, record, this.core.idleTtlMs).then(
      () => {
        this.remember(session, record);
        deliver(answer);
      },
      (e: unknown) => {
        this.core.report(e);
        deliver({ jsonrpc: '2.0', id: answer.id, error: { code: ErrorCode.InternalError, message: 'The server could not store the new session; try again' } });
      },
    );
  }

  /** DELETE: the session ends everywhere. */
  async end(session: S): Promise<void> {
    await this.cluster.end(session.id);
    session.deleted();
  }

  // ------------------------------------------------------------------------------ messages

  /**
   * A message the session sends outside any POST: into the store's standalone stream, which the
   * process holding the GET stream (maybe this one) delivers.
   */
  sendStandalone(session: S, message: JsonRpcMessage): void {
    const isRequest = 'method' in message && 'id' in message && message.id !== undefined;
    if (session.lifecycle === 'terminated') {
      if (isRequest) throw new TransportError('Cannot send: the HTTP session is terminated');
      return;
    }
    if (isRequest && this.state.get(session)?.record.standaloneOpened !== true) {
      throw new TransportError('Cannot send a request to the client: it has no open GET stream');
    }
    this.cluster.appendStandalone(session.id, JSON.stringify(message)).catch((e: unknown) => this.core.report(e));
  }

  /**
   * A POSTed body of responses and notifications: what belongs to another process goes there (an
   * answer to a request it sent, a cancellation of a request it runs); what is left is for the
   * session here (undefined: nothing).
   */
  routeInbound(session: S, value: unknown): unknown {
    const batch = Array.isArray(value);
    const local: unknown[] = [];
    for (const m of batch ? (value as unknown[]) : [value]) {
      if (this.routed(session, m)) continue;
      local.push(m);
    }
    if (batch) return local.length > 0 ? local : undefined;
    return local[0];
  }

  private routed(session: S, m: unknown): boolean {
    if (m === null || typeof m !== 'object') return false;
    const msg = m as JsonObject;
    const method = msg.method;
    if (method === undefined) {
      const owner = ownerOf(msg.id);
      if (owner === undefined || owner === this.processId) return false;
      this.cluster.route(owner, session.id, msg);
      return true;
    }
    const params = (msg.params ?? undefined) as JsonObject | undefined;
    if (method === 'notifications/cancelled') {
      const id = params?.requestId;
      if ((typeof id !== 'string' && typeof id !== 'number') || session.exchanges.has(id)) return false;
      this.cluster.broadcast({ kind: 'frame', sessionId: session.id, frame: msg, from: this.processId });
      return true;
    }
    if (method === 'notifications/progress') {
      const owner = ownerOf(params?.progressToken);
      if (owner === undefined || owner === this.processId) return false;
      this.cluster.route(owner, session.id, msg);
      return true;
    }
    if (method === 'notifications/roots/list_changed') {
      // Every copy caches the roots: all of them hear it (and this one too).
      this.cluster.broadcast({ kind: 'frame', sessionId: session.id, frame: msg, from: this.processId });
    }
    return false;
  }

  private onMessage(m: ClusterMessage): void {
    const session = this.core.sessions.get(m.sessionId);
    if (session === undefined || session.lifecycle === 'terminated') return;
    switch (m.kind) {
      case 'ended':
        session.sessionEnded();
        return;
      case 'standalone-taken':
        session.endStandalone();
        return;
      case 'frame': {
        const frame = m.frame as JsonObject;
        if (frame?.method === 'notifications/cancelled') {
          const id = (frame.params as JsonObject | undefined)?.requestId;
          if ((typeof id === 'string' || typeof id === 'number') && session.exchanges.has(id)) session.cancelledElsewhere(frame, id);
          return;
        }
        session.push(frame);
        return;
      }
    }
  }

  // ------------------------------------------------------------------------------ streams

  /**
   * GET: the standalone stream, from the store, after `afterSeq` (a resumption) or from now on
   * (a new stream, its priming id the current position). Other processes end theirs.
   */
  openStandalone(session: S, res: HttpResponseOut, afterSeq: number | undefined): void {
    const record = this.state.get(session)?.record;
    const from = afterSeq ?? record?.standaloneSeq ?? 0;
    this.cluster.broadcast({ kind: 'standalone-taken', sessionId: session.id, by: this.processId });
    this.cluster.follow(session.id, '0', from).then(
      (follow) => {
        if (follow === undefined || res.destroyed || session.lifecycle === 'terminated') {
          follow?.close();
          if (!res.headersSent && !res.destroyed) writeError(res, 404, ErrorCode.InvalidRequest, 'Not Found: no such session (it may have expired or been terminated); initialize a new one');
          return;
        }
        const first = afterSeq === undefined && session.primes ? sseStreamStart(`${session.tag}.0.${from}`, this.core.retryMs) : sseStreamStart(undefined, this.core.retryMs);
        const sink = session.attachStandalone(res, () => follow.close());
        this.pipe(follow, sink, session, '0', first);
      },
      (e: unknown) => this.core.internalError(res, e),
    );
  }

  /**
   * GET with the Last-Event-ID of a request stream this process does not run: what the store
   * holds after it, then what comes, to the stream's end (an error per unanswered request if its
   * process died). 400 for a stream the session never had; 204 when nothing more will come.
   */
  resumeElsewhere(session: S, res: HttpResponseOut, stream: number, afterSeq: number): void {
    const streamId = String(stream);
    this.cluster.follow(session.id, streamId, afterSeq).then(
      (follow) => {
        if (res.destroyed) {
          follow?.close();
          return;
        }
        if (follow === undefined) {
          writeError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: that Last-Event-ID is not an event of this session');
          return;
        }
        if (follow.ended && follow.backlog.length === 0) {
          writeEmpty(res, 204, { [SESSION_HEADER]: session.id });
          return;
        }
        const sink = new SseSink(res, this.core.ticker, () => {
          follow.close();
          session.exchangeClosed();
        });
        session.exchangeOpened();
        this.pipe(follow, sink, session, streamId, sseStreamStart(undefined, this.core.retryMs));
      },
      (e: unknown) => this.core.internalError(res, e),
    );
  }

  private pipe(follow: Follow, sink: SseSink, session: S, streamId: string, first: string): void {
    const prefix = `${session.tag}.${streamId}.`;
    let text = first;
    for (const e of follow.backlog) text += sseEvent(e.data, prefix + e.seq);
    sink.open(session.sseHeaders(), text);
    if (follow.ended) {
      sink.end();
      return;
    }
    follow.start({
      event: (seq, data) => sink.write(sseEvent(data, prefix + seq)),
      end: () => sink.end(),
    });
  }

  // ------------------------------------------------------------------------------ bookkeeping

  private replicate(id: string, record: SessionRecord, caller: Caller | undefined): S | undefined {
    const session = this.core.replica(id, record.tag, caller);
    const s = session.serverSession;
    if (s === undefined) {
      session.sessionEnded();
      return undefined;
    }
    s.prefixRequestIds(`${this.processId}.`);
    s.adoptInitialized({ protocolVersion: record.revision, capabilities: record.clientCapabilities, clientInfo: record.clientInfo });
    if (s.protocolVersion === undefined) {
      // A process of another version that does not speak this revision.
      this.core.report(new Error(`cluster: session ${id.slice(0, 6)}… negotiated ${record.revision}, which this process does not speak`));
      void s.close();
      return undefined;
    }
    return session;
  }

  private remember(session: S, record: SessionRecord): void {
    const prev = this.state.get(session);
    this.state.set(session, { record, touched: this.core.clock.now(), wasBusy: prev?.wasBusy ?? false });
    const s = session.serverSession;
    if (s !== undefined) this.cluster.bind(s, session.id, record);
  }

  private schedule(): void {
    this.timer = this.core.clock.setTimeout(() => this.tick(), this.tickMs, RENEW_TIMER_NAME);
  }

  /** Renew the sessions in use here (an open stream keeps a session alive, as in one process). */
  private tick(): void {
    this.timer = undefined;
    const now = this.core.clock.now();
    for (const session of this.core.sessions.values()) {
      const st = this.state.get(session);
      if (st === undefined) continue;
      const busy = session.lifecycle === 'busy';
      // Busy: renewed now and then. Just gone idle: once more, so the TTL counts from the end of its last exchange.
      const due = busy ? now - st.touched >= this.renewEveryMs : st.wasBusy && now - st.touched >= this.tickMs;
      if (due) {
        st.touched = now;
        this.cluster.touch(session.id, this.core.idleTtlMs, {}, st.record).then(
          (t) => {
            if (t === undefined) session.sessionEnded();
            else this.remember(session, t.record);
          },
          (e: unknown) => this.core.report(e),
        );
      }
      st.wasBusy = busy;
    }
    this.schedule();
  }

  close(): void {
    this.messages.unsubscribe();
    if (this.timer !== undefined) this.core.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.cluster.detach();
  }
}

/** The process an id of ours names (`<process id>.<n>`), if it is one. */
function ownerOf(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const m = /^([0-9a-z]{8})\.\d+$/.exec(id);
  return m === null ? undefined : m[1];
}

export type { RequestId };
