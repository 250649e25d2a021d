/**
 * The WebSocket transport, server side: accepts WebSocket upgrades (subprotocol `mcp`) on an
 * existing HTTP server or on its own port, and runs one {@link ServerSession} per connection.
 * The wire format is described in `websocket-client.ts`.
 *
 * Before upgrading it checks, in order: the path, the Host header (DNS rebinding protection),
 * the Origin header, the subprotocol. A refused upgrade gets a plain-text HTTP answer saying why.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#custom-transports
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */
import { createServer as createHttpServer, STATUS_CODES, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Observable, Subject, filter } from 'rxjs';
import WebSocket, { WebSocketServer } from 'ws';
import { systemClock, type Clock } from '../clock.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../jsonrpc/codec.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { Frame, RequestId } from '../jsonrpc/message.js';
import type { Server, ServerSession } from '../server.js';
import { messagesOf, methodsOf, type Authenticate, type AuthFailure, type AuthorizeMessages, type AuthOutcome } from '../../streams/http-auth.js';
import type { RawFrame, Transport } from '../../streams/transport.js';
import { MCP_SUBPROTOCOL, SocketTransport } from '../../streams/websocket-client.js';

export interface WebSocketServerOptions {
  /** Attach to this HTTP(S) server: only upgrades for `path` are handled, everything else is left alone. */
  httpServer?: HttpServer | HttpsServer;
  /** The endpoint's path. Default `/mcp`. */
  path?: string;
  /** Listen on this port instead (0: an ephemeral one; see `address()`/`url`). */
  port?: number;
  /** The interface to listen on with `port`. Default `127.0.0.1`. */
  host?: string;
  /**
   * Origins (`scheme://host[:port]`) allowed to connect, or `'*'` for any. Default: requests
   * without an Origin header, plus localhost origins when the server is bound to loopback.
   */
  allowedOrigins?: string[];
  /**
   * Host header values allowed (`host` or `host:port`). Default: when bound to loopback, only
   * `localhost`, `127.0.0.1` and `[::1]` (DNS rebinding protection); otherwise any.
   */
  allowedHosts?: string[];
  /** Largest accepted inbound message in bytes; larger ones close with 1009. Default 4 MiB. */
  maxPayload?: number;
  /** Ping each client every `keepAliveMs`; a missed pong fails its session. Default 30 000; 0 turns it off. */
  keepAliveMs?: number;
  /** The clock the keep-alive (and token expiry) runs on. Default the system clock. */
  clock?: Clock;
  /**
   * Authenticates the upgrade request (e.g. `requireBearerAuth(...)`); a refusal is the HTTP answer
   * to the upgrade (401/403/400 with its `WWW-Authenticate`). `authInfo` becomes `ctx.authInfo`.
   * When it has a numeric `expiresAt` (seconds since the epoch), the connection is closed with
   * 1008 when that passes: the client reconnects with a fresh token.
   */
  authenticate?: Authenticate;
  /**
   * Decides on each inbound message by its method (per-method scopes); a refused request is
   * answered with a JSON-RPC error and not handled. Default the hook's own `authorizeMessages`.
   */
  authorizeMessages?: AuthorizeMessages;
}

/** Why an upgrade was refused (see `refused$`). */
export interface RefusedUpgrade {
  status: number;
  reason: string;
  url: string | undefined;
  origin: string | undefined;
  host: string | undefined;
  remoteAddress: string | undefined;
}

/** A running WebSocket endpoint for an MCP {@link Server}. */
export interface McpWebSocketServer {
  /** Each session as it opens on this endpoint. Completes on `close()`. */
  readonly sessions$: Observable<ServerSession>;
  /** Sessions open on this endpoint now. */
  readonly sessions: ReadonlySet<ServerSession>;
  /** Each refused upgrade, with the reason. Completes on `close()`. */
  readonly refused$: Observable<RefusedUpgrade>;
  /** Where the endpoint listens (of the attached server, or its own). */
  address(): AddressInfo;
  /** `ws://host:port/path` of the endpoint. */
  readonly url: string;
  /** Stop accepting, close every connection with 1001 and, if it owns one, its HTTP server. */
  close(): Promise<void>;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopbackAddress(address: string): boolean {
  return address === '::1' || address === 'localhost' || /^(::ffff:)?127\./.test(address);
}

/** The hostname part of a Host header (`[::1]:80` → `[::1]`, `a.b:80` → `a.b`). */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Write a plain-text HTTP refusal on a socket that asked for an upgrade, then close it. */
function refuseUpgrade(socket: Duplex, status: number, message: string, extraHeaders = ''): void {
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${message}\n`;
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      extraHeaders +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      '\r\n' +
      body,
  );
}

class WebSocketEndpoint implements McpWebSocketServer {
  private readonly path: string;
  private readonly maxPayload: number;
  private readonly keepAliveMs: number;
  private readonly clock: Clock;
  private readonly allowedOrigins: Set<string> | 'any' | undefined;
  private readonly allowedHosts: Set<string> | undefined;
  private readonly authenticate: Authenticate | undefined;
  private readonly authorizeMessages: AuthorizeMessages | undefined;
  private readonly wss: WebSocketServer;
  private readonly httpServer: HttpServer | HttpsServer;
  private readonly owned: boolean;
  private readonly transports = new Set<SocketTransport>();
  private readonly live = new Set<ServerSession>();
  private readonly sessionSubject = new Subject<ServerSession>();
  private readonly refusedSubject = new Subject<RefusedUpgrade>();
  private closing: Promise<void> | undefined;

  readonly sessions$ = this.sessionSubject.asObservable();
  readonly refused$ = this.refusedSubject.asObservable();

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => this.upgrade(req, socket, head);

  constructor(
    private readonly server: Server,
    opts: WebSocketServerOptions,
  ) {
    this.path = opts.path ?? '/mcp';
    this.maxPayload = opts.maxPayload ?? DEFAULT_MAX_FRAME_BYTES;
    this.keepAliveMs = opts.keepAliveMs ?? 30_000;
    this.clock = opts.clock ?? systemClock;
    this.allowedOrigins = opts.allowedOrigins
      ? opts.allowedOrigins.includes('*')
        ? 'any'
        : new Set(opts.allowedOrigins.map((o) => normalizeOrigin(o) ?? o.toLowerCase()))
      : undefined;
    this.allowedHosts = opts.allowedHosts ? new Set(opts.allowedHosts.map((h) => h.toLowerCase())) : undefined;
    this.authenticate = opts.authenticate;
    this.authorizeMessages = opts.authorizeMessages ?? opts.authenticate?.authorizeMessages;
    this.wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: this.maxPayload,
      handleProtocols: (protocols) => (protocols.has(MCP_SUBPROTOCOL) ? MCP_SUBPROTOCOL : false),
    });
    if (opts.httpServer) {
      this.httpServer = opts.httpServer;
      this.owned = false;
    } else {
      this.owned = true;
      this.httpServer = createHttpServer((req, res) => {
        const body = `This is an MCP WebSocket endpoint: connect to ${this.path} with a WebSocket upgrade and the "${MCP_SUBPROTOCOL}" subprotocol.\n`;
        res.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', Upgrade: 'websocket', Connection: 'Upgrade' });
        res.end(body);
      });
    }
    this.httpServer.on('upgrade', this.onUpgrade);
  }

  /** Own port only: start listening. */
  listen(port: number, host: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.httpServer.once('error', onError);
      this.httpServer.listen(port, host, () => {
        this.httpServer.off('error', onError);
        resolve();
      });
    });
  }

  get sessions(): ReadonlySet<ServerSession> {
    return this.live;
  }

  address(): AddressInfo {
    const address = this.httpServer.address();
    if (address === null || typeof address === 'string') {
      throw new Error('The HTTP server is not listening on a TCP port.');
    }
    return address;
  }

  get url(): string {
    const { address, family, port } = this.address();
    const host = family === 'IPv6' || address.includes(':') ? `[${address}]` : address;
    const scheme = 'setSecureContext' in this.httpServer ? 'wss' : 'ws';
    return `${scheme}://${host}:${port}${this.path}`;
  }

  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.httpServer.off('upgrade', this.onUpgrade);
    const transports = [...this.transports].map((t) => t.closeWith(1001, 'MCP server shutting down'));
    this.closing = Promise.all(transports).then(async () => {
      this.wss.close();
      if (this.owned && this.httpServer.listening) {
        await new Promise<void>((resolve) => {
          this.httpServer.close(() => resolve());
          this.httpServer.closeAllConnections();
        });
      }
      this.sessionSubject.complete();
      this.refusedSubject.complete();
    });
    return this.closing;
  }

  private boundToLoopback(): boolean {
    const address = this.httpServer.address();
    if (address === null) return true;
    // A pipe or Unix socket is local by construction.
    if (typeof address === 'string') return true;
    return isLoopbackAddress(address.address);
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    } catch {
      pathname = '';
    }
    if (pathname !== this.path) {
      // Attached: another listener may serve that path. Our own port: nobody will.
      if (this.owned) this.refuse(req, socket, 404, `No MCP endpoint at ${pathname || req.url}; the endpoint is ${this.path}.`);
      return;
    }
    socket.on('error', () => socket.destroy());
    if (this.closing) {
      this.refuse(req, socket, 503, 'The MCP server is shutting down.');
      return;
    }
    const loopback = this.boundToLoopback();
    const hostProblem = this.checkHost(req.headers.host, loopback);
    if (hostProblem) {
      this.refuse(req, socket, 403, hostProblem);
      return;
    }
    const originProblem = this.checkOrigin(req.headers.origin, loopback);
    if (originProblem) {
      this.refuse(req, socket, 403, originProblem);
      return;
    }
    const offered = (req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    if (!offered.includes(MCP_SUBPROTOCOL)) {
      this.refuse(
        req,
        socket,
        400,
        `This endpoint requires the WebSocket subprotocol "${MCP_SUBPROTOCOL}"` +
          (offered.length ? `; the client offered ${offered.map((p) => `"${p}"`).join(', ')}.` : '; the client offered none.'),
      );
      return;
    }
    if (this.authenticate === undefined) {
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req, undefined));
      return;
    }
    const decided = (outcome: AuthOutcome): void => {
      if (socket.destroyed) return;
      if (this.closing) {
        this.refuse(req, socket, 503, 'The MCP server is shutting down.');
        return;
      }
      if (!outcome.ok) {
        this.refuseAuth(req, socket, outcome);
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req, outcome.authInfo));
    };
    const failed = (): void => this.refuse(req, socket, 500, 'Authentication failed on the server.');
    try {
      const outcome = this.authenticate(req);
      if (outcome instanceof Promise) outcome.then(decided, failed);
      else decided(outcome);
    } catch {
      failed();
    }
  }

  private refuseAuth(req: IncomingMessage, socket: Duplex, outcome: AuthFailure): void {
    // Header values never carry CR/LF into the raw response.
    const challenge = outcome.wwwAuthenticate?.replace(/[\r\n]/g, ' ');
    const extra = challenge !== undefined ? `WWW-Authenticate: ${challenge}\r\n` : '';
    const reason = outcome.status === 401 ? 'Unauthorized: authentication required' : outcome.status === 403 ? 'Forbidden: insufficient permissions' : 'Bad Request: malformed credentials';
    refuseUpgrade(socket, outcome.status, reason, extra);
    if (this.refusedSubject.observed) {
      this.refusedSubject.next({
        status: outcome.status,
        reason,
        url: req.url,
        origin: req.headers.origin,
        host: req.headers.host,
        remoteAddress: req.socket.remoteAddress,
      });
    }
  }

  private checkHost(host: string | undefined, loopback: boolean): string | undefined {
    if (this.allowedHosts) {
      const value = (host ?? '').toLowerCase();
      if (this.allowedHosts.has(value) || this.allowedHosts.has(hostnameOf(value))) return undefined;
      return `Host "${host ?? ''}" is not allowed (allowedHosts: ${[...this.allowedHosts].join(', ')}).`;
    }
    if (!loopback) return undefined;
    if (host === undefined) return 'A Host header is required.';
    if (LOOPBACK_NAMES.has(hostnameOf(host.toLowerCase()))) return undefined;
    return `Host "${host}" is not allowed: this server is bound to loopback and accepts only localhost hosts (DNS rebinding protection). Add it to allowedHosts if it is expected.`;
  }

  private checkOrigin(origin: string | undefined, loopback: boolean): string | undefined {
    if (origin === undefined || this.allowedOrigins === 'any') return undefined;
    const normalized = normalizeOrigin(origin);
    if (this.allowedOrigins) {
      if (normalized !== undefined && this.allowedOrigins.has(normalized)) return undefined;
      return `Origin "${origin}" is not allowed (allowedOrigins: ${[...this.allowedOrigins].join(', ')}).`;
    }
    if (loopback && normalized !== undefined && LOOPBACK_NAMES.has(new URL(normalized).hostname)) return undefined;
    return `Origin "${origin}" is not allowed: ${
      loopback ? 'only localhost origins may connect to a server bound to loopback' : 'no allowedOrigins are configured'
    }. Add it to allowedOrigins if it is expected.`;
  }

  private refuse(req: IncomingMessage, socket: Duplex, status: number, reason: string): void {
    refuseUpgrade(socket, status, reason);
    if (this.refusedSubject.observed) {
      this.refusedSubject.next({
        status,
        reason,
        url: req.url,
        origin: req.headers.origin,
        host: req.headers.host,
        remoteAddress: req.socket.remoteAddress,
      });
    }
  }

  private accept(ws: WebSocket, req: IncomingMessage, authInfo: unknown): void {
    const remote = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`;
    const transport = new SocketTransport(
      {
        side: 'server',
        label: remote,
        maxPayload: this.maxPayload,
        keepAliveMs: this.keepAliveMs,
        clock: this.clock,
        details: { remoteAddress: req.socket.remoteAddress, origin: req.headers.origin, url: req.url },
      },
      ws,
    );
    this.transports.add(transport);
    let expiry: unknown;
    transport.state$.subscribe({
      complete: () => {
        this.transports.delete(transport);
        if (expiry !== undefined) this.clock.clearTimeout(expiry);
      },
    });
    if (this.closing) {
      void transport.closeWith(1001, 'MCP server shutting down');
      return;
    }
    const expiresAt = (authInfo as { expiresAt?: unknown } | undefined)?.expiresAt;
    if (typeof expiresAt === 'number') {
      // The upgrade's token was checked once; the connection does not outlive it.
      const arm = (): void => {
        const left = expiresAt * 1000 - this.clock.now();
        if (left <= 0) {
          void transport.closeWith(1008, 'The access token expired; reconnect with a fresh one');
          return;
        }
        // Timers longer than 2^31-1 ms fire at once in node: wait in steps.
        expiry = this.clock.setTimeout(arm, Math.min(left, 0x7fffffff), 'websocket:token-expiry');
      };
      arm();
    }
    const connected = authInfo === undefined ? transport : authorizedTransport(transport, authInfo, this.authorizeMessages);
    this.server.connect(connected).then(
      (session) => {
        if (session.currentPhase === 'closed' || session.currentPhase === 'failed') return;
        this.live.add(session);
        session.state$.subscribe({ complete: () => this.live.delete(session) });
        this.sessionSubject.next(session);
      },
      () => void transport.closeWith(1011, 'The MCP session could not start'),
    );
  }
}

/**
 * The transport a session sees on an authenticated connection: it carries `authInfo` and, with a
 * per-message step, answers refused requests with an error instead of passing them on.
 */
function authorizedTransport(transport: SocketTransport, authInfo: unknown, authorize: AuthorizeMessages | undefined): Transport {
  const allowed = (frame: RawFrame): boolean => {
    if (authorize === undefined || typeof frame !== 'string') return true;
    let value: unknown;
    try {
      value = JSON.parse(frame);
    } catch {
      return true; // the session answers the parse error
    }
    const refused = authorize(methodsOf(value), authInfo, messagesOf(value));
    if (refused === undefined) return true;
    const ids: RequestId[] = [];
    for (const m of Array.isArray(value) ? value : [value]) {
      const id = (m as { id?: unknown; method?: unknown } | null)?.id;
      if (typeof (m as { method?: unknown } | null)?.method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
    }
    const message = refused.status === 403 ? 'Forbidden: the access token lacks a scope this request needs' : 'Unauthorized';
    const data = { status: refused.status, ...(refused.wwwAuthenticate !== undefined ? { wwwAuthenticate: refused.wwwAuthenticate } : {}) };
    const errors = ids.map((id) => ({ jsonrpc: '2.0' as const, id, error: { code: ErrorCode.InvalidRequest, message, data } }));
    if (errors.length > 0) {
      try {
        void transport.send((Array.isArray(value) ? errors : errors[0]) as Frame);
      } catch {
        // closing: nothing to answer on
      }
    }
    return false;
  };
  return {
    inbound$: authorize === undefined ? transport.inbound$ : transport.inbound$.pipe(filter(allowed)),
    state$: transport.state$,
    authInfo,
    start: () => transport.start(),
    send: (frame) => transport.send(frame),
    close: () => transport.close(),
  };
}

/**
 * Serve `server` over WebSocket: on an existing HTTP(S) server (`{ httpServer, path }`, handling
 * only upgrades for its path) or on its own port (`{ port, host }`, default host 127.0.0.1).
 * Each accepted connection becomes one server session via `server.connect(transport)`. Upgrades
 * are refused with 403 for a disallowed Host or Origin, 400 without the `mcp` subprotocol, and
 * (own port) 404 for another path, 503 once closing. Resolves once listening.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#custom-transports
 */
export async function createWebSocketServer(server: Server, opts: WebSocketServerOptions): Promise<McpWebSocketServer> {
  if (!opts.httpServer && opts.port === undefined) {
    throw new TypeError('createWebSocketServer needs either `httpServer` (to attach to) or `port` (to listen on).');
  }
  if (opts.httpServer && opts.port !== undefined) {
    throw new TypeError('createWebSocketServer takes `httpServer` or `port`, not both.');
  }
  const endpoint = new WebSocketEndpoint(server, opts);
  if (!opts.httpServer) await endpoint.listen(opts.port!, opts.host ?? '127.0.0.1');
  return endpoint;
}
