/**
 * `replay --as server`: a recording served as a mock server on our own Server (so lifecycle,
 * version negotiation, capability checks and cancellation are the real ones). The recorded
 * server's info, capabilities and instructions are declared; each request is matched by method and
 * normalized params against the recorded ones (in order for repeats, the last one again once used
 * up) and answered with the recorded result or error, after what the server sent while it ran:
 * progress (with the live token), its own requests (sent, the answer awaited), notifications.
 * A request the recording does not hold gets an error that says so and what it does hold.
 */
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { METHODS, methodInfo } from '../protocol/methods.js';
import { Server } from '../server.js';
import type { RequestHandlerContext } from '../session/session.js';
import { differences, type Normalizer } from './normalize.js';
import type { Exchange, RecordedSession } from './recorded-exchanges.js';

export interface MockServerOptions {
  /** Reproduce the recorded delays (progress, answers) instead of answering at once. */
  realtime?: boolean;
  /** Called for each request: matched or not. */
  onRequest?: (method: string, matched: boolean) => void;
}

const NOT_RECORDED = -32601;

export function createMockServer(rec: RecordedSession, normalizer: Normalizer, options: MockServerOptions = {}): Server {
  const init = rec.exchanges.find((e) => e.request.frame.method === 'initialize')?.response?.frame.result as JsonObject | undefined;
  if (!init) throw new Error('The recording holds no answered initialize request: nothing to serve');
  const server = new Server({
    info: (init.serverInfo as { name: string; version: string }) ?? { name: 'mcp-actors-replay', version: '0' },
    capabilities: (init.capabilities as Record<string, unknown>) ?? {},
    ...(typeof init.instructions === 'string' && { instructions: init.instructions }),
  });
  const queues = new Map<string, { list: Exchange[]; next: number }>();
  const byMethod = new Map<string, Exchange[]>();
  for (const ex of rec.exchanges) {
    const method = ex.request.frame.method as string;
    if (method === 'initialize' || method === 'ping' || !ex.response) continue;
    const key = normalizer.requestKey(method, ex.request.frame.params);
    const q = queues.get(key) ?? { list: [], next: 0 };
    q.list.push(ex);
    queues.set(key, q);
    byMethod.set(method, [...(byMethod.get(method) ?? []), ex]);
  }
  const take = (method: string, params: unknown): Exchange | undefined => {
    const q = queues.get(normalizer.requestKey(method, params));
    if (!q) return undefined;
    const ex = q.list[Math.min(q.next, q.list.length - 1)];
    q.next++;
    return ex;
  };
  const notRecorded = (method: string, params: unknown): McpError => {
    const held = byMethod.get(method) ?? [];
    const show = (p: unknown) => {
      const { _meta: _drop, ...rest } = (p ?? {}) as Record<string, unknown>;
      return JSON.stringify(rest).slice(0, 200);
    };
    // The closest recorded request, as a diff a person can read.
    const strip = (p: unknown) => {
      const { _meta: _drop, ...rest } = (p ?? {}) as Record<string, unknown>;
      return normalizer.frame(rest);
    };
    const closest = held
      .map((e) => differences(strip(e.request.frame.params), strip(params), 'params'))
      .sort((a, b) => a.length - b.length)[0];
    const diff = closest ? closest.map((d) => `  ${d.path}: recorded ${JSON.stringify(d.recorded)}, sent ${JSON.stringify(d.live)}`).join('\n') : '';
    const message = held.length
      ? `mcp-actors replay: the recording holds no ${method} request with params ${show(params)}; it holds ${held.length}: ${held.slice(0, 3).map((e) => show(e.request.frame.params)).join(', ')}${held.length > 3 ? ', …' : ''}. Closest recorded request:\n${diff}\nRecord the session again or ignore the differing paths with --ignore.`
      : `mcp-actors replay: the recording holds no ${method} request (it has: ${[...byMethod.keys()].join(', ') || 'none'}). Record a session that makes this request.`;
    return new McpError(held.length ? ErrorCode.InvalidParams : NOT_RECORDED, message, { method, params: params ?? null });
  };
  const serve = async (method: string, params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> => {
    const ex = take(method, params);
    options.onRequest?.(method, ex !== undefined);
    if (!ex) throw notRecorded(method, params);
    const start = performance.now();
    const wait = async (t: number) => {
      // Each frame in its own write, as a server sends them: some clients drop a progress
      // notification that arrives in the same read as the response.
      if (!options.realtime) return new Promise((r) => setImmediate(r));
      const due = t - ex.request.t - (performance.now() - start);
      if (due > 0) await new Promise((r) => setTimeout(r, due));
    };
    for (const m of ex.during) {
      if (ctx.signal.aborted) break;
      await wait(m.t);
      const f = m.frame;
      if (f.method === 'notifications/progress') {
        // As recorded (not rate-limited), with the live request's token; none when it asked for none.
        const token = ctx.meta?.progressToken;
        if (token !== undefined) ctx.sendNotification('notifications/progress', { ...f.params, progressToken: token });
      }
      else if (f.id !== undefined && f.method) await ctx.sendRequest(f.method, f.params).catch(() => undefined);
      else if (f.method) ctx.sendNotification(f.method, f.params);
    }
    if (ex.response) await wait(ex.response.t);
    const answer = ex.response!.frame;
    if (answer.error) throw new McpError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result as JsonObject;
  };
  const methods = new Set<string>([...METHODS.filter((m) => methodInfo(m)?.kind === 'request' && methodInfo(m)?.sender === 'client'), ...byMethod.keys()]);
  methods.delete('initialize');
  methods.delete('ping');
  for (const method of methods) server.onRequest(method, (params, ctx) => serve(method, params, ctx));
  return server;
}
