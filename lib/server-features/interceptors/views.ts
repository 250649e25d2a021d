/**
 * Built-in interceptor: `perCallerView({ tools, prompts, resources })` shows each caller only the
 * tools, prompts and resources a predicate over the request lets it see (its scopes, principal,
 * session...): hidden entries leave `tools/list`, `prompts/list`, `resources/list` and
 * `resources/templates/list`, and a call, get, read or completion naming one is refused exactly as
 * if it did not exist (-32602 `Unknown tool: …`, `Unknown prompt: …`; a resource: -32002, which a
 * 2026-07-28 request gets as -32602). A legacy session, and a 2026-07-28 `subscriptions/listen`
 * stream, is told `notifications/{tools,prompts,resources}/list_changed` only when what it can see
 * changed (the predicate is asked with the `<kind>/list` request it would send: `method`, `caller`,
 * no params; a `notifyListChanged` the registry cannot see goes to all), and
 * `notifications/resources/updated` only for a resource it can see (asked with `resources/read`).
 * Pages are cut by the server's `pageSize` before the view
 * filters them, so a page may hold fewer entries (even none) while its `nextCursor` still leads to
 * the rest: clients follow cursors until there is none (an interceptor calls its handler once, so
 * it cannot fetch more to fill a page).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools
 */
import { McpError } from '../../errors.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { JsonObject } from '../../jsonrpc/message.js';
import type { InterceptedRequest, InterceptorCaller, Interceptor, InterceptorNext } from './server-chain.js';

/** Whether the caller of `req` may see the entry named `name` (a tool or prompt name, a resource uri or uri template). */
export type VisibleTo = (name: string, req: InterceptedRequest) => boolean;

export interface PerCallerViewOptions {
  tools?: VisibleTo;
  prompts?: VisibleTo;
  /** Resources by uri, and templates by uri template. */
  resources?: VisibleTo;
}

/** Hide what `options` says from each caller, in lists and in the requests that name it. */
export function perCallerView(options: PerCallerViewOptions): Interceptor {
  const { tools, prompts, resources } = options ?? {};
  for (const [k, f] of Object.entries({ tools, prompts, resources })) {
    if (f !== undefined && typeof f !== 'function') throw new TypeError(`perCallerView: ${k} must be a function (name, request) => boolean`);
  }
  const stage = async (req: InterceptedRequest, next: InterceptorNext): Promise<JsonObject> => {
    const p = req.params;
    switch (req.method) {
      case 'tools/list':
        return tools === undefined ? next() : keep(await next(), 'tools', (e) => tools(String(e.name), req));
      case 'prompts/list':
        return prompts === undefined ? next() : keep(await next(), 'prompts', (e) => prompts(String(e.name), req));
      case 'resources/list':
        return resources === undefined ? next() : keep(await next(), 'resources', (e) => resources(String(e.uri), req));
      case 'resources/templates/list':
        return resources === undefined ? next() : keep(await next(), 'resourceTemplates', (e) => resources(String(e.uriTemplate), req));
      case 'tools/call':
        if (tools !== undefined && typeof p?.name === 'string' && !tools(p.name, req)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${p.name}`, { name: p.name });
        return next();
      case 'prompts/get':
        if (prompts !== undefined && typeof p?.name === 'string' && !prompts(p.name, req)) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${p.name}`, { name: p.name });
        return next();
      case 'resources/read':
      case 'resources/subscribe':
        if (resources !== undefined && typeof p?.uri === 'string' && !resources(p.uri, req)) throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${p.uri}`, { uri: p.uri });
        return next();
      case 'completion/complete': {
        const ref = p?.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
        if (prompts !== undefined && ref?.type === 'ref/prompt' && typeof ref.name === 'string' && !prompts(ref.name, req)) {
          throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${ref.name}`, { name: ref.name });
        }
        if (resources !== undefined && ref?.type === 'ref/resource' && typeof ref.uri === 'string' && !resources(ref.uri, req)) {
          throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${ref.uri}`, { uri: ref.uri });
        }
        return next();
      }
      default:
        return next();
    }
  };
  return Object.assign(stage, { interceptorName: 'perCallerView', [VIEW]: { tools, prompts, resources } });
}

const VIEW = Symbol('perCallerView');

/**
 * The predicates the `perCallerView` stages among `interceptors` apply to the list `kind`
 * (empty: no view, every caller sees it all). `list_changed` asks them, for each session, with
 * the `<kind>/list` request that session would send.
 */
export function viewsOf(interceptors: readonly Interceptor[], kind: keyof PerCallerViewOptions): VisibleTo[] {
  const out: VisibleTo[] = [];
  for (const i of interceptors) {
    const f = (i as { [VIEW]?: PerCallerViewOptions })[VIEW]?.[kind];
    if (f !== undefined) out.push(f);
  }
  return out;
}

/** The result with only the entries of `key` that `visible` keeps (a copy; the rest unchanged). */
function keep(result: JsonObject, key: string, visible: (entry: Record<string, unknown>) => boolean): JsonObject {
  const list = result[key];
  if (!Array.isArray(list)) return result;
  return { ...result, [key]: list.filter((e) => e !== null && typeof e === 'object' && visible(e as Record<string, unknown>)) };
}

/** Whether `caller` sees the resource `uri`: all of `views`, asked with the `resources/read` it would send on hearing of an update. */
export function seesResource(views: readonly VisibleTo[], uri: string, caller: InterceptorCaller): boolean {
  const req = { method: 'resources/read', params: { uri }, caller };
  return views.every((v) => v(uri, req));
}
