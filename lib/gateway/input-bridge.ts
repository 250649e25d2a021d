/**
 * Input bridging: an upstream server's server-to-client requests (elicitation, sampling, roots;
 * for a 2026-07-28 upstream, the input requests of a call's rounds) made while a downstream call is in flight are asked of that downstream caller, through its request
 * context (`ctx.elicit` / `ctx.sample`), whichever era it speaks (a 2026-07-28 caller sees an
 * input round). Calls are tracked per upstream server. A legacy stdio upstream's request does not
 * say which of its calls it belongs to, so it is answered only when exactly one downstream call is
 * in flight on that upstream; otherwise it is refused (-32600), never sent to a caller it may not
 * belong to.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
import type { Client } from '../client.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { FeatureContext } from '../server-features/feature-context.js';

export class InputBridge {
  /** Per upstream server, the downstream contexts of the calls in flight on it. */
  private readonly active = new Map<string, FeatureContext[]>();

  /** Run `call` (to upstream `server`) with `ctx` as the caller its input requests may go to. */
  async run<T>(server: string, ctx: FeatureContext, call: () => Promise<T>): Promise<T> {
    const list = this.active.get(server) ?? [];
    this.active.set(server, list);
    list.push(ctx);
    try {
      return await call();
    } finally {
      list.splice(list.indexOf(ctx), 1);
    }
  }

  /** Whether calls are in flight on upstream `server` (an idle per-caller upstream may be closed). */
  busy(server: string): boolean {
    return (this.active.get(server)?.length ?? 0) > 0;
  }

  /** Answer `client`'s elicitation, sampling and roots requests through the caller in flight. */
  attach(client: Client, server: string): void {
    client.onElicitation({
      form: async (request) => {
        const answer = await this.ask(server, 'elicitation', (ctx) => ctx.elicit({ message: request.message, requestedSchema: request.requestedSchema }));
        return answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action };
      },
    });
    client.onSampling((params) => this.ask(server, 'sampling', (ctx) => ctx.sample(params)));
    // Roots belong to the downstream caller, so they are asked of it at each roots/list. The
    // upstream is not told when a caller's roots change: each caller may have others.
    client.declareCapabilities({ roots: {} });
    const roots = () => this.ask(server, 'roots', (ctx) => ctx.listRoots());
    client.onRequest('roots/list', roots);
    // A 2026-07-28 upstream asks in an input round of the call instead.
    client.answerInput('roots/list', roots);
  }

  /**
   * Ask the caller in flight; give up when its request ends. A 2026-07-28 caller's request ends
   * when it must answer an input round of its own: its retry runs the handler again, so the
   * abandoned run's upstream call must not wait for an answer that will never come.
   */
  private ask<T>(server: string, what: string, question: (ctx: FeatureContext) => Promise<T>): Promise<T> {
    const ctx = this.caller(server, what);
    const signal = ctx.signal;
    if (signal === undefined) return question(ctx);
    return new Promise<T>((resolve, reject) => {
      const gone = () => reject(new McpError(ErrorCode.RequestTimeout, `The downstream request that upstream "${server}" asked ${what} of has ended`));
      if (signal.aborted) return gone();
      signal.addEventListener('abort', gone, { once: true });
      question(ctx).then(resolve, reject).finally(() => signal.removeEventListener('abort', gone));
    });
  }

  private caller(server: string, what: string): FeatureContext {
    // A caller whose request has ended (cancelled, or a 2026-07-28 request ended by an input round) cannot be asked.
    const list = (this.active.get(server) ?? []).filter((c) => c.signal?.aborted !== true);
    // Refuse rather than guess: one caller's input must never reach another.
    if (list.length !== 1) {
      throw new McpError(ErrorCode.InvalidRequest, `Upstream "${server}" asked for ${what} with ${list.length} downstream calls in flight; refused as it cannot be tied to one caller`);
    }
    return list[0]!;
  }
}
