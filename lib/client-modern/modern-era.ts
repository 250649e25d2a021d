/**
 * A client's connection in the modern era (2026-07-28), once negotiation settled on it: every
 * request gets the `_meta` envelope and goes through the link; `input_required` answers are
 * fulfilled by the client's handlers (input rounds); cacheable results are kept for their `ttlMs`;
 * one `subscriptions/listen` carries the notifications the client wants; notifications reach the
 * client's handlers as in the legacy era. The `Client` keeps its API and hands the work here.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic
 */
import type { AnyActorRef } from 'xstate';
import type { PeerInfo } from '../../machines/session.machine.js';
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject, RequestId } from '../jsonrpc/message.js';
import type { Tool } from '../protocol/schema/index.js';
import { META } from '../protocol/schema/modern.js';
import type { RequestOptions, ResultMapper } from '../session/request-registry.js';
import type { Transport } from '../../streams/transport.js';
import { readResultType, runInputRounds, type InputAnswerer, type InputRoundProgress } from './input-rounds.js';
import { TASKS_EXTENSION, TASK_METHODS } from './extension-tasks.js';
import { ListenStream, type ListenBackoff } from './listen-stream.js';
import type { ModernLink } from './modern-link.js';
import { ResultCache } from './result-cache.js';
import { malformedTraceKey, malformedTraceMessage } from '../protocol/trace-context.js';
import { paramHeadersOf, type ParamHeaderSpec } from './wire-headers.js';

/** Options of a request in the modern era: OpenTelemetry context passed through in `_meta`. */
export interface TraceOptions {
  /** W3C Trace Context (`traceparent`, `tracestate`) and W3C `baggage`, sent verbatim in `_meta` (2026-07-28); a value that breaks its format is refused with a TypeError before anything is sent. */
  trace?: { traceparent?: string; tracestate?: string; baggage?: string };
  /**
   * Ask the server even when a cached result is still fresh (2026-07-28 `ttlMs` caching hints).
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
   */
  fresh?: boolean;
}

/** A request's own watcher (with an inspector): told of its input rounds, the parent of their actor. */
export interface RequestWatcher {
  round(progress: InputRoundProgress): void;
  readonly inspectActor: AnyActorRef;
}

/** One move of a request through its input rounds, on `Client.inputRounds$`. */
export interface InputRoundEvent extends InputRoundProgress {
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** The tool or prompt name, or the resource URI. */
  name: string | undefined;
}

/** What `client.discover()` returns. @see https://modelcontextprotocol.io/specification/2026-07-28/server/discover */
export interface DiscoveredServer {
  era: 'modern' | 'legacy';
  /** Versions the server speaks (legacy: the one `initialize` negotiated). */
  supportedVersions: string[];
  capabilities: Record<string, unknown>;
  serverInfo: PeerInfo | undefined;
  instructions?: string;
}

/** What the modern era needs from its client. */
export interface ModernEraHost {
  readonly clock: Clock;
  readonly random: () => number;
  readonly maxInputRounds: number;
  readonly listenBackoff?: Partial<ListenBackoff>;
  /** The client declared the tasks extension in its own capabilities (it takes task results then too). */
  declaresTasks?(): boolean;
  /** The `_meta` envelope of a request naming `version` (capabilities, info, log level). */
  meta(version: string): JsonObject;
  answererFor(method: string): InputAnswerer | undefined;
  /** A request's input rounds moved (only requests that needed rounds; see `Client.inputRounds$`). */
  reportInputRound?(event: InputRoundEvent): void;
  /** With an inspector: the client's session actor, parent of each request's input-rounds actor. */
  inspectParent?(): AnyActorRef | undefined;
  /** The client's notification handlers (its own and the user's). */
  dispatchNotification(method: string, params: JsonObject | undefined): void;
  /** The notifications to listen for, given what the server declared (undefined: none wanted). */
  listenFilter(serverCapabilities: Record<string, unknown>): JsonObject | undefined;
  warn(kind: 'relist-failed' | 'invalid-tool' | 'listen-narrowed', message: string, detail?: unknown): void;
  /** A timer of the era's own fired (the listen's reopening): journaled for replay. */
  timerFired?(name: string): void;
  /**
   * Who the next request is made as (the transport's authorization): results the server marked
   * `cacheScope: "private"` are served from the cache only to the same caller.
   */
  authContext?(): Promise<string | undefined>;
}

/** The extension's result type (a `CreateTaskResult`), accepted when the extension is declared. */
const TASK_RESULT: readonly string[] = ['task'];

/** Settled once: what a result other than complete is read on, a turn after it arrived. */
const SETTLED: Promise<void> = Promise.resolve();

/** The listen stream's first message: it is up. */
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

export class ModernEra {
  /**
   * The server offers the tasks extension: requests declare it, and a request may be answered
   * `resultType: "task"` (followed by the caller; see `extension-tasks.ts`).
   */
  readonly tasksExtension: boolean;
  private discoveredServer: DiscoveredServer;
  private cache: ResultCache | undefined;
  private readonly paramHeaders = new Map<string, ParamHeaderSpec[]>();
  private readonly listen: ListenStream;
  /** The id of the listen request open now: notifications tagged with another subscription are not ours (any more). */
  private listenId: RequestId | undefined;
  /** What the open listen asked for (checked against the acknowledgment). */
  private listenFilter: JsonObject | undefined;

  constructor(
    private readonly host: ModernEraHost,
    readonly link: ModernLink,
    readonly transport: Transport,
    readonly version: string,
    discover: JsonObject,
  ) {
    this.discoveredServer = adopt(discover, version);
    const extensions = this.discoveredServer.capabilities.extensions as Record<string, unknown> | undefined;
    this.tasksExtension = extensions !== null && typeof extensions === 'object' && extensions[TASKS_EXTENSION] !== undefined;
    this.listen = new ListenStream({
      clock: host.clock,
      random: host.random,
      ...(host.listenBackoff !== undefined && { backoff: host.listenBackoff }),
      ...(host.timerFired !== undefined && { fired: (name: string) => host.timerFired!(name) }),
      open: (notifications, signal) => {
        const id = this.link.allocateId();
        this.listenId = id;
        this.listenFilter = notifications;
        return this.link.request('subscriptions/listen', { notifications, _meta: this.host.meta(this.version) }, { signal, timeout: 2 ** 31 - 1, reissue: false }, id).finally(() => {
          if (this.listenId === id) this.listenId = undefined;
        });
      },
      onEnded: (e, delayMs) => {
        if (e !== undefined) this.host.warn('relist-failed', `subscriptions/listen ended: ${(e as Error)?.message ?? String(e)}; reopening in ${delayMs} ms`, e);
      },
    });
    // HTTP: `Mcp-Param-*` headers from the tools' x-mcp-header arguments.
    if ('paramHeaders' in transport) (transport as { paramHeaders?: unknown }).paramHeaders = (tool: string) => this.paramHeaders.get(tool);
  }

  get discovered(): DiscoveredServer {
    return this.discoveredServer;
  }

  /**
   * Send a request with the envelope; `input_required` answers to `tools/call`, `prompts/get`
   * and `resources/read` are fulfilled by the client's handlers; fresh cached results are
   * served without asking (unless `fresh`).
   */
  request(method: string, params: JsonObject | undefined, options?: RequestOptions & TraceOptions & { reissue?: boolean; watcher?: RequestWatcher }): Promise<JsonObject> {
    if (ResultCache.cacheable(method)) return this.cachedRequest(method, params, options);
    return this.send(method, params, options);
  }

  /** A cacheable request: a fresh result kept for the same caller, or asked and kept for its `ttlMs`. */
  private async cachedRequest(method: string, params: JsonObject | undefined, options?: RequestOptions & TraceOptions & { reissue?: boolean }): Promise<JsonObject> {
    const cache = (this.cache ??= new ResultCache(this.host.clock));
    const caller = await this.host.authContext?.();
    if (options?.fresh !== true) {
      const kept = cache.get(method, params, caller);
      if (kept) return kept;
    }
    let rounds = 0;
    const result = await this.send(method, params, options, () => rounds++).catch((e: unknown) => {
      // A refused cursor: the pages kept from that walk may no longer line up, so none is served.
      if (params?.cursor !== undefined && e instanceof McpError && e.code === ErrorCode.InvalidParams) cache.forgetMethod(method);
      throw e;
    });
    // Results that took input rounds are never cached.
    if (rounds <= 1) cache.put(method, params, result, caller);
    return result;
  }

  private send(method: string, params: JsonObject | undefined, options?: SendOptions, onSend?: () => void): Promise<JsonObject> {
    const trace = options?.trace;
    const bad = trace && malformedTraceKey(trace);
    if (bad) return Promise.reject(new TypeError(malformedTraceMessage(bad, trace[bad])));
    // The link reads only the request options it knows: `trace`, `fresh` and `watcher` ride along unread.
    onSend?.();
    // Nearly every answer is complete at once: the link hands it on as it arrives, with no promise
    // and turn of a `.then` per call (~220 B), nor a closure (~130 B): see `FirstAnswer`.
    return this.link.request(method, this.enveloped(params, undefined, trace), options, undefined, new FirstAnswer(this, method, params, options, onSend));
  }

  /**
   * A first answer other than complete, a turn after it came: the input rounds when it asks for
   * input, else the answer as it is. Internal: {@link FirstAnswer} calls it.
   */
  incompleteAnswer(method: string, params: JsonObject | undefined, options: SendOptions | undefined, onSend: (() => void) | undefined, result: JsonObject): JsonObject | Promise<JsonObject> {
    if (readResultType(method, result, this.taskResultTypes(method)) !== 'input_required') return result;
    return this.inputRounds(method, params, options, onSend, result);
  }

  /** The rounds of a request whose first answer was `input_required`, until its complete result. */
  private inputRounds(method: string, params: JsonObject | undefined, options: (RequestOptions & TraceOptions & { watcher?: RequestWatcher }) | undefined, onSend: (() => void) | undefined, result: JsonObject): Promise<JsonObject> {
    let first: JsonObject | undefined = result;
    const again = (extra: JsonObject): Promise<JsonObject> => {
      if (first === undefined) {
        onSend?.();
        return this.link.request(method, this.enveloped(params, extra, options?.trace), options);
      }
      const answered = first;
      first = undefined;
      return Promise.resolve(answered);
    };
    return runInputRounds(method, again, this.inputRoundOptions(method, params, options?.signal, options?.watcher));
  }

  /**
   * The request's params with the envelope in `_meta`. Without the caller's own `_meta` or a trace
   * the envelope object itself is sent: it is built once per version and log level and never
   * changed after (frames are immutable by contract), so a call copies nothing of it. Copied with
   * `copyInto`, not `{ ...params, _meta }`: on Node 20 a key added to a spread copy costs microseconds.
   */
  private enveloped(params: JsonObject | undefined, extra: JsonObject | undefined, trace: TraceOptions['trace']): JsonObject {
    const envelope = this.host.meta(this.version);
    const own = params?._meta as JsonObject | undefined;
    let meta = envelope;
    if (own !== undefined || trace !== undefined) {
      meta = copyInto({}, own);
      copyInto(meta, envelope);
      if (trace) for (const [k, v] of Object.entries(trace)) if (typeof v === 'string') meta[k] = v;
    }
    const out = copyInto({}, params);
    if (extra !== undefined) copyInto(out, extra);
    out._meta = meta;
    return out;
  }

  /**
   * `server/discover` again (a cached answer while fresh, unless `fresh`), sent by `send` (the
   * client's own request, which journals it) or by this era.
   */
  async discover(options?: RequestOptions & TraceOptions, send: (method: string, params: JsonObject, options?: RequestOptions & TraceOptions) => Promise<JsonObject> = (m, p, o) => this.request(m, p, o)): Promise<DiscoveredServer> {
    const result = await send('server/discover', {}, options);
    this.discoveredServer = adopt(result, this.version);
    return this.discoveredServer;
  }

  /** Tools as listed, less those with an invalid `x-mcp-header` annotation (they cannot be called right). */
  admitTools(tools: Tool[]): Tool[] {
    this.paramHeaders.clear();
    return tools.filter((tool) => {
      const headers = paramHeadersOf(tool.inputSchema);
      if ('invalid' in headers) {
        this.host.warn('invalid-tool', `Left out tool ${JSON.stringify(tool.name)}: ${headers.invalid}`, tool);
        return false;
      }
      if (headers.specs.length > 0) this.paramHeaders.set(tool.name, headers.specs);
      return true;
    });
  }

  /** Open, widen, narrow or end the listen stream to match what the client wants now. */
  refreshListen(): void {
    this.listen.want(this.host.listenFilter(this.discoveredServer.capabilities));
  }

  /** A notification from the server: invalidate what it makes stale, then the client's handlers. */
  onNotification(method: string, params: JsonObject | undefined): void {
    // Correlate by subscription id (one channel on stdio): a listen replaced or ended says no more.
    const subscription = (params?._meta as JsonObject | undefined)?.[META.subscriptionId];
    if (subscription !== undefined && subscription !== this.listenId) return;
    if (method === ACKNOWLEDGED) {
      this.listen.acknowledged();
      const honoured = (params?.notifications ?? {}) as JsonObject;
      const missing = notHonoured(this.listenFilter ?? {}, honoured);
      // Not an error: the stream carries what the server supports; the rest never comes.
      if (missing.length > 0) this.host.warn('listen-narrowed', `subscriptions/listen: the server does not send ${missing.join(', ')}`, honoured);
      return;
    }
    this.cache?.invalidate(method, params);
    this.host.dispatchNotification(method, params);
  }

  /** End the listen stream and every pending request (the session closes the transport). */
  stop(error: Error): void {
    this.listen.close();
    this.link.close(error);
  }

  /** A CreateTaskResult (`resultType: "task"`) is an answer when either side brings the tasks extension in. */
  private acceptsTasks(): boolean {
    return this.tasksExtension || this.host.declaresTasks?.() === true;
  }

  /** `resultType: "task"` is an answer only to the methods the extension runs as tasks (else an invalid response). */
  private taskResultTypes(method: string): readonly string[] | undefined {
    return this.acceptsTasks() && TASK_METHODS.has(method) ? TASK_RESULT : undefined;
  }

  private inputRoundOptions(method: string, params: JsonObject | undefined, signal: AbortSignal | undefined, watcher: RequestWatcher | undefined) {
    const told = this.host.reportInputRound?.bind(this.host);
    const named = params?.name ?? params?.uri;
    const name = typeof named === 'string' ? named : undefined;
    return {
      maxRounds: this.host.maxInputRounds,
      ...((told !== undefined || watcher !== undefined) && {
        report: (p: InputRoundProgress) => {
          watcher?.round(p);
          told?.({ method, name, ...p });
        },
      }),
      answererFor: (m: string) => this.host.answererFor(m),
      ...(this.taskResultTypes(method) !== undefined && { extraResultTypes: TASK_RESULT }),
      ...(signal !== undefined && { signal }),
      // With an inspector the rounds are the request's children (its actor), else the session's.
      ...(watcher !== undefined ? { inspectParent: () => watcher.inspectActor } : this.host.inspectParent !== undefined && { inspectParent: this.host.inspectParent }),
    };
  }
}

/** What `send` takes as options. */
type SendOptions = RequestOptions & TraceOptions & { reissue?: boolean; watcher?: RequestWatcher };

/**
 * A sent request's step on its first answer (see `ResultMapper`): nearly every answer is complete
 * and handed on as it arrives; another type is read, and the input rounds entered, a turn later.
 */
class FirstAnswer implements ResultMapper {
  constructor(
    private readonly era: ModernEra,
    private readonly method: string,
    private readonly params: JsonObject | undefined,
    private readonly options: SendOptions | undefined,
    private readonly onSend: (() => void) | undefined,
  ) {}

  mapResult(result: JsonObject): JsonObject | Promise<JsonObject> {
    const type = result.resultType;
    if (type === undefined || type === 'complete') return result;
    // Checked first: the task types are asked only for another type.
    return SETTLED.then(() => this.era.incompleteAnswer(this.method, this.params, this.options, this.onSend, result));
  }
}

/**
 * `from`'s own keys set on `to`: a shallow copy without the cost of a spread on Node 20 (a key
 * added to a spread copy costs microseconds). `Object.assign` copies two keys in ~70 ns where a
 * loop over `Object.keys` took ~280 ns (its array, and a store site that sees every key).
 */
function copyInto(to: JsonObject, from: JsonObject | undefined): JsonObject {
  return from === undefined ? to : Object.assign(to, from);
}

/** What a `DiscoverResult` says, in the client's terms. */
function adopt(result: JsonObject, version: string): DiscoveredServer {
  const meta = (result._meta ?? {}) as JsonObject;
  const info = (meta[META.serverInfo] ?? result.serverInfo) as PeerInfo | undefined;
  const versions = Array.isArray(result.supportedVersions) ? (result.supportedVersions as unknown[]).filter((v): v is string => typeof v === 'string') : [version];
  const out: DiscoveredServer = { era: 'modern', supportedVersions: versions, capabilities: (result.capabilities ?? {}) as Record<string, unknown>, serverInfo: info };
  if (typeof result.instructions === 'string') out.instructions = result.instructions;
  return out;
}

/** The opt-ins of `requested` that the acknowledged filter leaves out (flags by name, resource URIs). */
function notHonoured(requested: JsonObject, honoured: JsonObject): string[] {
  const missing: string[] = [];
  for (const [key, value] of Object.entries(requested)) {
    if (key === 'resourceSubscriptions' && Array.isArray(value)) {
      const kept = new Set(Array.isArray(honoured.resourceSubscriptions) ? honoured.resourceSubscriptions : []);
      for (const uri of value) if (!kept.has(uri)) missing.push(`updates of ${String(uri)}`);
    } else if (value === true && honoured[key] !== true) {
      missing.push(key);
    }
  }
  return missing;
}
