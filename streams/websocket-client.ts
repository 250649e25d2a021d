/**
 * The WebSocket transport, client side, and the socket core both sides share.
 *
 * A custom MCP transport (the spec allows them and asks that they be documented):
 * - Connection: an HTTP upgrade (RFC 6455) to the server's endpoint (default path `/mcp`) asking
 *   for the subprotocol `mcp`; the server refuses any handshake that does not offer it.
 * - Messages: one JSON-RPC message (or batch) per UTF-8 text frame, in both directions. Binary
 *   frames are refused: the receiver closes with 1003 and fails. A frame larger than the
 *   receiver's `maxPayload` (default 4 MiB) closes the connection with 1009.
 * - Liveness: optional WebSocket ping/pong every `keepAliveMs`; a ping still unanswered when the
 *   next one is due fails the transport (the socket is terminated).
 * - Shutdown: either side closes with 1000 (the server with 1001 when it shuts down). Any other
 *   close code fails the transport with a {@link TransportError} naming the code and the reason.
 *
 * The lifecycle is MCP's own: the client sends `initialize` as its first frame.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#custom-transports
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { systemClock, type Clock } from '../lib/clock.js';
import { TransportError } from '../lib/errors.js';
import { DEFAULT_MAX_FRAME_BYTES, encodeFrame } from '../lib/jsonrpc/codec.js';
import type { Frame } from '../lib/jsonrpc/message.js';
import { HotInbound, StateCell } from './memory.js';
import type { RawFrame, Transport, TransportState } from './transport.js';

/** The WebSocket subprotocol both ends require. */
export const MCP_SUBPROTOCOL = 'mcp';

/** The name of the keep-alive timer on the transport's clock. */
export const KEEPALIVE_TIMER = 'websocket:keepalive';

/** Above this many buffered bytes, `send()` returns a promise that resolves once the frame is written. */
const HIGH_WATER_BYTES = 1024 * 1024;

/** How much of a refused handshake's response body goes into the error message. */
const MAX_REFUSAL_BODY_CHARS = 500;

/** What each close code means and what to do about it. */
const CLOSE_CODES: Record<number, [label: string, advice: string]> = {
  1000: ['normal closure', 'the peer closed the connection normally.'],
  1001: ['going away', 'the peer is shutting down or navigating away.'],
  1002: ['protocol error', 'the peer saw a WebSocket protocol violation; check that nothing between the two ends (a proxy) rewrites frames.'],
  1003: ['unsupported data', 'the peer refused the type of a frame; MCP over WebSocket sends each JSON-RPC message as a text frame, never binary.'],
  1005: ['no status', 'the peer closed without giving a code.'],
  1006: ['abnormal closure', 'the connection dropped without a close handshake (the peer crashed or was killed, the network failed, or a proxy cut it); reconnect and start a new session.'],
  1007: ['invalid frame payload', 'a text frame was not valid UTF-8; send JSON text encoded as UTF-8.'],
  1008: ['policy violation', 'the peer closed for a policy violation (for example authentication, authorization or origin rules); check the credentials and the peer\'s access policy.'],
  1009: ['message too big', 'a message exceeded the peer\'s size limit; send smaller messages or raise the peer\'s `maxPayload`.'],
  1010: ['mandatory extension', 'the server did not negotiate an extension the client requires.'],
  1011: ['internal error', 'the peer hit an unexpected internal error; check its logs, then reconnect with a new session.'],
  1012: ['service restart', 'the server is restarting; reconnect shortly.'],
  1013: ['try again later', 'the server is overloaded; retry later, with backoff.'],
  1014: ['bad gateway', 'a gateway between the two ends got an invalid response upstream; check the proxy.'],
  1015: ['TLS handshake failure', 'the TLS handshake failed; check the certificates.'],
};

/** A close code's name ("internal error"), or a description of its range. */
export function describeCloseCode(code: number): string {
  const known = CLOSE_CODES[code];
  if (known) return known[0];
  if (code >= 4000 && code <= 4999) return 'application-defined';
  if (code >= 3000 && code <= 3999) return 'registered (library/framework)';
  return 'unknown';
}

/** Closing with these codes is a normal end ('closed'); any other code fails the transport. */
function isCleanClose(code: number): boolean {
  return code === 1000 || code === 1001 || code === 1005;
}

type Side = 'client' | 'server';
const peerOf = (side: Side): Side => (side === 'client' ? 'server' : 'client');

/** The error for a connection the peer (or the network) closed with an unclean code. @internal */
export function closeCodeError(code: number, reason: string, side: Side, cause?: Error): TransportError {
  const peer = peerOf(side);
  const known = CLOSE_CODES[code];
  const advice = known
    ? known[1].replace(/\bthe peer\b/g, `the ${peer}`)
    : code >= 4000 && code <= 4999
      ? `the ${peer} used an application-defined code; see its documentation.`
      : `the ${peer} closed with an unexpected code.`;
  const why = reason !== '' ? `, reason "${reason}"` : '';
  const underlying = cause && code === 1006 ? ` (${cause.message})` : '';
  return new TransportError(
    `The WebSocket connection to the ${peer} was closed with code ${code} (${describeCloseCode(code)})${why}${underlying}: ${advice}`,
    { code, reason, ...(cause ? { cause: cause.message } : {}) },
  );
}

/** Options of the socket core. @internal */
export interface SocketTransportOptions {
  side: Side;
  /** Names the endpoint in error messages (a URL, or the peer's address). */
  label: string;
  maxPayload: number;
  /** 0 or less: no keep-alive. */
  keepAliveMs: number;
  clock: Clock;
  /** Extra details on the 'open' state. */
  details?: Record<string, unknown>;
}

/**
 * A {@link Transport} over one `ws` socket: what both the client transport and each server-side
 * connection are. The socket is given at construction (server, already open) or by `connect()`
 * (client, from `start()`).
 * @internal
 */
export class SocketTransport implements Transport {
  private readonly inbound = new HotInbound<RawFrame>();
  private readonly state: StateCell;
  private ws: WebSocket | undefined;
  private starting: Promise<void> | undefined;
  private settleStart: { resolve: () => void; reject: (e: Error) => void } | undefined;
  private closing: Promise<void> | undefined;
  private socketClosed: Promise<void> = Promise.resolve();
  private resolveSocketClosed: (() => void) | undefined;
  /** We asked for the close: whatever code comes back, it is a normal end. */
  private closeRequested = false;
  /** The last socket error, for the message of an abnormal close. */
  private lastError: Error | undefined;
  /** Set when the server refused the handshake with an HTTP response. */
  private refusal: TransportError | undefined;
  private keepAliveTimer: unknown;
  private awaitingPong = false;

  readonly inbound$ = this.inbound.observable;
  readonly state$;

  constructor(
    private readonly opts: SocketTransportOptions,
    socket?: WebSocket,
    private readonly connect?: () => WebSocket,
  ) {
    this.state = new StateCell({ phase: 'connecting' });
    this.state$ = this.state.observable;
    if (socket) {
      this.attach(socket);
      this.state.set({ phase: 'open', details: opts.details });
    }
  }

  /** The current state (for tests and diagnostics). */
  get current(): TransportState {
    return this.state.current;
  }

  /** The subprotocol the handshake agreed on, once open. */
  get protocol(): string | undefined {
    return this.ws?.protocol || undefined;
  }

  start(): Promise<void> {
    if (this.starting) return this.starting;
    if (this.state.phase === 'open') {
      this.starting = Promise.resolve();
      this.scheduleKeepAlive();
      return this.starting;
    }
    if (this.state.phase !== 'connecting' || !this.connect) {
      return Promise.reject(new TransportError(`Cannot start: the WebSocket transport is ${this.state.phase}.`));
    }
    this.starting = new Promise<void>((resolve, reject) => (this.settleStart = { resolve, reject }));
    let socket: WebSocket;
    try {
      socket = this.connect();
    } catch (e) {
      this.finish({ phase: 'failed', error: new TransportError(`Cannot open a WebSocket to ${this.opts.label}: ${(e as Error).message}`) });
      return this.starting;
    }
    socket.on('unexpected-response', (req: ClientRequest, res: IncomingMessage) => this.onRefused(socket, req, res));
    socket.once('open', () => {
      if (this.state.phase !== 'connecting') return;
      this.state.set({ phase: 'open', details: { url: this.opts.label, protocol: socket.protocol } });
      this.scheduleKeepAlive();
      this.settleStart?.resolve();
      this.settleStart = undefined;
    });
    this.attach(socket);
    return this.starting;
  }

  send(frame: Frame): void | Promise<void> {
    const ws = this.ws;
    if (this.state.phase !== 'open' || !ws || ws.readyState !== WebSocket.OPEN) {
      const phase = this.state.phase === 'open' ? 'closing (the peer started the close handshake)' : this.state.phase;
      throw new TransportError(`Cannot send: the WebSocket transport is ${phase}.`);
    }
    const text = encodeFrame(frame);
    if (ws.bufferedAmount < HIGH_WATER_BYTES) {
      ws.send(text);
      return;
    }
    // Backed up: a producer that awaits this keeps memory bounded.
    return new Promise<void>((resolve) => ws.send(text, () => resolve()));
  }

  close(): Promise<void> {
    return this.closeWith(1000, `${this.opts.side} closing`);
  }

  /** Close with a given code (the server uses 1001 when it shuts down). Idempotent. */
  closeWith(code: number, reason: string): Promise<void> {
    if (this.closing) return this.closing;
    const ws = this.ws;
    this.closeRequested = true;
    this.stopKeepAlive();
    if (!ws) {
      this.finish({ phase: 'closed' });
    } else if (this.state.terminal) {
      // Failed already: drop a socket still open; let a close handshake under way finish.
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
    } else if (ws.readyState === WebSocket.CONNECTING) {
      ws.terminate();
    } else {
      this.state.set({ phase: 'closing' });
      ws.close(code, reason);
    }
    this.closing = this.socketClosed;
    return this.closing;
  }

  // ---------------------------------------------------------------- socket events

  private attach(ws: WebSocket): void {
    this.ws = ws;
    ws.binaryType = 'nodebuffer';
    this.socketClosed = new Promise((resolve) => (this.resolveSocketClosed = resolve));
    ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => this.onMessage(ws, data, isBinary));
    ws.on('pong', () => (this.awaitingPong = false));
    ws.on('error', (err: Error & { code?: string }) => this.onError(err));
    ws.on('close', (code: number, reason: Buffer) => this.onClose(code, reason.toString('utf8')));
  }

  private onMessage(ws: WebSocket, data: WebSocket.RawData, isBinary: boolean): void {
    if (this.state.phase !== 'open' && this.state.phase !== 'closing') return;
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (isBinary) {
      const peer = peerOf(this.opts.side);
      // Close first: reporting the failure makes the session close the transport at once.
      if (ws.readyState === WebSocket.OPEN) ws.close(1003, 'Binary frames are not supported: send JSON-RPC as text frames');
      this.fail(
        new TransportError(
          `Received a binary WebSocket frame (${buffer.length} bytes) from the ${peer} at ${this.opts.label}; ` +
            'MCP over WebSocket carries one JSON-RPC message per text frame. The connection was closed with code 1003 ' +
            `(unsupported data): make the ${peer} send JSON text frames.`,
          { code: 1003, size: buffer.length },
        ),
      );
      return;
    }
    // Text goes through as text: the session parses it and answers -32700 if it is not JSON.
    this.inbound.push(buffer.toString('utf8'));
  }

  private onError(err: Error & { code?: string }): void {
    this.lastError = err;
    if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
      // `ws` already answered with close code 1009.
      const peer = peerOf(this.opts.side);
      this.fail(
        new TransportError(
          `Received a WebSocket message larger than maxPayload (${this.opts.maxPayload} bytes) from the ${peer} at ${this.opts.label}; ` +
            `the connection was closed with code 1009 (message too big). Raise \`maxPayload\` on the ${this.opts.side} ` +
            `or have the ${peer} send smaller messages.`,
          { code: 1009, maxPayload: this.opts.maxPayload },
        ),
      );
    } else if (err.code === 'WS_ERR_INVALID_UTF8') {
      this.fail(
        new TransportError(
          `Received a text frame that is not valid UTF-8 from the ${peerOf(this.opts.side)} at ${this.opts.label}; ` +
            'the connection was closed with code 1007 (invalid frame payload). Send JSON text encoded as UTF-8.',
          { code: 1007 },
        ),
      );
    }
    // Other errors are followed by 'close'; the message of the failure includes them.
  }

  private onClose(code: number, reason: string): void {
    this.stopKeepAlive();
    if (this.state.phase === 'connecting') {
      this.finish(
        this.closeRequested
          ? { phase: 'closed' }
          : { phase: 'failed', error: this.refusal ?? this.connectError() },
      );
    } else if (this.closeRequested || isCleanClose(code)) {
      this.finish({ phase: 'closed', details: { code, reason } });
    } else {
      this.finish({ phase: 'failed', error: closeCodeError(code, reason, this.opts.side, this.lastError), details: { code, reason } });
    }
    this.resolveSocketClosed?.();
  }

  /** The server answered the upgrade with an HTTP response instead of 101: keep its words. */
  private onRefused(ws: WebSocket, _req: ClientRequest, res: IncomingMessage): void {
    let body = '';
    const done = (): void => {
      const status = res.statusCode ?? 0;
      const text = body.trim().slice(0, MAX_REFUSAL_BODY_CHARS);
      this.refusal = new TransportError(
        `The server at ${this.opts.label} refused the WebSocket upgrade with HTTP ${status}` +
          `${res.statusMessage ? ` ${res.statusMessage}` : ''}${text ? `: ${text}` : ''}. ${refusalAdvice(status)}`,
        { status, body: text },
      );
      ws.terminate();
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (body.length < MAX_REFUSAL_BODY_CHARS) body += chunk;
    });
    res.once('end', done);
    res.once('error', done);
  }

  private connectError(): TransportError {
    const cause = this.lastError;
    const message = cause?.message ?? 'the connection closed during the handshake';
    let advice = 'Check the URL and that the server is running.';
    if (/subprotocol/i.test(message)) {
      advice = `The endpoint did not accept the "${MCP_SUBPROTOCOL}" subprotocol: is it an MCP WebSocket endpoint?`;
    } else if ((cause as { code?: string } | undefined)?.code === 'ECONNREFUSED') {
      advice = 'Nothing is listening there: check the host and port, and that the server is running.';
    }
    return new TransportError(`Could not open a WebSocket to ${this.opts.label}: ${message}. ${advice}`, {
      ...(cause && (cause as { code?: string }).code ? { code: (cause as { code?: string }).code } : {}),
    });
  }

  // ---------------------------------------------------------------- keep-alive

  private scheduleKeepAlive(): void {
    if (!(this.opts.keepAliveMs > 0) || this.keepAliveTimer !== undefined || this.state.phase !== 'open') return;
    this.keepAliveTimer = this.opts.clock.setTimeout(this.onKeepAlive, this.opts.keepAliveMs, KEEPALIVE_TIMER);
  }

  private stopKeepAlive(): void {
    if (this.keepAliveTimer === undefined) return;
    this.opts.clock.clearTimeout(this.keepAliveTimer);
    this.keepAliveTimer = undefined;
  }

  private readonly onKeepAlive = (): void => {
    this.keepAliveTimer = undefined;
    const ws = this.ws;
    if (this.state.phase !== 'open' || !ws) return;
    if (this.awaitingPong) {
      const peer = peerOf(this.opts.side);
      this.fail(
        new TransportError(
          `No pong from the ${peer} at ${this.opts.label} within ${this.opts.keepAliveMs} ms of a keep-alive ping: ` +
            `the connection is presumed dead and was terminated. Check the network and the ${peer}; ` +
            'raise `keepAliveMs` if it is only slow.',
          { keepAliveMs: this.opts.keepAliveMs },
        ),
      );
      ws.terminate();
      return;
    }
    this.awaitingPong = true;
    ws.ping();
    this.scheduleKeepAlive();
  };

  // ---------------------------------------------------------------- endings

  /** A failure noticed on this side: report it now, whatever the socket does next. */
  private fail(error: TransportError): void {
    this.stopKeepAlive();
    this.finish({ phase: 'failed', error, details: error.details });
  }

  private finish(final: TransportState): void {
    if (this.state.terminal) return;
    this.stopKeepAlive();
    this.state.set(final);
    this.inbound.complete();
    const settle = this.settleStart;
    this.settleStart = undefined;
    settle?.reject(final.error ?? new TransportError(`The WebSocket to ${this.opts.label} was closed before it opened.`));
  }
}

function refusalAdvice(status: number): string {
  switch (status) {
    case 400:
      return `Check that the client asks for the "${MCP_SUBPROTOCOL}" subprotocol and sends a valid upgrade request.`;
    case 401:
      return 'The server wants credentials: pass them in `headers` (for example Authorization).';
    case 403:
      return 'The server refused this Origin or Host (or these credentials): check its `allowedOrigins`/`allowedHosts` and the headers sent.';
    case 404:
      return 'No MCP WebSocket endpoint at this path: check the URL (the default path is /mcp).';
    case 426:
      return 'The server expects a WebSocket upgrade at another path or version.';
    default:
      return status >= 500 ? 'The server failed: check its logs.' : 'Check the URL and the server configuration.';
  }
}

export interface WebSocketClientTransportOptions {
  /** Extra handshake headers (Authorization, Origin...). */
  headers?: Record<string, string>;
  /** Largest accepted inbound message in bytes; larger ones close with 1009. Default 4 MiB. */
  maxPayload?: number;
  /**
   * Send a WebSocket ping every `keepAliveMs`; a ping still unanswered when the next one is due
   * fails the transport. Default 0 (off).
   */
  keepAliveMs?: number;
  /** The clock the keep-alive runs on (a `ManualClock` makes it testable). Default the system clock. */
  clock?: Clock;
  /** Milliseconds the opening handshake may take. Default 30 000. */
  handshakeTimeoutMs?: number;
}

/** A {@link Transport} over a WebSocket to an MCP server. */
export interface WebSocketClientTransport extends Transport {
  /** The URL connected to. */
  readonly url: string;
  /** The agreed subprotocol (`mcp`), once open. */
  readonly protocol: string | undefined;
}

/**
 * The client side of the WebSocket transport: connects on `start()` with the subprotocol `mcp`,
 * sends one JSON-RPC message per text frame, and delivers each inbound text frame as text. A
 * refused handshake fails `start()` with the server's HTTP status and body; a close with any code
 * other than 1000/1001 fails `state$` with a {@link TransportError} naming the code and reason.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#custom-transports
 */
export function createWebSocketClientTransport(
  url: string | URL,
  opts: WebSocketClientTransportOptions = {},
): WebSocketClientTransport {
  const href = typeof url === 'string' ? url : url.href;
  const maxPayload = opts.maxPayload ?? DEFAULT_MAX_FRAME_BYTES;
  return new WebSocketClient(href, maxPayload, opts);
}

class WebSocketClient extends SocketTransport implements WebSocketClientTransport {
  constructor(
    readonly url: string,
    maxPayload: number,
    opts: WebSocketClientTransportOptions,
  ) {
    super(
      { side: 'client', label: url, maxPayload, keepAliveMs: opts.keepAliveMs ?? 0, clock: opts.clock ?? systemClock },
      undefined,
      () =>
        new WebSocket(url, [MCP_SUBPROTOCOL], {
          headers: opts.headers,
          maxPayload,
          handshakeTimeout: opts.handshakeTimeoutMs ?? 30_000,
          perMessageDeflate: false,
          followRedirects: false,
        }),
    );
  }
}
