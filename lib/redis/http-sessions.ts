/**
 * Streamable HTTP sessions shared by every process of a deployment, on Redis: the HTTP side of
 * the Redis store (`createStreamableHttpHandler(server, { store })`). It implements the store
 * interface the HTTP server core uses (`SessionCluster`, see `lib/server-bindings/http-cluster.ts`) and the
 * one the server features use for shared sessions (`SharedSessions`).
 *
 * Per process: one lease (`process-lease.ts`), one subscriber connection (`router.ts`). Per
 * session: a record with the idle TTL (`session-records.ts`), its SSE streams in Redis Streams
 * (`stream-event-store.ts`), followed where a client reads them (`stream-follower.ts`).
 */
import type { Observable } from 'rxjs';
import { systemClock, type Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { LoggingLevel } from '../protocol/schema/logging.js';
import type { Server, ServerSession } from '../server.js';
import type { SharedListKind, SharedSessions } from '../server-features/shared-sessions.js';
import type { Session } from '../session/session.js';
import type { ClusterMessage, Follow, SessionCluster, SessionRecord, Touched } from '../server-bindings/http-cluster.js';
import type { RedisClient } from './redis-connection.js';
import { RedisKeys } from './keys.js';
import { ProcessLease } from './process-lease.js';
import { RedisRouter } from './router.js';
import { RedisSessionRecords, type FanOut } from './session-records.js';
import { RedisStreamEventStore } from './stream-event-store.js';
import { StreamFollower } from './stream-follower.js';
import * as scripts from './scripts.js';
import type { LuaScript } from './lua.js';

export interface RedisHttpSessionsOptions {
  /** Prefix of every key and channel; give each deployment its own. Default `mcp-actors`. */
  prefix?: string;
  /** The clock of the heartbeat and of lease judgements. Default the system clock. */
  clock?: Clock;
  /** How long a process counts as alive after its last heartbeat, in ms. Default 3000. */
  leaseMs?: number;
  /** Heartbeat interval, in ms. Default 1000. */
  heartbeatMs?: number;
  /** Events kept per SSE stream (the oldest trimmed). Default 1000. */
  maxEventsPerStream?: number;
  /** How long a finished request stream stays resumable, in ms. Default 60 000. */
  finishedStreamTtlMs?: number;
  /** This process's id (8 characters of [0-9a-z]); random by default. */
  processId?: string;
  /** Failures nobody else hears about. */
  onError?: (error: Error) => void;
}

interface Replica {
  id: string;
  record: SessionRecord;
}

export class RedisHttpSessions implements SessionCluster, SharedSessions {
  readonly processId: string;
  readonly heartbeatMs: number;
  readonly messages$: Observable<ClusterMessage>;
  readonly events: RedisStreamEventStore;
  readonly keys: RedisKeys;
  private readonly records: RedisSessionRecords;
  private readonly replicas = new WeakMap<Session, Replica>();
  /** Request streams followed here whose owner must be watched. */
  private readonly watched = new Map<StreamFollower, { sessionId: string; streamId: string; owner: string }>();
  private readonly followers = new Set<StreamFollower>();
  private server: Server | undefined;
  private closed = false;

  private constructor(
    private readonly client: RedisClient,
    private readonly lease: ProcessLease,
    private readonly router: RedisRouter,
    keys: RedisKeys,
    options: RedisHttpSessionsOptions,
    private readonly onError: (error: Error) => void,
  ) {
    this.keys = keys;
    this.processId = lease.processId;
    this.heartbeatMs = lease.heartbeatMs;
    this.messages$ = router.messages$;
    const maxEvents = options.maxEventsPerStream ?? 1000;
    this.records = new RedisSessionRecords(client, keys, maxEvents);
    this.events = new RedisStreamEventStore(client, keys, this.processId, maxEvents, options.finishedStreamTtlMs ?? 60_000);
    lease.onBeat(() => this.watchOwners());
    router.onReconnect(() => {
      for (const f of this.followers) f.resync();
    });
  }

  /**
   * Take this process's lease and subscribe to its channels. `client` stays the caller's (closed
   * by them after {@link close}); a second connection is made for pub/sub.
   */
  static async create(client: RedisClient, options: RedisHttpSessionsOptions = {}): Promise<RedisHttpSessions> {
    const keys = new RedisKeys(options.prefix ?? 'mcp-actors');
    const onError = options.onError ?? (() => {});
    await Promise.all(Object.values(scripts).map((s: LuaScript) => client.scriptLoad(s.source)));
    const lease = await ProcessLease.start(client, keys, {
      clock: options.clock ?? systemClock,
      onError,
      ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
      ...(options.heartbeatMs !== undefined && { heartbeatMs: options.heartbeatMs }),
      ...(options.processId !== undefined && { processId: options.processId }),
    });
    let router: RedisRouter;
    try {
      router = await RedisRouter.create(client, keys, lease.processId, onError);
    } catch (error) {
      await lease.stop();
      throw error;
    }
    return new RedisHttpSessions(client, lease, router, keys, options, onError);
  }

  // ------------------------------------------------------------------------------ SessionCluster

  create(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void> {
    return this.records.create(sessionId, record, ttlMs);
  }

  touch(sessionId: string, ttlMs: number, options?: { stream?: boolean; standalone?: boolean; initialized?: boolean }, known?: SessionRecord): Promise<Touched | undefined> {
    return this.records.touch(sessionId, ttlMs, options, known);
  }

  async end(sessionId: string): Promise<void> {
    await this.records.end(sessionId);
    this.router.broadcast({ kind: 'ended', sessionId });
  }

  async appendStandalone(sessionId: string, data: string): Promise<void> {
    await this.records.appendStandalone(sessionId, data);
  }

  async follow(sessionId: string, streamId: string, afterSeq: number): Promise<Follow | undefined> {
    const follower = new StreamFollower({ range: (after, to) => this.events.range(sessionId, streamId, after, to), onError: this.onError }, afterSeq);
    this.followers.add(follower);
    follower.onClose = () => {
      this.followers.delete(follower);
      this.watched.delete(follower);
    };
    try {
      follower.listening(await this.router.listen(this.keys.events(sessionId, streamId), (m) => follower.message(m)));
      let endAt: number | undefined;
      if (streamId !== '0') {
        let meta = await this.events.meta(sessionId, streamId);
        if (meta === undefined) {
          follower.close();
          return undefined;
        }
        if (meta.done === undefined && !(await this.lease.alive([meta.owner])).get(meta.owner)) {
          await this.events.fail(sessionId, streamId);
          meta = (await this.events.meta(sessionId, streamId)) ?? meta;
        }
        endAt = meta.done;
        if (endAt === undefined) this.watched.set(follower, { sessionId, streamId, owner: meta.owner });
      }
      follower.caughtUp(await this.events.range(sessionId, streamId, afterSeq), endAt);
      if (follower.ended) follower.close();
      return follower;
    } catch (error) {
      follower.close();
      throw error;
    }
  }

  route(processId: string, sessionId: string, frame: unknown): void {
    this.router.send(processId, { kind: 'frame', sessionId, frame, from: this.processId });
  }

  broadcast(message: ClusterMessage): void {
    this.router.broadcast(message);
  }

  bind(session: ServerSession, sessionId: string, record: SessionRecord): void {
    this.replicas.set(session, { id: sessionId, record });
  }

  /** Serve `server`'s features from this store (their fan-outs and per-session state). */
  attach(server: Server): void {
    if (server.sharedSessions !== undefined && server.sharedSessions !== this) {
      throw new Error('This server already shares its sessions through another store');
    }
    server.sharedSessions = this;
    this.server = server;
  }

  detach(): void {
    if (this.server?.sharedSessions === this) this.server.sharedSessions = undefined;
    this.server = undefined;
  }

  // ------------------------------------------------------------------------------ SharedSessions

  covers(session: Session): boolean {
    return this.replicas.has(session);
  }

  listChanged(kind: SharedListKind): void {
    this.fanOut({ mode: 'list', arg: kind, data: JSON.stringify({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` }) });
  }

  resourceUpdated(uri: string): void {
    this.fanOut({ mode: 'uri', arg: uri, data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } }) });
  }

  log(level: LoggingLevel, params: JsonObject, options: { requireAccess: boolean; defaultLevel: LoggingLevel }): void {
    this.fanOut({
      mode: 'log',
      arg: level,
      data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params }),
      defaultLevel: options.defaultLevel,
      requireAccess: options.requireAccess,
    });
  }

  async subscribe(session: Session, uri: string, max: number): Promise<void> {
    const replica = this.replicaOf(session);
    const outcome = await this.records.subscribe(replica.id, uri, max);
    if (outcome === 'too-many') throw new McpError(ErrorCode.InvalidParams, `Too many subscriptions: a session may hold at most ${max}`);
    if (outcome === 'gone') throw new McpError(ErrorCode.InvalidRequest, 'The session has ended (it expired or was deleted)');
  }

  async unsubscribe(session: Session, uri: string): Promise<void> {
    await this.records.unsubscribe(this.replicaOf(session).id, uri);
  }

  logLevelOf(session: Session): LoggingLevel | undefined {
    return (this.replicas.get(session)?.record.logLevel ?? undefined) as LoggingLevel | undefined;
  }

  async setLogLevel(session: Session, level: LoggingLevel): Promise<void> {
    const replica = this.replicaOf(session);
    if (!(await this.records.setField(replica.id, 'lvl', level))) throw new McpError(ErrorCode.InvalidRequest, 'The session has ended (it expired or was deleted)');
    replica.record.logLevel = level;
  }

  setLogAccess(session: Session, allowed: boolean): void {
    const replica = this.replicas.get(session);
    if (replica === undefined) return;
    this.records.setField(replica.id, 'la', allowed ? '1' : '0').catch((e: unknown) => this.onError(e as Error));
  }

  // ------------------------------------------------------------------------------ lifetime

  /** Stop: give the lease up (others know at once that requests here will not be answered), unsubscribe. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.detach();
    for (const f of [...this.followers]) f.close();
    await this.lease.stop(true);
    await this.router.close();
  }

  /**
   * For tests: stop as a killed process does, without giving the lease up (it runs out on the
   * clock) and without a word to anyone.
   */
  async kill(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.detach();
    for (const f of [...this.followers]) f.close();
    await this.lease.stop(false);
    await this.router.close();
  }

  /** Open followers (for tests and metrics). */
  get following(): number {
    return this.followers.size;
  }

  private replicaOf(session: Session): Replica {
    const replica = this.replicas.get(session);
    if (replica === undefined) throw new Error('This session is not shared through this store');
    return replica;
  }

  private fanOut(f: FanOut): void {
    if (this.closed) return;
    this.records.fanOut(f).catch((e: unknown) => this.onError(e as Error));
  }

  /** On each heartbeat: end the followed request streams whose process died. */
  private watchOwners(): void {
    if (this.watched.size === 0) return;
    const entries = [...this.watched.entries()];
    const owners = [...new Set(entries.map(([, w]) => w.owner))];
    this.lease.alive(owners).then(
      (alive) => {
        for (const [follower, w] of entries) {
          if (alive.get(w.owner) || !follower.live) continue;
          this.watched.delete(follower);
          this.events.fail(w.sessionId, w.streamId).catch((e: unknown) => this.onError(e as Error));
        }
      },
      (e: unknown) => this.onError(e as Error),
    );
  }
}
