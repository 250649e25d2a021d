/**
 * The options and the public shape of the Streamable HTTP client transport
 * (`createStreamableHttpClientTransport`), apart from its implementation.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import type { HttpClientAuth } from '../lib/auth/oauth-client.js';
import type { Clock } from '../lib/clock.js';
import type { RequestId } from '../lib/jsonrpc/message.js';
import type { ParamHeaderSource } from '../lib/client-modern/wire-headers.js';
import type { ReconnectOptions } from '../machines/reconnect.machine.js';
import type { HeadersOption } from './http-client-common.js';
import type { FetchLike } from './http-fetch.js';
import type { SessionRestorer, Transport } from './transport.js';

/** Which wire protocol the transport speaks. */
export type HttpTransportMode = 'streamable' | 'legacy-sse';

export interface StreamableHttpClientTransportOptions {
  /**
   * Extra headers for every request: a fixed set, or a function called per request (where an
   * OAuth client adds `Authorization`). The transport's own headers win over these.
   */
  headers?: HeadersOption;
  /** The fetch to use (wrap it to watch or change requests). Default: {@link undiciFetch}. */
  fetch?: FetchLike;
  /**
   * OAuth 2.1 authorization (`lib/auth/`): every request (POST, GET, DELETE) carries
   * `Authorization: Bearer` once a token exists; a 401 runs the authorization flow (or a refresh)
   * and a 403 `insufficient_scope` a step-up, then the request is sent again. A user's
   * authorization (`createHeadlessOAuthProvider`, `InMemoryOAuthClientProvider`) or a client
   * without a user (`createClientCredentialsProvider`, `createCrossAppAccessProvider`), or an
   * `OAuthClient` made from one. When the flow
   * fails, requests fail with the {@link AuthorizationError}'s message. Without it the
   * transport sends no credentials of its own.
   *
   * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
   */
  auth?: HttpClientAuth;
  /** How dropped SSE streams are resumed. Defaults: 6 attempts, 1 s → 30 s, ×2, jitter 0.3. */
  reconnect?: Partial<ReconnectOptions>;
  /** The clock reconnect waits run on (pass the session's; a ManualClock in tests). */
  clock?: Clock;
  /** Source of the backoff jitter, in [0, 1). Default Math.random. */
  random?: () => number;
  /** On a 404 for a session, initialize a new session and retry (default true); else fail. */
  reinitializeOnExpiry?: boolean;
  /** When POSTing `initialize` fails with a 4xx, try the HTTP+SSE transport (default true). */
  fallbackToSse?: boolean;
  /** Open the standalone GET stream after initialization (default true). */
  openStandaloneStream?: boolean;
  /** Largest accepted frame in bytes. Default 4 MiB. */
  maxFrameBytes?: number;
  /** Bound on the DELETE that ends the session on close, in ms (default 5000). */
  closeTimeoutMs?: number;
}

/** A {@link Transport} over Streamable HTTP (or, after a fallback, HTTP+SSE). */
export interface StreamableHttpClientTransport extends Transport {
  /** The MCP endpoint. */
  readonly url: URL;
  /** 'streamable' until a fallback switched to 'legacy-sse'. */
  readonly mode: HttpTransportMode;
  /** The `Mcp-Session-Id` the server assigned, if any. */
  readonly sessionId: string | undefined;
  /** The revision sent as `MCP-Protocol-Version` (undefined before initialization or when the revision has no header). */
  readonly protocolVersion: string | undefined;
  /**
   * Where the `x-mcp-header` arguments of a tool are looked up for modern `tools/call` POSTs
   * (`Mcp-Param-*` headers); the client sets it from its tool list.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header
   */
  paramHeaders: ParamHeaderSource | undefined;
  /**
   * Run after a transparent re-initialization (see `reinitializeOnExpiry`), before the new
   * session is used: a new session has none of the old one's state, so the client sets it again
   * (a `Client` sets this when it connects).
   */
  restoreSession: SessionRestorer | undefined;
  /** Close the response stream of a request (modern-era cancellation). */
  closeRequestStream(id: RequestId): boolean;
  /**
   * Who the next request is made as: a digest of the Authorization header it will carry (the
   * `auth` client's current token, or the `headers` option's), undefined without one. The client
   * keeps `private` cached results per value.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching#cache-scope-field
   */
  authContext(): Promise<string | undefined>;
}

