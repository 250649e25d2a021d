/**
 * Input bridging: an upstream server's server-to-client requests (elicitation, sampling, roots) made
 * while a downstream call is in flight are asked of that downstream caller, through its request
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

  /** Answer `client`'s elicitation, sampling and roots requests through the caller in flight. */
  attach(client: Client, server: string): void {
    client.onElicitation({
      form: async (request) => {
        const answer = await this.caller(server, 'elicitation').elicit({ message: request.message, requestedSchema: request.requestedSchema });
        return answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action };
      },
    });
    client.onSampling((params) => this.caller(server, 'sampling').sample(params));
    // Roots belong to the downstream caller, so they are asked of it at each roots/list. The
    // upstream is not told when a caller's roots change: each caller may have others.
    client.declareCapabilities({ roots: {} });
    client.onRequest('roots/list', async () => this.caller(server, 'roots').listRoots());
  }

  private caller(server: string, what: string): FeatureContext {
    const list = this.active.get(server) ?? [];
    // Refuse rather than guess: one caller's input must never reach another.
    if (list.length !== 1) {
      throw new McpError(ErrorCode.InvalidRequest, `Upstream "${server}" asked for ${what} with ${list.length} downstream calls in flight; refused as it cannot be tied to one caller`);
    }
    return list[0]!;
  }
}
