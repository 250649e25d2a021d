/**
 * Completion: `completion/complete` for prompt arguments (a callback per argument) and resource
 * template variables (answered by the resources feature).
 *
 * Results hold at most 100 values; when a callback gives more, the first 100 are sent with the
 * full `total` and `hasMore: true`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion
 */
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type { ResourceTemplateReference } from '../protocol/schema/completion.js';
import type { RequestHandlerContext } from '../session/session.js';
import { HandlerFeatureContext } from './feature-context.js';
import type { FeatureHost } from './feature-host.js';
import type { PromptsFeature } from './prompts.js';
import type { CompletionContext, CompletionValues } from './complete-callback.js';

export type { CompleteCallback, CompletionContext, CompletionValues } from './complete-callback.js';

/** At most this many values per completion result. */
export const MAX_COMPLETION_VALUES = 100;

/** Who answers completions of resource template variables (the resources feature). */
export interface ResourceCompletionSource {
  complete(
    ref: ResourceTemplateReference,
    argument: { name: string; value: string },
    context: CompletionContext,
    ctx?: RequestHandlerContext,
  ): string[] | CompletionValues | Promise<string[] | CompletionValues>;
}

/** The wire form of a completion: at most 100 values, `total` and `hasMore` always set. */
export function completionResult(got: string[] | CompletionValues): Required<CompletionValues> {
  const c: CompletionValues = Array.isArray(got) ? { values: got } : got;
  if (c === null || typeof c !== 'object' || !Array.isArray(c.values) || c.values.some((v) => typeof v !== 'string')) {
    throw new McpError(ErrorCode.InternalError, 'A completion callback must return an array of strings or { values: string[], total?, hasMore? }');
  }
  const all = c.values.length;
  const values = all > MAX_COMPLETION_VALUES ? c.values.slice(0, MAX_COMPLETION_VALUES) : [...c.values];
  const total = typeof c.total === 'number' && c.total >= all ? c.total : all;
  const hasMore = typeof c.hasMore === 'boolean' ? c.hasMore || all > values.length : total > values.length;
  return { values, total, hasMore };
}

export class CompletionFeature {
  private declared = false;
  /** Answers `ref/resource` completions; set by whoever hosts the resources feature. */
  resources: ResourceCompletionSource | undefined;

  constructor(
    private readonly host: FeatureHost,
    private readonly prompts: PromptsFeature,
  ) {
    host.server.onRequest('completion/complete', (params, ctx) => this.complete(params, ctx));
  }

  /**
   * Declare the `completions` capability (done when a prompt with completions is registered,
   * or a resource completion source is attached).
   */
  declare(): void {
    if (this.declared) return;
    this.declared = true;
    this.host.declareCapabilities({ completions: {} });
  }

  /** `completion/complete`. */
  async complete(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
    const ref = params?.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
    const argument = params?.argument as { name?: unknown; value?: unknown } | undefined;
    if (ref === null || typeof ref !== 'object') throw invalid('"ref" must be a ref/prompt or ref/resource object');
    if (argument === null || typeof argument !== 'object' || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      throw invalid('"argument" must be an object with string "name" and "value"');
    }
    const context = checkContext(params?.context);
    const limiter = this.host.rateLimits.completions;
    if (limiter && !limiter.take(ctx.session)) {
      throw new McpError(ErrorCode.InternalError, `Rate limit exceeded for completions; retry in ${limiter.retryAfter(ctx.session)} ms`);
    }
    const arg = { name: argument.name, value: argument.value };
    let got: string[] | CompletionValues;
    if (ref.type === 'ref/prompt') {
      if (typeof ref.name !== 'string') throw invalid('ref/prompt needs a "name"');
      const prompt = this.prompts.registry.get(ref.name);
      if (!prompt || !prompt.enabled) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${ref.name}`, { name: ref.name });
      const args = await this.prompts.argumentsOf(prompt);
      if (!args.some((a) => a.name === arg.name) && !Object.prototype.hasOwnProperty.call(prompt.completers, arg.name)) {
        throw new McpError(ErrorCode.InvalidParams, `Prompt "${ref.name}" has no argument "${arg.name}"`, { name: ref.name, argument: arg.name });
      }
      const fn = Object.prototype.hasOwnProperty.call(prompt.completers, arg.name) ? prompt.completers[arg.name] : undefined;
      got = fn ? await fn(arg.value, context, new HandlerFeatureContext(ctx, this.host.logging)) : [];
    } else if (ref.type === 'ref/resource') {
      if (typeof ref.uri !== 'string') throw invalid('ref/resource needs a "uri"');
      if (!this.resources) throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${ref.uri}`, { uri: ref.uri });
      got = await this.resources.complete({ type: 'ref/resource', uri: ref.uri }, arg, context, ctx);
    } else {
      throw invalid(`unknown ref type ${JSON.stringify(ref.type)}; expected "ref/prompt" or "ref/resource"`);
    }
    return { completion: completionResult(got) };
  }
}

function invalid(why: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `completion/complete: ${why}`);
}

function checkContext(context: unknown): CompletionContext {
  if (context === undefined) return { arguments: {} };
  if (context === null || typeof context !== 'object') throw invalid('"context" must be an object');
  const args = (context as { arguments?: unknown }).arguments;
  if (args === undefined) return { arguments: {} };
  if (args === null || typeof args !== 'object' || Array.isArray(args) || Object.values(args).some((v) => typeof v !== 'string')) {
    throw invalid('"context.arguments" must be an object of strings');
  }
  return { arguments: { ...(args as Record<string, string>) } };
}
