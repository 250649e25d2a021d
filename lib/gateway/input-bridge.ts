/**
 * Input bridging: an upstream server's server-to-client requests (elicitation, sampling, roots;
 * for a 2026-07-28 upstream, the input requests of a call's rounds) made while a downstream call is in flight are asked of that downstream caller, through its request
 * context (`ctx.elicit` / `ctx.sample`), whichever era it speaks. Calls are tracked per upstream
 * server. A legacy stdio upstream's request does not say which of its calls it belongs to, so it
 * is answered only when exactly one downstream call is in flight on that upstream; otherwise it
 * is refused (-32600), never sent to a caller it may not belong to.
 *
 * A 2026-07-28 caller is asked in an input round: its request ends `input_required`, and its
 * retry runs the handler again. The upstream call must not run twice, so it is parked
 * (parked-calls.ts) under an id the round's signed `requestState` carries; the retry finds it,
 * answers the upstream's waiting request with the caller's answer, and goes on awaiting the same
 * upstream call (another question: another round). No retry within the limit: the upstream call
 * is cancelled.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 */
import { principalOf } from '../auth/principal.js';
import type { Client } from '../client.js';
import type { Clock } from '../clock.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { paramsDigest } from '../modern/request-state.js';
import type { FeatureContext } from '../server-features/feature-context.js';
import { ParkedCalls } from './parked-calls.js';
import { UpstreamCall, type Question } from './upstream-call.js';

/** The input key under which a 2026-07-28 request's state carries its parked call's id. */
const CALL_KEY = 'io.mcp-actors.gateway/call';

export class InputBridge {
  /** Per upstream server, the calls in flight on it (parked ones too: their upstream call goes on). */
  private readonly active = new Map<string, UpstreamCall[]>();
  private readonly parked: ParkedCalls;

  /** @param waitMs How long a call waits for a 2026-07-28 caller's retry, on `clock`. */
  constructor(clock: Clock, waitMs: number) {
    this.parked = new ParkedCalls(clock, waitMs);
  }

  /**
   * Run `start` (a call to upstream `server` for the request `params`, e.g. a tool's name and
   * arguments) with `ctx` as the caller its input requests may go to; or, for a 2026-07-28
   * caller's retry, continue the call its round parked.
   */
  async run<T>(server: string, ctx: FeatureContext, params: JsonObject, start: (call: UpstreamCall) => Promise<T>): Promise<T> {
    const owner = `${principalOf(ctx.authInfo) ?? ''}\n${server}\n${paramsDigest(params)}`;
    // The same id on every retry of the request (carried, signed, in its requestState).
    const roundId = ctx.session.requestScope?.inputs.urlElicitationId?.({ inputKey: CALL_KEY });
    if (roundId !== undefined) {
      const parked = this.parked.take(roundId, owner);
      if (parked !== undefined) {
        parked.resume(ctx);
        return parked.result as Promise<T>;
      }
      // A retry whose call is gone must not call the upstream a second time.
      if ((ctx.request?.round ?? 0) > 0) {
        throw new McpError(ErrorCode.InvalidParams, `The upstream call this retry continues has ended (no retry came within ${this.parked.limitMs} ms, or its requestState was used already); call again without requestState`);
      }
    }
    const list = this.active.get(server) ?? [];
    this.active.set(server, list);
    const call = new UpstreamCall(ctx, owner, roundId, (c) => this.parked.park(c));
    list.push(call);
    call.result = start(call).finally(() => {
      call.done();
      list.splice(list.indexOf(call), 1);
    });
    // Awaited by whichever request serves the call when it settles; never unhandled.
    call.result.catch(() => undefined);
    call.follow(ctx);
    return call.result as Promise<T>;
  }

  /** Whether calls are in flight on upstream `server` (an idle per-caller upstream may be closed). */
  busy(server: string): boolean {
    return (this.active.get(server)?.length ?? 0) > 0;
  }

  /** Parked calls waiting for a retry. */
  get parkedCalls(): number {
    return this.parked.size;
  }

  /** Cancel the parked calls. */
  close(): void {
    this.parked.close();
  }

  /** Answer `client`'s elicitation, sampling and roots requests through the caller in flight. */
  attach(client: Client, server: string): void {
    client.onElicitation({
      form: async (request) => {
        const answer = await this.ask(server, 'elicitation', (ctx, options) => ctx.elicit({ message: request.message, requestedSchema: request.requestedSchema }, options));
        return answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action };
      },
    });
    client.onSampling((params) => this.ask(server, 'sampling', (ctx, options) => ctx.sample(params, options)));
    // Roots belong to the downstream caller, so they are asked of it at each roots/list. The
    // upstream is not told when a caller's roots change: each caller may have others.
    client.declareCapabilities({ roots: {} });
    const roots = () => this.ask(server, 'roots', (ctx, options) => ctx.listRoots(options));
    client.onRequest('roots/list', roots);
    // A 2026-07-28 upstream asks in an input round of the call instead.
    client.answerInput('roots/list', roots);
  }

  /** Ask the caller of the one call in flight (across its input rounds); refused when it ends. */
  private ask<T>(server: string, what: string, question: Question<T>): Promise<T> {
    return this.call(server, what).ask(question);
  }

  private call(server: string, what: string): UpstreamCall {
    // Parked calls count: the request may be theirs (a legacy upstream does not say).
    const list = (this.active.get(server) ?? []).filter((c) => !c.signal.aborted);
    // Refuse rather than guess: one caller's input must never reach another.
    if (list.length !== 1) {
      throw new McpError(ErrorCode.InvalidRequest, `Upstream "${server}" asked for ${what} with ${list.length} downstream calls in flight; refused as it cannot be tied to one caller`);
    }
    return list[0]!;
  }
}
