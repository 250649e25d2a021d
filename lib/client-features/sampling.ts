/**
 * Sampling on the client: checks of an incoming `sampling/createMessage` (shape, tool use only
 * when declared, `tool_use` / `tool_result` balance) and of the handler's result.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
 */
import type { PeerInfo } from '../../machines/session.machine.js';
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { InvalidSamplingResultError, SamplingRejectedError } from './client-feature-errors.js';
import type { RateLimit } from '../server-features/rate-limit.js';
import type { RequestHandlerContext } from '../session/session.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../protocol/schema/sampling.js';

/**
 * Answers a server's sampling request (after the user's review). Throw `SamplingRejectedError`
 * when the user says no.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#creating-messages
 */
export type SamplingHandler = (
  params: CreateMessageRequestParams,
  ctx: RequestHandlerContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

export interface SamplingOptions {
  /**
   * The handler supports `tools` and `toolChoice` (declares `sampling.tools`). Without it a
   * request that offers tools is answered -32602.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#tools-in-sampling
   */
  tools?: boolean;
  /** The handler honours `includeContext` other than "none" (declares `sampling.context`). */
  context?: boolean;
  /**
   * The user's approval, asked before the handler runs (with the server that asks): `true` sends
   * the request as the server wrote it, the user's edit of it (params, e.g. a changed system
   * prompt or messages, checked as the server's are) sends that instead. A refusal (anything
   * else) answers -1 (`SamplingRejectedError`, "User rejected sampling request"); the handler
   * never runs.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#security-considerations
   */
  approve?: (params: CreateMessageRequestParams, server: PeerInfo | undefined) => boolean | CreateMessageRequestParams | Promise<boolean | CreateMessageRequestParams>;
  /**
   * The user's review of the model's answer before it goes back to the server: return it (or the
   * user's edit of it, checked again) to send it, or false to refuse: the server gets -1
   * (`SamplingRejectedError`) and nothing of the answer.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#user-interaction-model
   */
  review?: (result: CreateMessageResult, params: CreateMessageRequestParams, server: PeerInfo | undefined) => CreateMessageResult | false | Promise<CreateMessageResult | false>;
  /**
   * At most `limit` requests per `windowMs` from this server; those over it are answered -32603
   * saying when to retry, without reaching the handler or the user. Off by default.
   */
  rateLimit?: RateLimit;
  /**
   * At most this many tool rounds (assistant `tool_use` messages) in one conversation; a longer
   * loop is answered -32602. Off by default.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#security-considerations
   */
  maxToolRounds?: number;
}

/** How many tool rounds (messages with `tool_use`) a conversation holds. */
export function toolRounds(messages: readonly { content?: unknown }[] | undefined): number {
  let rounds = 0;
  for (const m of messages ?? []) if (blocksOf(m?.content).some((b) => b?.type === 'tool_use')) rounds++;
  return rounds;
}

type Block = { type?: unknown; id?: unknown; toolUseId?: unknown; name?: unknown };

function blocksOf(content: unknown): Block[] {
  if (Array.isArray(content)) return content as Block[];
  return content !== null && typeof content === 'object' ? [content as Block] : [];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Why the params of a `sampling/createMessage` are invalid (answered -32602), or undefined.
 * Checks the shape, that tools come only to a client that declared `sampling.tools`, and that
 * every assistant `tool_use` is answered by the next (user) message, made of `tool_result`s only,
 * one per use.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#tool-use-and-result-balance
 */
export function checkSamplingRequest(params: unknown, toolsDeclared: boolean): string | undefined {
  if (!isObject(params)) return 'params are required';
  if (!Array.isArray(params.messages)) return '"messages" must be an array';
  // The model is held to maxTokens by the handler; a value it could not honour never reaches it.
  if (typeof params.maxTokens !== 'number' || !Number.isInteger(params.maxTokens) || params.maxTokens < 1) {
    return `"maxTokens" must be a whole number of tokens, 1 or more (got ${JSON.stringify(params.maxTokens) ?? 'none'})`;
  }
  if ((params.tools !== undefined || params.toolChoice !== undefined) && !toolsDeclared) {
    return 'the request offers tools, but this client did not declare the "sampling.tools" capability';
  }
  if (params.tools !== undefined && !Array.isArray(params.tools)) return '"tools" must be an array';
  const messages = params.messages as unknown[];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isObject(m)) return `messages[${i}] must be an object`;
    if (m.role !== 'user' && m.role !== 'assistant') return `messages[${i}].role must be "user" or "assistant"`;
    if (!isObject(m.content) && !Array.isArray(m.content)) return `messages[${i}].content must be a content block or an array of them`;
    const blocks = blocksOf(m.content);
    if (blocks.some((b) => !isObject(b) || typeof b.type !== 'string')) return `messages[${i}].content has a block without a "type"`;
    const uses = blocks.filter((b) => b.type === 'tool_use');
    const results = blocks.filter((b) => b.type === 'tool_result');
    if (uses.length && m.role !== 'assistant') return `messages[${i}]: tool_use blocks belong in assistant messages`;
    if (results.length) {
      if (m.role !== 'user') return `messages[${i}]: tool_result blocks belong in user messages`;
      if (results.length !== blocks.length) return `Tool results mixed with other content in messages[${i}]: a message with tool results must contain only tool results`;
      const prevUses = i > 0 ? blocksOf((messages[i - 1] as Record<string, unknown>).content).filter((b) => b.type === 'tool_use') : [];
      if (!prevUses.length) return `messages[${i}] has tool results, but the message before it has no tool_use to answer`;
    }
    if (uses.length) {
      const ids = uses.map((u) => u.id);
      if (ids.some((id) => typeof id !== 'string')) return `messages[${i}]: every tool_use needs a string "id"`;
      if (new Set(ids).size !== ids.length) return `messages[${i}]: tool_use ids must be unique`;
      const next = messages[i + 1];
      const answers = isObject(next) ? blocksOf(next.content).filter((b) => b.type === 'tool_result') : [];
      if (!isObject(next) || next.role !== 'user' || answers.length === 0) {
        return `Tool result missing in request: the tool_use in messages[${i}] (${ids.join(', ')}) must be followed by a user message of tool results`;
      }
      const answered = answers.map((a) => a.toolUseId);
      const missing = ids.filter((id) => !answered.includes(id));
      if (missing.length) return `Tool result missing in request: no tool_result for ${missing.join(', ')} in messages[${i + 1}]`;
      const unknown = answered.filter((id) => !ids.includes(id as string));
      if (unknown.length) return `messages[${i + 1}] has a tool_result for ${unknown.map(String).join(', ')}, which messages[${i}] did not use`;
      if (new Set(answered).size !== answered.length) return `messages[${i + 1}] answers a tool_use twice`;
    }
  }
  return undefined;
}

/**
 * Why the handler's result breaks the protocol, or undefined. A result may use tools only when
 * the request offered them (and not with `toolChoice: none`), must use one with
 * `toolChoice: required`, never carries `tool_result`s, and uses fresh, unique ids.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#sampling-with-tools
 */
export function checkSamplingResult(result: unknown, params: CreateMessageRequestParams): string | undefined {
  if (!isObject(result)) return 'the result must be an object';
  if (result.role !== 'user' && result.role !== 'assistant') return '"role" must be "user" or "assistant"';
  if (typeof result.model !== 'string') return '"model" must be a string naming the model that sampled';
  if (!isObject(result.content) && !Array.isArray(result.content)) return '"content" must be a content block or an array of them';
  const blocks = blocksOf(result.content);
  if (blocks.some((b) => !isObject(b) || typeof b.type !== 'string')) return 'a content block has no "type"';
  if (blocks.some((b) => b.type === 'tool_result')) return 'a result cannot contain tool_result blocks (tool results come from the server, in the next request)';
  const uses = blocks.filter((b) => b.type === 'tool_use');
  const mode = params.toolChoice?.mode ?? 'auto';
  if (uses.length) {
    if (result.role !== 'assistant') return 'tool_use blocks must come in an assistant message';
    if (!params.tools?.length) return 'the result uses a tool, but the request offered none';
    if (mode === 'none') return 'the result uses a tool although the request said toolChoice "none"';
    const offered = new Set(params.tools.map((t) => t.name));
    const unknown = uses.filter((u) => !offered.has(u.name as string));
    if (unknown.length) return `the result uses tool(s) the request did not offer: ${unknown.map((u) => String(u.name)).join(', ')}`;
    const ids = uses.map((u) => u.id);
    if (ids.some((id) => typeof id !== 'string' || id === '')) return 'every tool_use needs a non-empty string "id"';
    if (new Set(ids).size !== ids.length) return 'tool_use ids must be unique';
    const earlier = new Set(params.messages.flatMap((m) => blocksOf(m.content)).filter((b) => b.type === 'tool_use').map((b) => b.id));
    const reused = ids.filter((id) => earlier.has(id));
    if (reused.length) return `tool_use id(s) ${reused.join(', ')} were already used earlier in the conversation`;
  } else if (mode === 'required' && params.tools?.length) {
    return 'the request said toolChoice "required", but the result uses no tool';
  }
  return undefined;
}

/**
 * Serve one `sampling/createMessage` with `handler`: the request checked (tools only when
 * declared: -32602), the tool-round bound, the user's approval, then the handler's result checked
 * and, with `review`, shown to the user before it goes.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling
 */
export async function serveSampling(
  handler: SamplingHandler,
  params: JsonObject | undefined,
  ctx: RequestHandlerContext,
  options: SamplingOptions,
  env: { toolsDeclared: boolean; server: PeerInfo | undefined },
): Promise<JsonObject> {
  const problem = checkSamplingRequest(params, env.toolsDeclared);
  if (problem) throw new McpError(ErrorCode.InvalidParams, `Invalid sampling request: ${problem}`);
  if (options.maxToolRounds !== undefined) {
    const rounds = toolRounds((params as unknown as CreateMessageRequestParams).messages);
    if (rounds > options.maxToolRounds) {
      throw new McpError(ErrorCode.InvalidParams, `The conversation has ${rounds} tool rounds, more than this client allows (${options.maxToolRounds}); end the tool loop.`);
    }
  }
  let typed = params as unknown as CreateMessageRequestParams;
  if (options.approve) {
    const approved = await options.approve(typed, env.server);
    if (approved !== true && (approved === null || typeof approved !== 'object')) throw new SamplingRejectedError();
    if (approved !== true) {
      // The user's edit of the request: held to the same rules as the server's.
      const edited = checkSamplingRequest(approved, env.toolsDeclared);
      if (edited) throw new McpError(ErrorCode.InternalError, `The edited sampling request is invalid: ${edited}`);
      typed = approved;
    }
  }
  let result = await handler(typed, ctx);
  let bad = checkSamplingResult(result, typed);
  if (bad) throw new InvalidSamplingResultError(bad);
  if (options.review) {
    const reviewed = await options.review(result, typed, env.server);
    if (reviewed === false) throw new SamplingRejectedError();
    result = reviewed;
    bad = checkSamplingResult(result, typed);
    if (bad) throw new InvalidSamplingResultError(`after review: ${bad}`);
  }
  return result as unknown as JsonObject;
}
