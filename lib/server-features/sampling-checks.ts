/**
 * What the server checks around `sampling/createMessage`: the messages it sends (content blocks
 * the revision has; `tool_use` / `tool_result` balance) and the result it gets back (a valid
 * message; tool uses only of offered tools, none under `toolChoice: none`; the conversation
 * with the result appended still balanced).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#message-content-constraints
 */
import { allows, type Revision } from '../protocol/revisions.js';
import type { CreateMessageRequestParams } from '../protocol/schema/sampling.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

interface Block {
  type: string;
  [key: string]: unknown;
}

interface Message {
  role: unknown;
  content: unknown;
}

function blocksOf(content: unknown): unknown[] {
  return Array.isArray(content) ? content : [content];
}

/** What is wrong with one content block for `rev`, or undefined. `tools`: tool blocks are allowed. */
function blockProblem(b: unknown, rev: Revision, tools: boolean): string | undefined {
  if (!isObject(b) || typeof b.type !== 'string') return 'a content block must be an object with a "type"';
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? undefined : 'a text block needs a string "text"';
    case 'image':
    case 'audio':
      if (b.type === 'audio' && !allows(rev, 'audioContent')) return `audio content needs protocol revision 2025-03-26 or later (negotiated: ${rev})`;
      return typeof b.data === 'string' && typeof b.mimeType === 'string' ? undefined : `an ${b.type} block needs string "data" (base64) and "mimeType"`;
    case 'tool_use':
      if (!tools) return 'tool_use blocks need tool-enabled sampling (revision 2025-11-25 and the client\'s sampling.tools capability)';
      return typeof b.id === 'string' && b.id !== '' && typeof b.name === 'string' && isObject(b.input)
        ? undefined
        : 'a tool_use block needs string "id" and "name" and an object "input"';
    case 'tool_result':
      if (!tools) return 'tool_result blocks need tool-enabled sampling (revision 2025-11-25 and the client\'s sampling.tools capability)';
      return typeof b.toolUseId === 'string' && Array.isArray(b.content) ? undefined : 'a tool_result block needs a string "toolUseId" and an array "content"';
    default:
      return `unknown content block type ${JSON.stringify(b.type).slice(0, 60)}`;
  }
}

/** The shape of one message (role, blocks the revision has). */
function messageProblem(m: unknown, rev: Revision, tools: boolean, where: string): string | undefined {
  if (!isObject(m)) return `${where} must be an object`;
  if (m.role !== 'user' && m.role !== 'assistant') return `${where}.role must be "user" or "assistant"`;
  if (Array.isArray(m.content)) {
    if (!allows(rev, 'samplingContentArrays')) return `${where}.content must be a single block in revision ${rev} (arrays arrived in 2025-11-25)`;
    if (m.content.length === 0) return `${where}.content must not be empty`;
  }
  for (const b of blocksOf(m.content)) {
    const p = blockProblem(b, rev, tools);
    if (p) return `${where}: ${p}`;
  }
  return undefined;
}

/**
 * The tool_use / tool_result balance of a conversation, or undefined when it holds: every
 * assistant message with `tool_use` blocks is followed by a user message of `tool_result`
 * blocks only, answering each of those ids exactly once; a `tool_result` answers a `tool_use`
 * of the message right before it; tool_use ids are unique. With `openEnd`, the last message may
 * be an assistant message whose tool uses are not answered yet (a result from the model).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#tool-use-and-result-balance
 */
export function toolBalanceProblem(messages: readonly Message[], openEnd = false): string | undefined {
  let pending: string[] | undefined;
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const blocks = blocksOf(m.content).filter(isObject) as Block[];
    const uses = blocks.filter((b) => b.type === 'tool_use');
    const results = blocks.filter((b) => b.type === 'tool_result');
    if (pending) {
      const ids = pending.map((id) => JSON.stringify(id)).join(', ');
      if (m.role !== 'user' || results.length === 0) {
        return `message ${i} must be a user message of tool_result blocks answering tool_use ${ids} of message ${i - 1} (no other message may come first)`;
      }
      if (results.length !== blocks.length) return `message ${i} mixes tool_result blocks with other content; a tool result message must hold only tool results`;
      const answered = new Set<string>();
      for (const r of results) {
        const id = r.toolUseId as string;
        if (!pending.includes(id)) return `message ${i} has a tool_result for ${JSON.stringify(id)}, which no tool_use of message ${i - 1} has`;
        if (answered.has(id)) return `message ${i} answers tool_use ${JSON.stringify(id)} twice`;
        answered.add(id);
      }
      const missing = pending.filter((id) => !answered.has(id));
      if (missing.length) return `message ${i} leaves tool_use ${missing.map((id) => JSON.stringify(id)).join(', ')} of message ${i - 1} without a tool_result`;
      pending = undefined;
      continue;
    }
    if (results.length > 0) {
      return `message ${i} has a tool_result for ${JSON.stringify(results[0]!.toolUseId)} that does not follow an assistant message with that tool_use`;
    }
    if (uses.length > 0) {
      if (m.role !== 'assistant') return `message ${i} has tool_use blocks but is a ${String(m.role)} message; tool uses come from the assistant`;
      for (const u of uses) {
        const id = u.id as string;
        if (seen.has(id)) return `tool_use id ${JSON.stringify(id)} is used twice (message ${i})`;
        seen.add(id);
      }
      pending = uses.map((u) => u.id as string);
    }
  }
  if (pending && !openEnd) {
    return `the last message has tool_use ${pending.map((id) => JSON.stringify(id)).join(', ')} with no tool_result: answer them before sampling again`;
  }
  return undefined;
}

/** Problems of the params the server is about to send (shape, revision, balance). */
export function samplingParamsProblem(params: CreateMessageRequestParams, rev: Revision, toolsEnabled: boolean): string | undefined {
  if (!isObject(params)) return 'params must be an object';
  if (!Array.isArray(params.messages) || params.messages.length === 0) return '"messages" must be a non-empty array';
  if (!(Number.isSafeInteger(params.maxTokens) && params.maxTokens > 0)) return '"maxTokens" must be a positive integer';
  if (params.systemPrompt !== undefined && typeof params.systemPrompt !== 'string') return '"systemPrompt" must be a string';
  if (params.temperature !== undefined && !(typeof params.temperature === 'number' && Number.isFinite(params.temperature))) return '"temperature" must be a number';
  if (params.stopSequences !== undefined && !(Array.isArray(params.stopSequences) && params.stopSequences.every((s) => typeof s === 'string'))) {
    return '"stopSequences" must be an array of strings';
  }
  if (params.includeContext !== undefined && !['none', 'thisServer', 'allServers'].includes(params.includeContext)) {
    return '"includeContext" must be "none", "thisServer" or "allServers"';
  }
  const prefs = params.modelPreferences;
  if (prefs !== undefined) {
    if (!isObject(prefs)) return '"modelPreferences" must be an object';
    for (const k of ['costPriority', 'speedPriority', 'intelligencePriority'] as const) {
      const v = prefs[k];
      if (v !== undefined && !(typeof v === 'number' && v >= 0 && v <= 1)) return `"modelPreferences.${k}" must be a number from 0 to 1`;
    }
    if (prefs.hints !== undefined && !(Array.isArray(prefs.hints) && prefs.hints.every(isObject))) return '"modelPreferences.hints" must be an array of objects';
  }
  if (params.tools !== undefined) {
    if (!Array.isArray(params.tools)) return '"tools" must be an array';
    const names = new Set<string>();
    for (const [i, t] of params.tools.entries()) {
      if (!isObject(t) || typeof t.name !== 'string' || t.name === '') return `tools[${i}] needs a non-empty string "name"`;
      if (!isObject(t.inputSchema) || t.inputSchema.type !== 'object') return `tools[${i}] ("${t.name}") needs an inputSchema of type "object"`;
      if (names.has(t.name)) return `tools has "${t.name}" twice`;
      names.add(t.name);
    }
  }
  if (params.toolChoice !== undefined) {
    const mode = (params.toolChoice as { mode?: unknown })?.mode;
    if (!isObject(params.toolChoice) || (mode !== undefined && mode !== 'auto' && mode !== 'required' && mode !== 'none')) {
      return '"toolChoice" must be { mode: "auto" | "required" | "none" }';
    }
  }
  for (let i = 0; i < params.messages.length; i++) {
    const p = messageProblem(params.messages[i], rev, toolsEnabled, `messages[${i}]`);
    if (p) return p;
  }
  return toolBalanceProblem(params.messages as Message[]);
}

/** Problems of the client's `CreateMessageResult` for the params that were sent. */
export function samplingResultProblem(result: unknown, params: CreateMessageRequestParams, rev: Revision, toolsEnabled: boolean): string | undefined {
  if (!isObject(result)) return 'the result must be an object';
  if (typeof result.model !== 'string') return '"model" must be a string';
  if (result.stopReason !== undefined && typeof result.stopReason !== 'string') return '"stopReason" must be a string';
  const offered = new Set((params.tools ?? []).map((t) => t.name));
  const shape = messageProblem(result, rev, toolsEnabled && offered.size > 0, 'the result');
  if (shape) return shape;
  const blocks = blocksOf(result.content) as Block[];
  const uses = blocks.filter((b) => b.type === 'tool_use');
  if (blocks.some((b) => b.type === 'tool_result')) return 'the result has a tool_result block; only the server sends tool results';
  for (const u of uses) {
    if (!offered.has(u.name as string)) return `the result uses tool "${String(u.name).slice(0, 100)}", which was not offered`;
  }
  const mode = params.toolChoice?.mode;
  if (mode === 'none' && uses.length > 0) return 'the result uses tools although toolChoice.mode was "none"';
  if (mode === 'required' && uses.length === 0 && !params.messages.some((m) => blocksOf(m.content).some((b) => isObject(b) && b.type === 'tool_use'))) {
    return 'the result uses no tool although toolChoice.mode was "required"';
  }
  if (result.stopReason === 'toolUse' && uses.length === 0) return 'stopReason is "toolUse" but the result has no tool_use block';
  const balance = toolBalanceProblem([...(params.messages as Message[]), result as unknown as Message], true);
  return balance ? `with the result appended: ${balance}` : undefined;
}
