/**
 * The client's era as one object: how a request is sent and answered, how the server is checked
 * and described, how the client hears of changes (a session's notifications and
 * `resources/subscribe`, or the 2026-07-28 `subscriptions/listen` stream), and what tasks ride on.
 * `ClientCore` holds the legacy era until negotiation settles on 2026-07-28, then the modern one,
 * and hands every era-dependent step to it instead of branching.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
import type { PeerInfo } from '../../machines/session.machine.js';
import type { DiscoveredServer, RequestWatcher, TraceOptions } from '../client-modern/modern-era.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { Tool } from '../protocol/schema/index.js';
import type { RequestOptions } from '../session/request-registry.js';

/** Options of one request in either era. */
export type EraRequestOptions = RequestOptions & TraceOptions;

/** What differs between the session era (an `initialize` session) and the modern one (2026-07-28, per request). */
export interface ClientEra {
  /** 'modern' or 'legacy'; undefined while a legacy client is not connected yet. */
  readonly name: 'modern' | 'legacy' | undefined;
  readonly serverInfo: PeerInfo | undefined;
  readonly serverCapabilities: Record<string, unknown> | undefined;
  readonly protocolVersion: string | undefined;
  /** The server offered the tasks extension (modern era only). */
  readonly tasksExtension: boolean;
  /**
   * Send one request and wait for its result (modern: with the `_meta` envelope and input rounds).
   * `watcher` (with an inspector): the request's actor, told of its input rounds.
   */
  request(method: string, params: JsonObject | undefined, options: EraRequestOptions | undefined, watcher?: RequestWatcher): Promise<JsonObject>;
  /** Check that the server answers (`ping`, or a fresh `server/discover` in 2026-07-28, which has no ping). */
  ping(options: RequestOptions | undefined): Promise<void>;
  /** The keep-alive's check. */
  keepAliveProbe(timeout: number): Promise<unknown>;
  /** The server's versions, capabilities and identity. */
  discover(options: EraRequestOptions | undefined): Promise<DiscoveredServer>;
  /** Start hearing of a resource's updates (`resources/subscribe`, or the listen stream). */
  subscribe(uri: string, options: RequestOptions | undefined): Promise<void>;
  /** Stop hearing of them once `ready` (the subscribe) settled. */
  unsubscribe(uri: string, ready: Promise<unknown>): void;
  /** What the client wants to hear of changed (live lists, subscriptions): the listen stream follows. */
  refreshListen(): void;
  /** The exposed roots changed (the session era tells the server; 2026-07-28 has no such notification). */
  rootsChanged(): void;
  /** The log level changed: true when the server must be told (`logging/setLevel`, session era only). */
  readonly setsLogLevel: boolean;
  /** The tools a client can call correctly (modern: those whose `x-mcp-header` annotations are valid). */
  admitTools(tools: Tool[]): Tool[];
  /** A notification that came outside a session (the modern link's). */
  onNotification(method: string, params: JsonObject | undefined): void;
  /** The connection ends: pending work rejects with `error`. */
  stop(error: Error): void;
}
