/**
 * `subscriptions/listen`: one long-lived request per stream of change notifications. The first
 * message is `notifications/subscriptions/acknowledged` with the opt-ins the server honours (a
 * type it does not offer is left out, not refused); every notification after it carries the
 * listen request's id as `io.modelcontextprotocol/subscriptionId`, and only the types the client
 * asked for are sent. The stream ends when the client closes it (HTTP) or cancels the request
 * (stdio); nothing of it outlives that. Request-scoped notifications (progress, log messages)
 * never come here. Extensions serve opt-ins of their own ({@link ListenExtension}: the tasks
 * extension's `taskIds`), and may refuse a request that asks for them.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc/message.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { spreadCopy } from '../jsonrpc/spread-copy.js';
import { McpError } from '../errors.js';
import { hasCapability } from '../protocol/methods.js';
import { META, type SubscriptionFilter } from '../protocol/schema/modern.js';
import type { ServerEvent, ServerEventBus } from './server-events.js';

const LIST_METHOD = { tools: 'notifications/tools/list_changed', prompts: 'notifications/prompts/list_changed', resources: 'notifications/resources/list_changed' } as const;
const LIST_FLAG = { tools: 'toolsListChanged', prompts: 'promptsListChanged', resources: 'resourcesListChanged' } as const;

/** The opt-ins of `requested` this server honours, given its capabilities. */
export function honoured(requested: SubscriptionFilter, capabilities: Record<string, unknown>): SubscriptionFilter {
  const out: SubscriptionFilter = {};
  for (const kind of ['tools', 'prompts', 'resources'] as const) {
    if (requested[LIST_FLAG[kind]] === true && hasCapability(capabilities, [kind, 'listChanged'])) out[LIST_FLAG[kind]] = true;
  }
  if (Array.isArray(requested.resourceSubscriptions) && hasCapability(capabilities, ['resources', 'subscribe'])) {
    out.resourceSubscriptions = requested.resourceSubscriptions.filter((u): u is string => typeof u === 'string');
  }
  return out;
}

/** An extension's opt-in under `notifications` (e.g. the tasks extension's `taskIds`). */
export interface ListenExtension {
  /** The opt-in's key in the filter. */
  readonly key: string;
  /**
   * A listen request asks for `requested` under {@link key}: throw an `McpError` to refuse the
   * whole request, else say what is honoured (acknowledged under the key) and how to forward its
   * notifications once the acknowledgment is out; `start` returns the stop.
   */
  open(requested: unknown, call: ListenCall): Promise<{ honoured: JsonObject[string]; start(notify: (method: string, params: JsonObject) => void): () => void }>;
}

/** Who asks: the request's client capabilities and the transport's authentication. */
export interface ListenCall {
  clientCapabilities: unknown;
  authInfo: unknown;
}

/**
 * Serve one listen request: acknowledge, then forward matching events until `signal` aborts.
 * Resolves with the graceful-closure result when the server ends it (`close`), or undefined;
 * with an error response when an extension refuses what it asks for.
 */
export async function listen(
  msg: JsonRpcRequest,
  bus: ServerEventBus,
  capabilities: Record<string, unknown>,
  io: { notify(frame: JsonRpcNotification): void; signal?: AbortSignal | undefined },
  /** Where the server registers the stream so that it can end it (shutdown); returns the unregister. */
  track?: (end: () => void) => () => void,
  extensions: { list: readonly ListenExtension[]; call: ListenCall } = { list: [], call: { clientCapabilities: undefined, authInfo: undefined } },
  /** Which events this stream's caller may hear (per-caller views); all when undefined. */
  admits?: (event: ServerEvent) => boolean,
): Promise<JsonRpcResponse | undefined> {
  const requested = (msg.params?.notifications ?? undefined) as SubscriptionFilter | undefined;
  if (requested === null || typeof requested !== 'object' || Array.isArray(requested)) {
    return { jsonrpc: '2.0', id: msg.id, error: { code: ErrorCode.InvalidParams, message: 'Invalid params: "notifications" must be an object of opt-ins' } };
  }
  const filter = honoured(requested, capabilities) as JsonObject;
  // A resource the caller's view hides is not honoured (its updates never reach this stream), so
  // it is left out of the acknowledgment as any unoffered opt-in is: naming it tells nothing.
  if (admits !== undefined && Array.isArray(filter.resourceSubscriptions)) {
    filter.resourceSubscriptions = (filter.resourceSubscriptions as string[]).filter((uri) => admits({ type: 'resourceUpdated', uri }));
  }
  const starts: ((notify: (method: string, params: JsonObject) => void) => () => void)[] = [];
  for (const ext of extensions.list) {
    const asked = (requested as JsonObject)[ext.key];
    if (asked === undefined) continue;
    try {
      const opened = await ext.open(asked, extensions.call);
      filter[ext.key] = opened.honoured;
      starts.push(opened.start);
    } catch (e) {
      const error = e instanceof McpError ? e.toJSON() : { code: ErrorCode.InternalError, message: `subscriptions/listen: ${(e as Error)?.message ?? String(e)}` };
      // What the others opened is let go of (started with nowhere to send, and stopped).
      for (const start of starts) start(() => undefined)();
      return { jsonrpc: '2.0', id: msg.id, error };
    }
  }
  const tag = { [META.subscriptionId]: msg.id } as JsonObject;
  io.notify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: filter, _meta: tag } });
  const uris = new Set((filter as SubscriptionFilter).resourceSubscriptions ?? []);
  const stops = starts.map((start) => start((method, params) => io.notify({ jsonrpc: '2.0', method, params: tagged(params, tag) })));
  const stopExtensions = () => {
    for (const stop of stops.splice(0)) stop();
  };
  return new Promise((resolve) => {
    const sub = bus.events$.subscribe((event: ServerEvent) => {
      if (admits !== undefined && !admits(event)) return;
      if (event.type === 'listChanged') {
        if (filter[LIST_FLAG[event.kind]] === true) io.notify({ jsonrpc: '2.0', method: LIST_METHOD[event.kind], params: { _meta: tag } });
      } else if (uris.has(event.uri)) {
        io.notify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: event.uri, _meta: tag } });
      }
    });
    sub.add(stopExtensions);
    if (io.signal?.aborted) {
      sub.unsubscribe();
      resolve(undefined);
      return;
    }
    const end = () => {
      sub.unsubscribe();
      untrack?.();
      resolve(undefined);
    };
    // Ended by the server: notifications/cancelled for the listen request (cancellation.md), then
    // the graceful result with the subscription id (subscriptions.md); the texts name both.
    const close = () => {
      sub.unsubscribe();
      io.signal?.removeEventListener('abort', end);
      io.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: msg.id, reason: 'The server ended the subscription' } });
      resolve({ jsonrpc: '2.0', id: msg.id, result: { _meta: tag } });
    };
    io.signal?.addEventListener('abort', end, { once: true });
    const untrack = track?.(close);
  });
}

/** `{ ...params, _meta: tag }`, made as {@link spreadCopy} makes it (a spread copy grows slowly on Node 20, once per notification). */
function tagged(params: JsonObject | undefined, tag: JsonObject): JsonObject {
  const out = params === undefined || params === null ? {} : spreadCopy(params);
  out._meta = tag;
  return out;
}
