/**
 * The client's request engine in the modern era (2026-07-28): no session, no handshake; each
 * request carries its own `_meta` envelope and is answered on its own (the HTTP response of its
 * POST, or a line on stdio). Correlates responses by id, runs the timeouts and aborts of
 * `RequestRegistry`, routes progress, and shows every frame on `frames$`.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { Clock } from '../clock.js';
import { DEFAULT_MAX_FRAME_DEPTH, nestsDeeperThan, textMayNestDeeperThan } from '../jsonrpc/depth.js';
import type { Frame, JsonObject, JsonRpcErrorObject, RequestId } from '../jsonrpc/message.js';
import { RequestRegistry, type RequestOptions } from '../session/request-registry.js';
import type { FrameEvent } from '../session/session.js';
import type { RawFrame, Transport } from '../../streams/transport.js';

export interface ModernLinkOptions {
  clock: Clock;
  defaultTimeout: number;
  /** stdio sends `notifications/cancelled` for an aborted request; HTTP closes the response stream. */
  sendsCancelled: boolean;
  /** Notifications other than progress (log messages, list changes...). */
  onNotification(method: string, params: JsonObject | undefined): void;
}

export class ModernLink {
  private readonly registry: RequestRegistry;
  private readonly frames = new Subject<FrameEvent>();
  private subscription: Subscription | undefined;
  private nextId = 1;
  private seq = 0;

  constructor(
    private readonly transport: Transport,
    private readonly options: ModernLinkOptions,
  ) {
    this.registry = new RequestRegistry(
      options.clock,
      {
        sendCancelled: (id, reason) => {
          if (this.options.sendsCancelled) this.sendFrame({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
          else (this.transport as { closeRequestStream?: (id: RequestId) => boolean }).closeRequestStream?.(id);
        },
        timerFired: () => {},
      },
      options.defaultTimeout,
    );
    this.subscription = transport.inbound$.subscribe((raw) => this.receive(raw));
  }

  get frames$(): Observable<FrameEvent> {
    return this.frames.asObservable();
  }

  /** Send a request whose params already carry the envelope; resolves with its raw result. */
  request(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    const id = this.nextId++;
    let token: string | number | undefined;
    const meta = params._meta as JsonObject | undefined;
    if (meta?.progressToken !== undefined) token = meta.progressToken as string | number;
    else if (options?.onprogress !== undefined || options?.resetTimeoutOnProgress === true) {
      token = `p${id}`;
      params = { ...params, _meta: { ...meta, progressToken: token } };
    }
    const promise = this.registry.register(id, method, options, token);
    try {
      this.sendFrame({ jsonrpc: '2.0', id, method, params });
    } catch (e) {
      this.registry.closeOne(id, e as Error);
    }
    return promise;
  }

  /** Stop reading the transport (a legacy session takes it over) or end everything. */
  detach(error?: Error): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    if (error) this.registry.closeAll(error);
  }

  close(error: Error): void {
    this.detach(error);
    this.frames.complete();
  }

  private sendFrame(frame: JsonObject): void {
    if (this.frames.observed) this.frames.next({ seq: this.seq++, t: this.options.clock.now(), direction: 'out', frame: frame as unknown as Frame });
    const sent = this.transport.send(frame as never);
    if (sent instanceof Promise) sent.catch(() => {});
  }

  private receive(raw: RawFrame): void {
    let value: unknown = raw;
    if (typeof raw === 'string') {
      try {
        value = JSON.parse(raw);
      } catch {
        value = undefined;
      }
      // As on the session path: a frame nested deeper than the limit never reaches a handler.
      if (value !== undefined && textMayNestDeeperThan(raw, DEFAULT_MAX_FRAME_DEPTH) && nestsDeeperThan(value, DEFAULT_MAX_FRAME_DEPTH)) value = undefined;
    }
    if (this.frames.observed) this.frames.next({ seq: this.seq++, t: this.options.clock.now(), direction: 'in', frame: (value ?? raw) as FrameEvent['frame'] });
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const msg = value as { id?: RequestId; method?: unknown; params?: JsonObject; result?: JsonObject; error?: JsonRpcErrorObject };
    if (typeof msg.method === 'string') {
      if (msg.method === 'notifications/progress') {
        const p = msg.params ?? {};
        const token = p.progressToken as string | number | undefined;
        if (token !== undefined && typeof p.progress === 'number') {
          const progress: { progress: number; total?: number; message?: string } = { progress: p.progress };
          if (typeof p.total === 'number') progress.total = p.total;
          if (typeof p.message === 'string') progress.message = p.message;
          this.registry.progress(token, progress);
        }
        return;
      }
      // A server never sends requests in this era; notifications go to the client.
      if (msg.id === undefined) this.options.onNotification(msg.method, msg.params);
      return;
    }
    if (msg.id === undefined || msg.id === null) return;
    if ('error' in msg && msg.error) this.registry.settle(msg.id, undefined, msg.error);
    else if ('result' in msg) this.registry.settle(msg.id, (msg.result ?? {}) as JsonObject, undefined);
  }
}
