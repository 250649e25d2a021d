/**
 * `replay --as server`: a recording served as a mock server on our own Server (so lifecycle,
 * version negotiation, both eras, capability checks, envelope and header validation, listen
 * streams and cancellation are the real ones). The recorded server's info, capabilities and
 * instructions are declared (from `initialize`, else `server/discover`, else inferred from what
 * the recording shows); each request is matched by method and normalized params against the
 * recorded ones (in order for repeats, the last one again once used up) and answered with the
 * recorded result or error, after what the server sent while it ran: progress (with the live
 * token), log messages, its own requests (sent, the answer awaited), notifications. What it sent
 * outside any request is sent again at the same point (`mock-unsolicited.ts`); multi round-trip
 * rounds hand out the mock's own signed states (`mock-rounds.ts`). A request the recording does
 * not hold gets an error that says so and what it does hold.
 */
import { systemClock, type Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { METHODS, methodInfo } from '../protocol/methods.js';
import { META } from '../protocol/schema/modern.js';
import { Server } from '../server.js';
import { sessionOf, type RequestHandlerContext } from '../session/session.js';
import { MockRounds } from './mock-rounds.js';
import { MockEventBus, UnsolicitedFrames } from './mock-unsolicited.js';
import { differences, type Normalizer } from './normalize.js';
import type { Exchange, RecordedSession } from './recorded-exchanges.js';
import { recordedIdentity } from './recorded-identity.js';

export interface MockServerOptions {
  /**
   * Pace what a request's answer brings (progress, log messages, notifications, the answer) as
   * recorded, at the recorded offsets from the request (default true); false sends it all at
   * once, one frame per tick. Paced, a client reads each progress notification before the
   * response, as it did live (the official SDK client drops progress read with the response).
   */
  realtime?: boolean;
  /** The clock the recorded delays are waited on (default the system clock). */
  clock?: Clock;
  /** Called for each request: matched or not. */
  onRequest?: (method: string, matched: boolean) => void;
}

const NOT_RECORDED = -32601;

/** Let a frame go out in its own write before the next (some clients drop progress read together with the response). */
const tick = () => new Promise<void>((r) => setImmediate(r));

export function createMockServer(rec: RecordedSession, normalizer: Normalizer, options: MockServerOptions = {}): Server {
  const identity = recordedIdentity(rec);
  const rounds = new MockRounds();
  const bus = new MockEventBus();
  const server = new Server({
    info: identity.info,
    capabilities: identity.capabilities,
    ...(identity.instructions !== undefined && { instructions: identity.instructions }),
    events: bus,
    modern: { requestState: { key: rounds.key } },
  });
  const realtime = options.realtime !== false;
  const clock = options.clock ?? systemClock;
  const unsolicited = new UnsolicitedFrames(rec.unsolicited, rec.exchanges, server, bus, realtime, clock);

  const queues = new Map<string, Exchange[]>();
  const byMethod = new Map<string, Exchange[]>();
  const served = new Set<Exchange>();
  const retries = new Map<Exchange, Exchange[]>();
  for (const ex of rec.exchanges) {
    const method = ex.request.frame.method as string;
    if (ex.retryOf) retries.set(ex.retryOf, [...(retries.get(ex.retryOf) ?? []), ex]);
    if (method === 'initialize' || method === 'ping' || method === 'server/discover' || method === 'subscriptions/listen' || !ex.response) continue;
    const key = normalizer.requestKey(method, ex.request.frame.params);
    queues.set(key, [...(queues.get(key) ?? []), ex]);
    byMethod.set(method, [...(byMethod.get(method) ?? []), ex]);
  }
  const take = (method: string, params: unknown): Exchange | undefined => {
    const list = queues.get(normalizer.requestKey(method, params));
    return list && (list.find((e) => !served.has(e)) ?? list.at(-1));
  };
  const strip = (p: unknown) => {
    const { _meta: _drop, ...rest } = (p ?? {}) as Record<string, unknown>;
    return normalizer.frame(rest);
  };
  const show = (p: unknown) => {
    const { _meta: _drop, ...rest } = (p ?? {}) as Record<string, unknown>;
    return JSON.stringify(rest).slice(0, 200);
  };
  /** The closest of `held` to `params`, as a diff a person can read. */
  const closestDiff = (held: Exchange[], params: unknown) => {
    const closest = held.map((e) => differences(strip(e.request.frame.params), strip(params), 'params')).sort((a, b) => a.length - b.length)[0];
    return closest ? closest.map((d) => `  ${d.path}: recorded ${JSON.stringify(d.recorded)}, sent ${JSON.stringify(d.live)}`).join('\n') : '';
  };
  const notRecorded = (method: string, params: unknown): McpError => {
    const held = byMethod.get(method) ?? [];
    const message = held.length
      ? `mcp-actors replay: the recording holds no ${method} request with params ${show(params)}; it holds ${held.length}: ${held.slice(0, 3).map((e) => show(e.request.frame.params)).join(', ')}${held.length > 3 ? ', …' : ''}. Closest recorded request:\n${closestDiff(held, params)}\nRecord the session again or ignore the differing paths with --ignore.`
      : `mcp-actors replay: the recording holds no ${method} request (it has: ${[...byMethod.keys()].join(', ') || 'none'}). Record a session that makes this request.`;
    return new McpError(held.length ? ErrorCode.InvalidParams : NOT_RECORDED, message, { method, params: params ?? null });
  };
  /** The recorded retry of `round` this live retry is, or an error showing how it differs. */
  const continuation = (round: Exchange, method: string, params: unknown): Exchange => {
    const next = retries.get(round) ?? [];
    const key = normalizer.requestKey(method, params);
    const hit = next.find((e) => normalizer.requestKey(e.request.frame.method, e.request.frame.params) === key);
    if (hit) return hit;
    throw new McpError(
      ErrorCode.InvalidParams,
      next.length
        ? `mcp-actors replay: this retry of ${method} differs from the one recorded after that round (the answers given, most likely):\n${closestDiff(next, params)}\nRecord the session again or ignore the differing paths with --ignore (e.g. --ignore 'params.inputResponses').`
        : `mcp-actors replay: the recording ends that ${method} request at that round (the client never retried it); record a session that answers it.`,
      { method, params: (params ?? null) as JsonObject },
    );
  };

  const serve = async (method: string, params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> => {
    // A retry with a state this mock issued continues that round (the request core refused any other state already).
    const round = rounds.continued(params);
    const ex = round ? continuation(round, method, params) : take(method, params);
    options.onRequest?.(method, ex !== undefined);
    if (!ex) throw notRecorded(method, params);
    served.add(ex);
    const modern = typeof ctx.meta?.[META.protocolVersion] === 'string';
    const session = modern ? undefined : sessionOf(ctx.session);
    const start = clock.now();
    const wait = async (t: number) => {
      if (!realtime) return tick();
      const due = t - ex.request.t - (clock.now() - start);
      if (due > 0) await new Promise((r) => clock.setTimeout(r, due, 'mock-pace'));
      else await tick();
    };
    await unsolicited.reached(ex, 0, session);
    for (const [i, m] of ex.during.entries()) {
      if (ctx.signal.aborted) break;
      await wait(m.t);
      const f = m.frame;
      if (f.method === 'notifications/progress') {
        // As recorded (not rate-limited), with the live request's token; none when it asked for none.
        const token = ctx.meta?.progressToken;
        if (token !== undefined) ctx.sendNotification('notifications/progress', { ...f.params, progressToken: token });
      } else if (f.id !== undefined && f.method) await ctx.sendRequest(f.method, f.params).catch(() => undefined);
      else if (f.method) ctx.sendNotification(f.method, f.params);
      await unsolicited.reached(ex, i + 1, session);
    }
    if (ex.response) await wait(ex.response.t);
    const answer = ex.response!.frame;
    // What followed the response goes after it.
    setImmediate(() => void unsolicited.reached(ex, ex.during.length + 1, session));
    if (answer.error) throw new McpError(answer.error.code, answer.error.message, answer.error.data);
    return rounds.result({ ...(answer.result as JsonObject) }, ex, method, params);
  };
  const methods = new Set<string>([...METHODS.filter((m) => methodInfo(m)?.kind === 'request' && methodInfo(m)?.sender === 'client'), ...byMethod.keys()]);
  // The Server answers these itself: the handshake, ping, the era's discovery and listen streams.
  for (const own of ['initialize', 'ping', 'server/discover', 'subscriptions/listen']) methods.delete(own);
  for (const method of methods) server.onRequest(method, (params, ctx) => serve(method, params, ctx));
  return server;
}
