/**
 * `subscriptions/listen`: one long-lived request per stream of change notifications. The first
 * message is `notifications/subscriptions/acknowledged` with the opt-ins the server honours (a
 * type it does not offer is left out, not refused); every notification after it carries the
 * listen request's id as `io.modelcontextprotocol/subscriptionId`, and only the types the client
 * asked for are sent. The stream ends when the client closes it (HTTP) or cancels the request
 * (stdio); nothing of it outlives that. Request-scoped notifications (progress, log messages)
 * never come here.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 */
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc/message.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
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

/**
 * Serve one listen request: acknowledge, then forward matching events until `signal` aborts.
 * Resolves with the graceful-closure result when the server ends it (`close`), or undefined.
 */
export function listen(
  msg: JsonRpcRequest,
  bus: ServerEventBus,
  capabilities: Record<string, unknown>,
  io: { notify(frame: JsonRpcNotification): void; signal?: AbortSignal | undefined },
  /** Where the server registers the stream so that it can end it (shutdown); returns the unregister. */
  track?: (end: () => void) => () => void,
): Promise<JsonRpcResponse | undefined> {
  const requested = (msg.params?.notifications ?? undefined) as SubscriptionFilter | undefined;
  if (requested === null || typeof requested !== 'object' || Array.isArray(requested)) {
    return Promise.resolve({ jsonrpc: '2.0', id: msg.id, error: { code: ErrorCode.InvalidParams, message: 'Invalid params: "notifications" must be an object of opt-ins' } });
  }
  const filter = honoured(requested, capabilities);
  const tag = { [META.subscriptionId]: msg.id } as JsonObject;
  io.notify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: filter as JsonObject, _meta: tag } });
  const uris = new Set(filter.resourceSubscriptions ?? []);
  return new Promise((resolve) => {
    const sub = bus.events$.subscribe((event: ServerEvent) => {
      if (event.type === 'listChanged') {
        if (filter[LIST_FLAG[event.kind]] === true) io.notify({ jsonrpc: '2.0', method: LIST_METHOD[event.kind], params: { _meta: tag } });
      } else if (uris.has(event.uri)) {
        io.notify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: event.uri, _meta: tag } });
      }
    });
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
