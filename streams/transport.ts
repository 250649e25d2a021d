/**
 * The uniform shape of every transport actor: bytes in and out are its business, MCP is not.
 */
import type { Observable } from 'rxjs';
import type { Frame } from '../lib/jsonrpc/message.js';

/** A frame exceeded the size limit; the transport dropped its bytes and reports only the size. */
export class OversizeFrame {
  /**
   * `head`: the first characters of the frame, when the transport kept them, so the error can
   * name the request's id (and the caller's request fails at once instead of timing out).
   */
  constructor(readonly size: number, readonly limit: number, readonly head?: string) {}
}

/**
 * A frame nested deeper than the limit (option `maxFrameDepth`): its value is dropped before
 * anyone walks it, keeping only what its top level says (the request id, whether to answer).
 */
export class DeepFrame {
  constructor(
    readonly limit: number,
    readonly id: string | number | null,
    readonly respond: boolean,
  ) {}
}

/** How much of an oversize frame is kept to find its id. */
export const OVERSIZE_HEAD_CHARS = 256;

/**
 * What a transport delivers: text still to be decoded (stdio, HTTP, WebSocket), an already
 * parsed value still to be validated (in-memory), or a marker for a frame that was too large.
 */
export type RawFrame = string | OversizeFrame | DeepFrame | object;

export type TransportPhase = 'connecting' | 'open' | 'closing' | 'closed' | 'failed';

export interface TransportState {
  phase: TransportPhase;
  /** Set when phase is 'failed' (or a close carried a reason). */
  error?: Error;
  /** Transport-specific details (exit code, signal, stderr tail, HTTP status...). */
  details?: Record<string, unknown>;
}

export interface SendOptions {
  relatedRequestId?: string | number;
}

export interface Transport {
  /** Inbound frames. Completes when the peer is gone; never errors (failures go to state$). */
  readonly inbound$: Observable<RawFrame>;
  /** Current and future states (a BehaviorSubject-like stream: emits the current one on subscribe). */
  readonly state$: Observable<TransportState>;
  /** Start the transport (spawn, listen, connect). Resolves when open. Idempotent. */
  start(): Promise<void>;
  /**
   * Send one frame. Throws (or rejects) a TransportError when the transport is not open.
   * `relatedRequestId` names the inbound request a frame belongs to (progress, logging, nested
   * requests, the response itself) so that HTTP transports can put it on that request's stream.
   */
  send(frame: Frame, options?: SendOptions): void | Promise<void>;
  /**
   * Who the peer is, when the transport authenticated it (HTTP `authenticate` hook). Handlers
   * see it as `ctx.authInfo`.
   */
  readonly authInfo?: unknown;
  /**
   * The transport carries only session (legacy) revisions (the 2024-11-05 HTTP+SSE transport, a
   * recording that holds a session): a client left to its default era runs `initialize` at once,
   * without probing for 2026-07-28.
   */
  readonly legacyOnly?: boolean;
  /**
   * Each request arrives on a transport of its own (a stateless HTTP server's POST): nothing
   * tells one caller from another between requests unless the transport authenticated them.
   */
  readonly stateless?: boolean;
  /**
   * What the transport knows of its peer (a server's HTTP session id, the kind of channel, the
   * remote address): read per request by interceptors such as OpenTelemetry spans.
   */
  readonly peerFacts?: TransportPeer | undefined;
  /** Close gracefully. Idempotent. */
  close(): Promise<void>;
}

/** A transport's peer, as far as it knows. */
export interface TransportPeer {
  /** The HTTP `Mcp-Session-Id` (none on stdio, none when stateless). */
  readonly sessionId?: string | undefined;
  /** `pipe` (stdio) or `tcp` (HTTP, WebSocket): the conventions' `network.transport`. */
  readonly transport?: 'pipe' | 'tcp' | undefined;
  /** `http` or `websocket`. */
  readonly protocolName?: string | undefined;
  readonly address?: string | undefined;
  readonly port?: number | undefined;
}

/** The answer to a request sent by {@link SessionRestorer}: the response frame's `result` or `error`. */
export interface RestoreAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * What the client re-establishes on a new session after a transparent re-initialization (its
 * resource subscriptions, its log level). It gets a way to send requests on the new session and
 * runs before any other frame goes out on it; a request that cannot be sent rejects.
 */
export type SessionRestorer = (request: (method: string, params?: Record<string, unknown>) => Promise<RestoreAnswer>) => Promise<void>;
