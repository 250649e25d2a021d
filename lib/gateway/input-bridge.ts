/**
 * Input bridging: an upstream server's server-to-client requests (elicitation, sampling) made
 * while a downstream call is in flight are asked of that downstream caller, through its request
 * context (`ctx.elicit` / `ctx.sample`), whichever era it speaks (a 2026-07-28 caller sees an
 * input round). With no call in flight the upstream's request is refused, never sent to another
 * caller.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 */
import type { Client } from '../client.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { FeatureContext } from '../server-features/context.js';

export class InputBridge {
  /** Downstream contexts of the calls in flight, latest last. */
  private readonly active: FeatureContext[] = [];

  /** Run `call` with `ctx` as the one the upstream's input requests go to. */
  async run<T>(ctx: FeatureContext, call: () => Promise<T>): Promise<T> {
    this.active.push(ctx);
    try {
      return await call();
    } finally {
      this.active.splice(this.active.indexOf(ctx), 1);
    }
  }

  /** Answer `client`'s elicitation and sampling requests through the caller in flight. */
  attach(client: Client): void {
    client.onElicitation({
      form: async (request) => {
        const answer = await this.caller('elicitation').elicit({ message: request.message, requestedSchema: request.requestedSchema });
        return answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action };
      },
    });
    client.onSampling((params) => this.caller('sampling').sample(params));
  }

  private caller(what: string): FeatureContext {
    const ctx = this.active.at(-1);
    // Refuse rather than guess: a request not tied to a call must not reach some other caller.
    if (!ctx) throw new McpError(ErrorCode.InvalidRequest, `No downstream call in flight to answer the upstream's ${what} request`);
    return ctx;
  }
}
