/**
 * OpenTelemetry for MCP as two interceptors: `server` makes a SERVER span per request it serves and
 * continues the trace its `params._meta` carries; `client` makes a CLIENT span per request it sends
 * and writes the trace into `params._meta`. Both record the conventions' operation-duration
 * histograms. `@opentelemetry/api` is never imported by this file at run time: the caller hands the
 * API in ({@link createMcpTelemetry}) or asks for it to be loaded ({@link mcpTelemetry}).
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
import type { Attributes, Context, Histogram, Link, MeterProvider, Span, SpanContext, TextMapPropagator, TracerProvider } from '@opentelemetry/api';
export type { OtelApi } from './otel-api.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { TransportPeer } from '../../streams/transport.js';
import type { AnsweredRequest, ClientInterceptor, ClientInterceptorNext, OutgoingRequest } from '../client-features/interceptors/client-chain.js';
import type { InterceptedRequest, Interceptor, InterceptorNext } from '../server-features/interceptors/server-chain.js';
import { META } from '../protocol/schema/modern.js';
import { withOutgoing } from '../server-features/interceptors/outgoing.js';
import { extractFromMeta, injectIntoMeta, metaOf, officialFirst } from './meta-carrier.js';
import { SpanIndex } from './round-links.js';
import { timeSession, type EndingSession, type SessionSource } from './session-durations.js';
import type { OtelApi } from './otel-api.js';
import { w3cPropagator } from './w3c-fallback.js';
import {
  DURATION_BUCKETS,
  errorOutcome,
  networkOf,
  operationAttributes,
  resultOutcome,
  spanName,
  spanOnlyAttributes,
  type NetworkFacts,
  type Outcome,
  type RequestFacts,
  type SemconvAttributes,
} from './semconv.js';


/** Options of {@link createMcpTelemetry} and {@link mcpTelemetry}. */
export interface McpTelemetryOptions {
  /** Where spans go; the global provider when left out. */
  readonly tracerProvider?: TracerProvider;
  /** Where the duration histograms go; the global provider when left out. */
  readonly meterProvider?: MeterProvider;
  /**
   * Reads and writes trace context in `params._meta`; when left out, the global propagator, or W3C Trace Context
   * and Baggage while none is registered (the API's default propagates nothing). One of another format
   * gets the W3C keys the MCP specification reserves in `_meta` added (written after its own, read first).
   */
  readonly propagator?: TextMapPropagator;
  /** Name resource spans `resources/read {uri}` (high cardinality: off by default, as the conventions ask). */
  readonly resourceUriInSpanName?: boolean;
  /** Record `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result` (opt-in: they may hold secrets). */
  readonly captureToolContent?: boolean;
  /** Network facts for every span when the request does not say (e.g. `{ transport: 'pipe' }` for stdio). */
  readonly network?: NetworkFacts;
}

/** The two interceptors: `server.use(telemetry.server)`, `client.use(telemetry.clientOf(client))`. */
export interface McpTelemetry {
  /** Spans for requests served (SERVER kind): the trace in `params._meta` is their parent. */
  readonly server: Interceptor;
  /**
   * Spans for requests sent (CLIENT kind): their context is written into `params._meta`. The
   * requests the client answers get a SERVER span, a child of the context in their `_meta`.
   */
  readonly client: ClientInterceptor;
  /**
   * The client interceptor for one client, reading what it knows at each request (its protocol
   * version, its HTTP session id): `client.use(telemetry.clientOf(client))`.
   */
  clientOf(peer: PeerView): ClientInterceptor;
  /** Record `mcp.server.session.duration` for each session `server.sessions$` gives (legacy era): `telemetry.watchSessions(mcp)`. */
  watchSessions(server: SessionSource): { unsubscribe(): void };
  /** Record `mcp.client.session.duration` for `client`, from now (call it before `connect`) to its end. */
  watchClient(client: EndingSession, network?: NetworkFacts): void;
}

/** What a client (or anything) can tell of the connection a request goes over; read at each request. */
export interface PeerView {
  readonly protocolVersion?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly network?: NetworkFacts | undefined;
  /** What the client's transport says of its channel (`pipe` for stdio, `tcp`/`http` for HTTP), when `network` does not. */
  readonly transportPeer?: TransportPeer | undefined;
}

/** What both sides' requests have in common (a server request has a caller and an id, a client request neither). */
interface Seen {
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly id?: string | number | undefined;
  readonly caller?: { readonly protocolVersion?: string | undefined; readonly peer?: TransportPeer | undefined };
}

const INSTRUMENTATION = 'mcp-actors';

/** One index per side: a round's `requestState` or a task's id, to the span that began it. */
interface Begun {
  readonly span: SpanContext;
  readonly round: number;
}

/**
 * Make the two interceptors over an OpenTelemetry API you already loaded.
 * @example `const telemetry = createMcpTelemetry(await import('@opentelemetry/api'))`
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
export function createMcpTelemetry(api: OtelApi, options: McpTelemetryOptions = {}): McpTelemetry {
  const tracer = (options.tracerProvider ?? api.trace.getTracerProvider()).getTracer(INSTRUMENTATION);
  const meter = (options.meterProvider ?? api.metrics.getMeterProvider()).getMeter(INSTRUMENTATION);
  const fallback = w3cPropagator(api);
  // Asked per request: a global propagator registered after this call still counts. Whichever it is,
  // the MCP specification's keys (W3C traceparent, tracestate, baggage) are written and read first.
  const propagatorNow = (): TextMapPropagator => officialFirst(options.propagator ?? (api.propagation.fields().length > 0 ? api.propagation : fallback), fallback);
  const histogram = (name: string, description: string): Histogram =>
    meter.createHistogram(name, { unit: 's', description, advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] } });
  const sessionDurations = {
    client: histogram('mcp.client.session.duration', 'The duration of the MCP session as observed on the MCP client.'),
    server: histogram('mcp.server.session.duration', 'The duration of the MCP session as observed on the MCP server.'),
  };
  const durations = {
    client: histogram('mcp.client.operation.duration', 'The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.'),
    server: histogram('mcp.server.operation.duration', 'MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.'),
  };

  const factsOf = (req: Seen, peer: PeerView | undefined): RequestFacts => {
    // A 2026-07-28 request names its revision in _meta; a client knows its session's (the peer view).
    const stated = metaOf(req.params)?.[META.protocolVersion];
    const protocolVersion = (typeof stated === 'string' ? stated : undefined) ?? req.caller?.protocolVersion ?? peer?.protocolVersion;
    // mcp.session.id is the transport's (HTTP Mcp-Session-Id), never the server's session-<n> label: none on stdio.
    const via = req.caller?.peer;
    return { id: req.id, sessionId: via?.sessionId ?? peer?.sessionId, protocolVersion, network: peer?.network ?? networkOf(via) ?? networkOf(peer?.transportPeer) ?? options.network };
  };

  const run = (side: 'client' | 'server', req: Seen, next: (p: JsonObject | undefined) => Promise<JsonObject>, peer?: PeerView): Promise<JsonObject> => {
    const { method, params } = req;
    const facts = factsOf(req, peer);
    // The metrics' attributes repeat from call to call: one frozen object per kind of request.
    const metricAttrs = attributeCache.get(side, method, params, facts);
    const spanAttrs: SemconvAttributes = Object.assign(spanOnlyAttributes(method, params, facts, side), metricAttrs);
    if (options.captureToolContent && method === 'tools/call' && params?.arguments !== undefined) {
      spanAttrs['gen_ai.tool.call.arguments'] = JSON.stringify(params.arguments);
    }
    const index = side === 'client' ? clientIndex : serverIndex;
    let links: Link[] | undefined;
    // The retry of a round carries the requestState the previous round answered with: this is the round after it.
    const previous = params?.requestState === undefined ? undefined : index.rounds.recall(params.requestState);
    const round = previous ? previous.round + 1 : 0;
    if (previous) {
      (links ??= []).push({ context: previous.span, attributes: { 'mcp.link.kind': 'input_round' } });
      spanAttrs['mcp.input_round'] = round;
    }
    const taskId = typeof params?.taskId === 'string' ? params.taskId : undefined;
    if (taskId) {
      const task = index.tasks.recall(taskId);
      if (task) (links ??= []).push({ context: task.span, attributes: { 'mcp.link.kind': 'task' } });
      spanAttrs['mcp.task.id'] = taskId;
    }

    const active = api.context.active();
    let parent: Context;
    if (side === 'server') {
      // The conventions: the context in _meta is the parent; the ambient one (e.g. an HTTP server span) a link.
      parent = extractFromMeta(propagatorNow(), active, params);
      const ambient = api.trace.getSpanContext(active);
      const remote = api.trace.getSpanContext(parent);
      if (parent !== active && ambient && api.trace.isSpanContextValid(ambient) && ambient.spanId !== remote?.spanId) (links ??= []).push({ context: ambient, attributes: { 'mcp.link.kind': 'transport' } });
    } else {
      // A caller that already put a traceparent in _meta (and has no span of its own) named its parent.
      parent = api.trace.getSpan(active) ? active : extractFromMeta(propagatorNow(), active, params);
    }
    const span = tracer.startSpan(
      spanName(method, params, options.resourceUriInSpanName),
      links === undefined ? { kind: side === 'client' ? api.SpanKind.CLIENT : api.SpanKind.SERVER, attributes: spanAttrs } : { kind: side === 'client' ? api.SpanKind.CLIENT : api.SpanKind.SERVER, attributes: spanAttrs, links },
      parent,
    );
    const ctx = api.trace.setSpan(parent, span);
    const started = performance.now();
    const end = (outcome: Outcome): void => {
      // Copied only when the outcome adds to it: a success records the operation's attributes as they are.
      const attrs: Attributes = outcome.errorType || outcome.statusCode ? { ...metricAttrs } : metricAttrs;
      if (outcome.errorType) {
        attrs['error.type'] = outcome.errorType;
        span.setAttribute('error.type', outcome.errorType);
        span.setStatus({ code: api.SpanStatusCode.ERROR, ...(outcome.message ? { message: outcome.message } : {}) });
      }
      if (outcome.statusCode) {
        attrs['rpc.response.status_code'] = outcome.statusCode;
        span.setAttribute('rpc.response.status_code', outcome.statusCode);
      }
      durations[side].record((performance.now() - started) / 1000, attrs);
      span.end();
    };
    // The client numbers a request when it sends it, after this stage: the id is set as it is known.
    if (side === 'client') (req as OutgoingRequest).onRequestId?.((id) => span.setAttribute('jsonrpc.request.id', String(id)));
    const sent = side === 'client' ? injectIntoMeta(propagatorNow(), ctx, params) : params;
    let out: Promise<JsonObject>;
    try {
      out = api.context.with(ctx, next, undefined, sent);
    } catch (e) {
      out = Promise.reject(e);
    }
    return out.then(
      (result) => {
        noteResult(index, span, round, result);
        if (options.captureToolContent && method === 'tools/call' && result.isError !== true) {
          span.setAttribute('gen_ai.tool.call.result', JSON.stringify(result.structuredContent ?? result.content ?? null));
        }
        end(resultOutcome(method, result));
        return result;
      },
      (e: unknown) => {
        end(errorOutcome(e));
        throw e;
      },
    );
  };

  const attributeCache = new AttributeCache();
  const serverIndex = { rounds: new SpanIndex<Begun>(), tasks: new SpanIndex<Begun>() };
  const clientIndex = { rounds: new SpanIndex<Begun>(), tasks: new SpanIndex<Begun>() };
  // The requests the server sends its client (legacy elicitation, sampling, roots): a CLIENT span each, the trace in their _meta.
  const server: Interceptor = withOutgoing(
    Object.assign((req: InterceptedRequest, next: InterceptorNext) => run('server', req, next), { interceptorName: 'otel-server' }),
    (req, next) => run('client', req, next),
  );
  // The requests the client answers (the server's asks, a round's input requests) are served: a SERVER span
  // each, its parent the trace in their _meta (the server's CLIENT span), as the conventions ask of a receiver.
  const clientOf = (peer?: PeerView): ClientInterceptor =>
    Object.assign((req: OutgoingRequest, next: ClientInterceptorNext) => run('client', req, next, peer), {
      interceptorName: 'otel-client',
      answering: (req: AnsweredRequest, next: () => Promise<JsonObject>) => run('server', req, () => next(), peer),
    });
  return {
    server,
    client: clientOf(),
    clientOf,
    watchSessions: (source) => source.sessions$.subscribe((session) => timeSession(sessionDurations.server, session, options.network)),
    watchClient: (session, network) => timeSession(sessionDurations.client, session, network ?? options.network, 'client'),
  };
}

/**
 * The operation attributes (metrics and spans share them) by side, method, target, protocol
 * version and network: the same few objects call after call instead of a new one each. Bounded:
 * a peer naming ever new tools cannot grow it (past the bound, each call builds its own).
 */
class AttributeCache {
  private readonly byNetwork = new WeakMap<NetworkFacts, Map<string, SemconvAttributes>>();
  private readonly noNetwork = new Map<string, SemconvAttributes>();
  private size = 0;
  constructor(private readonly limit = 2048) {}

  get(side: 'client' | 'server', method: string, params: JsonObject | undefined, facts: RequestFacts): SemconvAttributes {
    const name = params?.name;
    const key = `${side}\u0000${method}\u0000${typeof name === 'string' ? name : ''}\u0000${facts.protocolVersion ?? ''}`;
    const net = facts.network;
    let map = net === undefined ? this.noNetwork : this.byNetwork.get(net);
    const hit = map?.get(key);
    if (hit !== undefined) return hit;
    const built = Object.freeze(operationAttributes(method, params, facts, side)) as SemconvAttributes;
    if (this.size >= this.limit) return built;
    if (map === undefined) this.byNetwork.set(net!, (map = new Map()));
    map.set(key, built);
    this.size++;
    return built;
  }
}

/** An answer that begins something later requests refer to: an input round (its `requestState`) or a task (its id). */
function noteResult(index: { rounds: SpanIndex<Begun>; tasks: SpanIndex<Begun> }, span: Span, round: number, result: JsonObject): void {
  if (result.resultType === 'input_required') {
    const keys = result.inputRequests && typeof result.inputRequests === 'object' ? Object.keys(result.inputRequests) : [];
    span.addEvent('mcp.input_required', { 'mcp.input_request.keys': keys });
    if (typeof result.requestState === 'string') index.rounds.remember(result.requestState, { span: span.spanContext(), round });
  }
  const task = result.task as { taskId?: unknown } | undefined;
  if (task && typeof task === 'object' && typeof task.taskId === 'string') {
    span.setAttribute('mcp.task.id', task.taskId);
    index.tasks.remember(task.taskId, { span: span.spanContext(), round });
  }
}

/**
 * Load `@opentelemetry/api` (an optional peer dependency: install it to use this) and make the two interceptors.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
export async function mcpTelemetry(options: McpTelemetryOptions = {}): Promise<McpTelemetry> {
  let api: OtelApi;
  try {
    api = await import('@opentelemetry/api');
  } catch (e) {
    throw new Error(`mcpTelemetry needs the optional peer dependency @opentelemetry/api: install it (npm i @opentelemetry/api) or pass the API to createMcpTelemetry`, { cause: e });
  }
  return createMcpTelemetry(api, options);
}
