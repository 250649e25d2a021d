/**
 * The 2026-07-28 era on the client, as a {@link ClientEra}: requests go through the
 * {@link ModernEra} (the `_meta` envelope, input rounds, cached results); `server/discover` stands
 * in for `ping`; the `subscriptions/listen` stream carries list changes and resource updates. With
 * a journal each user call, its abort and how it ended are entries (frames, timers and input
 * answers are journaled where they happen), so that `replay()` can run the calls again.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import type { PeerInfo } from '../../machines/session.machine.js';
import type { DiscoveredServer, ModernEra, RequestWatcher, TraceOptions } from '../client-modern/modern-era.js';
import type { JournalEntryInput, RecordedRequestOptions } from '../journal/entry.js';
import type { JsonObject, RequestId } from '../jsonrpc/message.js';
import type { Tool } from '../protocol/schema/index.js';
import type { RequestOptions } from '../session/request-registry.js';
import type { ClientEra, EraRequestOptions } from './era.js';

/** The options of a request that shape its frames, as journaled (signals and callbacks are not data). */
function recordedOptions(options: EraRequestOptions | undefined): RecordedRequestOptions | undefined {
  if (options === undefined) return undefined;
  const out: RecordedRequestOptions = {};
  if (options.timeout !== undefined) out.timeout = options.timeout;
  if (options.maxTotalTimeout !== undefined) out.maxTotalTimeout = options.maxTotalTimeout;
  if (options.resetTimeoutOnProgress !== undefined) out.resetTimeoutOnProgress = options.resetTimeoutOnProgress;
  if (options.onprogress !== undefined) out.progress = true;
  if (options.fresh !== undefined) out.fresh = options.fresh;
  if (options.trace !== undefined) out.trace = options.trace;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** An error as a journal keeps it: its message, and its JSON-RPC code when it has one. */
export function errorOf(e: unknown): { message: string; code?: number } {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? { message, code } : { message };
}

/** What the modern era needs from its client. */
export interface ModernClientEraHost {
  /** The client's request, through its interceptors (what `server/discover` goes through). */
  send(method: string, params: JsonObject, options?: RequestOptions & TraceOptions): Promise<JsonObject>;
  /** With a journal: keep an entry. */
  record?(entry: JournalEntryInput): void;
}

export class ModernClientEra implements ClientEra {
  readonly name = 'modern';
  readonly setsLogLevel = false;
  /** User calls journaled so far (they are named `c1`, `c2`, ...). */
  private journaledCalls = 0;

  constructor(
    private readonly era: ModernEra,
    private readonly host: ModernClientEraHost,
  ) {}

  get serverInfo(): PeerInfo | undefined {
    return this.era.discovered.serverInfo;
  }
  get serverCapabilities(): Record<string, unknown> {
    return this.era.discovered.capabilities;
  }
  get protocolVersion(): string {
    return this.era.version;
  }
  get tasksExtension(): boolean {
    return this.era.tasksExtension;
  }

  request(method: string, params: JsonObject | undefined, options: EraRequestOptions | undefined, watcher?: RequestWatcher): Promise<JsonObject> {
    const told = watcher === undefined ? options : { ...options, watcher };
    return this.host.record ? this.journaled(method, params, told) : this.era.request(method, params, told);
  }

  /** 2026-07-28 removed `ping` (servers answer it -32601): a `server/discover` that skips the cache. */
  async ping(options: RequestOptions | undefined): Promise<void> {
    await this.era.discover({ ...options, fresh: true }, (m, p, o) => this.host.send(m, p, o));
  }

  keepAliveProbe(timeout: number): Promise<unknown> {
    return this.ping({ timeout });
  }

  discover(options: EraRequestOptions | undefined): Promise<DiscoveredServer> {
    return this.era.discover(options, (m, p, o) => this.host.send(m, p, o));
  }

  /** The URI joins the listen stream's `resourceSubscriptions`. */
  subscribe(): Promise<void> {
    this.era.refreshListen();
    return Promise.resolve();
  }

  unsubscribe(): void {
    this.era.refreshListen();
  }

  refreshListen(): void {
    this.era.refreshListen();
  }

  /** 2026-07-28 has no roots notification: each request carries what it needs. */
  rootsChanged(): void {}

  admitTools(tools: Tool[]): Tool[] {
    return this.era.admitTools(tools);
  }

  onNotification(method: string, params: JsonObject | undefined): void {
    this.era.onNotification(method, params);
  }

  stop(error: Error): void {
    this.era.stop(error);
  }

  /** A request with a journal: the call, its abort and how it ended are entries. */
  private journaled(method: string, params: JsonObject | undefined, options: (EraRequestOptions & { watcher?: RequestWatcher }) | undefined): Promise<JsonObject> {
    const host = this.host;
    const id: RequestId = `c${++this.journaledCalls}`;
    const recorded = recordedOptions(options);
    // Built key by key (no spreads, no bound recorder per call: a journal must cost well under a microsecond per entry); the same keys in the same order.
    const call = (params === undefined ? { kind: 'call', op: 'request', id, method } : { kind: 'call', op: 'request', id, method, params }) as JournalEntryInput & { options?: RecordedRequestOptions };
    if (recorded !== undefined) call.options = recorded;
    host.record!(call);
    let settled = false;
    const signal = options?.signal;
    const onAbort = () => {
      if (!settled) host.record!({ kind: 'call', op: 'abort', id, reason: String(signal!.reason ?? '') });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    return this.era.request(method, params, options).then(
      (result) => {
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        host.record!({ kind: 'result', call: id, result });
        return result;
      },
      (e: unknown) => {
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        host.record!({ kind: 'result', call: id, error: errorOf(e) });
        throw e;
      },
    );
  }
}
