/**
 * The HTTP+SSE transport of protocol revision 2024-11-05, served beside Streamable HTTP for older
 * clients: GET on the SSE endpoint opens the stream and announces, in an `endpoint` event, the URL
 * to POST messages to (with the session id as a query parameter); every POST there is answered
 * 202 and the responses go out on the stream as `message` events. The session lives as long as
 * the stream.
 *
 * @see https://modelcontextprotocol.io/specification/2024-11-05/basic/transports#http-with-sse
 * @see https://modelcontextprotocol.io/specification/2025-03-26/basic/transports#backwards-compatibility
 */
import { randomBase64url } from '../crypto/random.js';
import type { HttpRequestIn, HttpResponseOut } from '../../streams/http-shape.js';
import { TransportError } from '../errors.js';
import { classifyValue } from '../jsonrpc/codec.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { Frame } from '../jsonrpc/message.js';
import { allows, isSupportedRevision } from '../protocol/revisions.js';
import type { Server, ServerSession } from '../server.js';
import type { Caller } from '../../streams/http-auth.js';
import { acceptedTypes, errorBody, isJsonContentType, readJsonBody, writeError, writeJson } from '../../streams/http-body.js';
import { SseSink } from '../../streams/http-sse-sink.js';
import { HotInbound, StateCell } from '../../streams/memory.js';
import { SSE_HEADERS, sseEvent, sseStreamStart } from '../../streams/sse-encode.js';
import type { BodyDeadline } from '../../streams/http-body.js';
import type { KeepAliveTicker } from '../../streams/http-sse-sink.js';

/**
 * What the endpoints use of the Streamable HTTP handler's core, which makes them (so that the two
 * files do not import each other).
 */
export interface LegacySseCore {
  readonly server: Server;
  readonly ticker: KeepAliveTicker;
  readonly retryMs: number | undefined;
  readonly maxBodyBytes: number;
  readonly bodyDeadline: BodyDeadline;
  connect(transport: Transport & { serverSession: ServerSession | undefined }): Promise<ServerSession>;
  refusesMessages(res: HttpResponseOut, value: unknown, caller: Caller | undefined): boolean;
}
import type { RawFrame, Transport } from '../../streams/transport.js';

export interface LegacySseOptions {
  /** Where clients open the event stream (GET). Default `/sse`. */
  ssePath?: string;
  /** Where clients POST their messages (`?sessionId=…` is appended). Default `/messages`. */
  messagePath?: string;
}

/** The two legacy endpoints and their sessions. @internal */
export class LegacySseEndpoints {
  readonly ssePath: string;
  readonly messagePath: string;
  private readonly sessions = new Map<string, LegacySession>();

  constructor(
    private readonly core: LegacySseCore,
    options: LegacySseOptions,
  ) {
    this.ssePath = options.ssePath ?? '/sse';
    this.messagePath = options.messagePath ?? '/messages';
  }

  get size(): number {
    return this.sessions.size;
  }

  /** GET on the SSE endpoint: a new session and its stream. */
  get(req: HttpRequestIn, res: HttpResponseOut, caller: Caller | undefined): void {
    const accept = req.headers.accept;
    if (accept !== undefined && !acceptedTypes(accept).sse) {
      writeError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: the Accept header must list text/event-stream');
      return;
    }
    const id = randomBase64url(16);
    const session = new LegacySession(this, id, caller);
    this.sessions.set(id, session);
    const sink = new SseSink(res, this.core.ticker, () => session.end());
    session.sink = sink;
    // The endpoint event comes first; the client POSTs to that URI from then on.
    sink.open(SSE_HEADERS, sseStreamStart(undefined, this.core.retryMs) + sseEvent(`${this.messagePath}?sessionId=${id}`, undefined, 'endpoint'));
    void this.core.connect(session);
  }

  /** POST on the message endpoint. */
  post(req: HttpRequestIn, res: HttpResponseOut, caller: Caller | undefined): void {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const id = q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get('sessionId');
    if (id === null || id === '') {
      writeError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: the sessionId query parameter is required');
      return;
    }
    const session = this.sessions.get(id);
    if (session === undefined || session.ended || session.identity !== caller?.identity) {
      writeError(res, 404, ErrorCode.InvalidRequest, 'Not Found: no such session; open the SSE stream again');
      return;
    }
    if (caller !== undefined) session.authInfo = caller.authInfo;
    if (!isJsonContentType(req.headers['content-type'])) {
      writeError(res, 415, ErrorCode.InvalidRequest, 'Unsupported Media Type: the Content-Type must be application/json');
      return;
    }
    readJsonBody(req, res, this.core.maxBodyBytes, (value) => {
      if (session.ended) {
        writeError(res, 404, ErrorCode.InvalidRequest, 'Not Found: no such session; open the SSE stream again');
        return;
      }
      if (this.core.refusesMessages(res, value, caller)) return;
      const rev = session.serverSession?.protocolVersion;
      const inbound = classifyValue(value, rev !== undefined && isSupportedRevision(rev) && allows(rev, 'batches'));
      if (inbound.kind === 'invalid') {
        if (!inbound.respond) {
          // An invalid notification: never answered as a message (so no id, not even null), but
          // the POST needs a status, and the session reports it on diagnostics$ as on stdio.
          session.push(value);
          writeJson(res, 400, JSON.stringify({ jsonrpc: '2.0', error: inbound.error }));
          return;
        }
        writeJson(res, 400, errorBody(inbound.error.code, inbound.error.message, inbound.id, inbound.error.data));
        return;
      }
      session.push(value);
      res.writeHead(202, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Accepted');
    }, this.core.bodyDeadline, this.core.server.options.maxFrameDepth);
  }

  forget(session: LegacySession): void {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
  }

  async close(): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const session of [...this.sessions.values()]) {
      const s = session.serverSession;
      session.end();
      if (s !== undefined) closing.push(s.close().catch(() => {}));
    }
    await Promise.all(closing);
  }
}

/** The transport of one legacy session: inbound from POSTs, outbound on its event stream. @internal */
export class LegacySession implements Transport {
  private readonly inbound = new HotInbound<RawFrame>();
  private readonly state = new StateCell({ phase: 'open' });
  readonly inbound$ = this.inbound.observable;
  readonly state$ = this.state.observable;
  readonly identity: string | undefined;
  authInfo: unknown;
  sink: SseSink | undefined;
  serverSession: ServerSession | undefined;
  ended = false;

  constructor(
    private readonly endpoints: LegacySseEndpoints,
    readonly id: string,
    caller: Caller | undefined,
  ) {
    this.identity = caller?.identity;
    this.authInfo = caller?.authInfo;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(frame: Frame): void {
    if (this.ended || this.sink === undefined) {
      if (!Array.isArray(frame) && 'method' in frame && 'id' in frame) throw new TransportError('Cannot send: the SSE stream is closed');
      return;
    }
    this.sink.write(sseEvent(JSON.stringify(frame), undefined, 'message'));
  }

  push(value: unknown): void {
    this.inbound.push(value as RawFrame);
  }

  close(): Promise<void> {
    this.end();
    return Promise.resolve();
  }

  /** The stream ended (either side) or the session closed: the session is over. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.endpoints.forget(this);
    this.sink?.end();
    this.state.set({ phase: 'closed' });
    this.inbound.complete();
    const s = this.serverSession;
    if (s !== undefined) void s.close().catch(() => {});
  }
}
