/**
 * What a Streamable HTTP server needs to serve sessions together with other processes (behind a
 * load balancer without sticky sessions): a store every process shares. Types only: the Redis
 * implementation is `lib/redis/http-sessions.ts`; without one the server keeps everything in
 * memory, as before.
 *
 * Any process can serve any request of a session: it finds the session's record in the store and
 * serves it on a copy of the ServerSession it builds from the record (a *replica*, placed in
 * `operating` as a stateless session is). What a session sends outside a POST (the standalone
 * stream) goes through the store, in one order, to whichever process holds its GET stream; a
 * request stream is written by the process running the request and can be resumed anywhere.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
import type { Observable } from 'rxjs';
import type { Server, ServerSession } from '../server.js';
import type { EventStore, StoredEvent } from '../../streams/event-store.js';

/** A session as the store keeps it: what a replica needs to serve it. */
export interface SessionRecord {
  /** Random per session: the first part of its event ids. */
  tag: string;
  /** The identity the session is bound to (see `StreamableHttpOptions.identify`); null when none. */
  identity: string | null;
  /** The negotiated protocol revision. */
  revision: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string; [key: string]: unknown };
  /** What the server declared to this session in its initialize result. */
  serverCapabilities: Record<string, unknown>;
  /** The level the client set with `logging/setLevel`; null when it never did. */
  logLevel: string | null;
  /** The client sent `notifications/initialized` (to whichever process). */
  initialized: boolean;
  /** A standalone GET stream was opened once: requests to the client have a way to it. */
  standaloneOpened: boolean;
  /** The last sequence number used on the standalone stream. */
  standaloneSeq: number;
}

/** What a touch found: the record, and a request stream number when one was asked for. */
export interface Touched {
  record: SessionRecord;
  /** A new request stream number, unique in the session across processes. */
  streamNo?: number;
}

/** The live part of a followed stream. */
export interface FollowHandlers {
  /** The next event, in order. */
  event(seq: number, data: string): void;
  /** A request stream ended (its last event was delivered). */
  end(): void;
}

/** A stream followed from the store, from some event on. */
export interface Follow {
  /** The events after the one asked for that the store holds now, in order. */
  readonly backlog: readonly StoredEvent[];
  /** The stream already ended with the backlog's last event (nothing live will follow). */
  readonly ended: boolean;
  /** From now on, deliver what comes after the backlog. */
  start(handlers: FollowHandlers): void;
  /** Stop following (idempotent). */
  close(): void;
}

/** A message of another process for the sessions here. */
export type ClusterMessage =
  /** The session ended everywhere (DELETE on some process). */
  | { kind: 'ended'; sessionId: string }
  /** A client message that belongs to a process here: an answer to our request, a cancellation, roots changed. */
  | { kind: 'frame'; sessionId: string; frame: unknown; from: string }
  /** Another process opened the session's standalone stream: ours must end (one at a time). */
  | { kind: 'standalone-taken'; sessionId: string; by: string };

/** The event store of a cluster: request streams know their owner and their end. */
export interface ClusterEventStore extends EventStore {
  /** A request stream opened on this process for `requestIds` (before any of its events is kept). */
  streamOpened(sessionId: string, streamId: string, requestIds: readonly (string | number)[]): void | Promise<void>;
  /** A request stream's last event is `lastSeq` (followers elsewhere end it there). */
  streamEnded(sessionId: string, streamId: string, lastSeq: number): void | Promise<void>;
}

/** A store shared by the processes of one deployment, as one HTTP server core uses it. */
export interface SessionCluster {
  /** This process's id: our requests to clients carry it (`<processId>.<n>`) so answers find us. */
  readonly processId: string;
  /** The heartbeat cadence: replicas in use renew their session's time to live about this often. */
  readonly heartbeatMs: number;
  /** Messages for the sessions of this process. */
  readonly messages$: Observable<ClusterMessage>;
  readonly events: ClusterEventStore;
  /** Keep a new session (its initialize succeeded); resolves before the answer may go out. */
  create(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void>;
  /**
   * The session's record with its time to live renewed (`ttlMs`, Infinity for none), or undefined
   * when it is gone (expired or deleted: everywhere at once). `stream` allocates a request stream
   * number; `standalone` marks the standalone stream opened; `initialized` records the client's
   * `notifications/initialized`. `known`: the record as last read here (only what changes is
   * read again).
   */
  touch(sessionId: string, ttlMs: number, options?: { stream?: boolean; standalone?: boolean; initialized?: boolean }, known?: SessionRecord): Promise<Touched | undefined>;
  /** End the session everywhere: its keys go, every process drops its replica and streams. */
  end(sessionId: string): Promise<void>;
  /** Send a message on the session's standalone stream (the store numbers it). */
  appendStandalone(sessionId: string, data: string): Promise<void>;
  /**
   * Follow a stream after event `afterSeq`: what the store holds now, then what comes. A request
   * stream whose process died (its lease ran out) before answering gets a JSON-RPC error for each
   * unanswered request, then ends. Undefined when the stream never existed.
   */
  follow(sessionId: string, streamId: string, afterSeq: number): Promise<Follow | undefined>;
  /** Hand a client's message to process `processId` (an answer to one of its requests). */
  route(processId: string, sessionId: string, frame: unknown): void;
  /** Tell every other process (a cancellation, a standalone stream taken, roots changed). */
  broadcast(message: ClusterMessage): void;
  /** A replica of `sessionId` serves here with `record` (called again after each touch). */
  bind(session: ServerSession, sessionId: string, record: SessionRecord): void;
  /** Serve `server`'s features from the store too (its fan-outs and per-session state: `Server.sharedSessions`). */
  attach(server: Server): void;
  /** Stop using the cluster for that server (the store itself stays open: its owner closes it). */
  detach(): void;
}

/** What `createStreamableHttpHandler(server, { store })` accepts: a store with an HTTP side. */
export interface HttpSessionStore {
  readonly httpSessions: SessionCluster;
}
