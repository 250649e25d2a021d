/**
 * Prompts: a registry of prompt templates (immutable state), `prompts/list` with pagination,
 * `prompts/get` with argument checks, per-argument completion, and the list_changed
 * notification derived from the registry.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts
 */
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { allows, type Revision } from '../protocol/revisions.js';
import type { Icon, Meta } from '../protocol/schema/base.js';
import type { ContentBlock } from '../protocol/schema/content.js';
import type { GetPromptResult, Prompt, PromptArgument, PromptMessage } from '../protocol/schema/prompts.js';
import type { RequestHandlerContext } from '../session/session.js';
import type { CompleteCallback } from './complete-callback.js';
import { blockForRevision, contentBlockProblem, text } from './content.js';
import { HandlerFeatureContext, revisionOf, type FeatureContext } from './feature-context.js';
import type { FeatureHost } from './feature-host.js';
import { CompiledSchema, type InferSchema, type SchemaInput } from './json-schema.js';
import { broadcastListChanged } from './list-changed.js';
import { paginate } from './pagination.js';
import { Registry, type RegistryEntry, type RegistryState } from './registry.js';

/** One argument of a prompt. */
export interface PromptArgumentConfig {
  name: string;
  /** Display name (sent from 2025-06-18). */
  title?: string;
  description?: string;
  required?: boolean;
  /** Suggestions for this argument (`completion/complete`). */
  complete?: CompleteCallback;
}

/** How a prompt is described to clients. */
export interface PromptConfig<A extends SchemaInput | undefined = SchemaInput | undefined> {
  /** Display name (sent from 2025-06-18). */
  title?: string;
  description?: string;
  /** The arguments, listed as given. Give this or `argsSchema`. */
  arguments?: PromptArgumentConfig[];
  /**
   * The arguments as a schema (a JSON Schema object of string properties, or a Standard Schema
   * validator such as a zod object): listed from its properties and `required`, and the
   * arguments validated with it before the handler runs.
   */
  argsSchema?: A;
  /** Suggestions per argument name (also possible per entry of `arguments`). */
  complete?: { [argument: string]: CompleteCallback };
  /** Icons (sent from 2025-11-25). */
  icons?: Icon[];
  /** Metadata on the prompt (sent from 2025-06-18). */
  _meta?: Meta;
}

/** What a prompt handler may return: a result, its messages, or one user text message. */
export type PromptReturn = GetPromptResult | PromptMessage[] | string;

/** A prompt handler. */
export type PromptHandler<A extends SchemaInput | undefined = undefined> = (
  args: A extends SchemaInput ? InferSchema<A> : { [name: string]: string | undefined },
  ctx: FeatureContext,
) => PromptReturn | Promise<PromptReturn>;

/** A registered prompt, as the registry holds it. */
export interface RegisteredPrompt extends RegistryEntry {
  readonly name: string;
  readonly enabled: boolean;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: Icon[];
  readonly _meta?: Meta;
  /** Arguments as given (absent when they come from `args`). */
  readonly arguments?: readonly PromptArgument[];
  readonly args: CompiledSchema | undefined;
  readonly completers: { readonly [argument: string]: CompleteCallback };
  readonly handler: PromptHandler<any>;
}

/** What {@link PromptHandle.update} may change. */
export type PromptUpdate = PromptConfig<SchemaInput | undefined> & { name?: string; handler?: PromptHandler<any>; enabled?: boolean };

/** A registered prompt's handle. Every change is a registry change, hence a list_changed. */
export interface PromptHandle {
  readonly name: string;
  readonly enabled: boolean;
  update(changes: PromptUpdate): void;
  remove(): void;
  enable(): void;
  disable(): void;
}

export class PromptsFeature {
  readonly registry = new Registry<RegisteredPrompt>('prompt');
  private declared = false;

  constructor(
    private readonly host: FeatureHost,
    /** Called when a prompt with completions is registered (the completion feature declares its capability). */
    private readonly onCompletable: () => void = () => {},
  ) {
    host.server.onRequest('prompts/list', (params, ctx) => this.list(params, ctx));
    host.server.onRequest('prompts/get', (params, ctx) => this.get(params, ctx));
    broadcastListChanged('prompts', this.registry.listed$, {
      server: host.server,
      clock: host.clock,
      debounceMs: host.listChangedDebounceMs,
    });
  }

  get state$() {
    return this.registry.state$;
  }

  get state(): RegistryState<RegisteredPrompt> {
    return this.registry.state;
  }

  register<A extends SchemaInput | undefined = undefined>(name: string, config: PromptConfig<A>, handler: PromptHandler<A>): PromptHandle {
    if (typeof name !== 'string' || name === '') throw new TypeError('A prompt needs a non-empty string name');
    if (typeof handler !== 'function') throw new TypeError(`registerPrompt("${name}"): the handler must be a function`);
    const entry = buildEntry(name, config, handler as PromptHandler<any>, true, undefined);
    this.registry.add(entry);
    this.declare(entry);
    let current = name;
    const registry = this.registry;
    return {
      get name() {
        return current;
      },
      get enabled() {
        return registry.get(current)?.enabled ?? false;
      },
      update: (changes) => {
        if (changes.name !== undefined && (typeof changes.name !== 'string' || changes.name === '')) throw new TypeError('A prompt needs a non-empty string name');
        let built: RegisteredPrompt | undefined;
        registry.replace(current, (e) => {
          built = buildEntry(changes.name ?? current, mergeConfig(e, changes), changes.handler ?? e.handler, changes.enabled ?? e.enabled, e);
          return built;
        });
        current = changes.name ?? current;
        if (built) this.declare(built);
      },
      remove: () => {
        registry.remove(current);
      },
      enable: () => registry.replace(current, (e) => (e.enabled ? e : { ...e, enabled: true })),
      disable: () => registry.replace(current, (e) => (e.enabled ? { ...e, enabled: false } : e)),
    };
  }

  /** The arguments of `prompt` (waiting for a schema conversion if one is under way). */
  async argumentsOf(prompt: RegisteredPrompt): Promise<readonly PromptArgument[]> {
    if (prompt.arguments) return prompt.arguments;
    if (!prompt.args) return [];
    await prompt.args.ready;
    return argumentsFromSchema(prompt.args.jsonSchema);
  }

  /** `prompts/list`. */
  async list(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
    const rev = revisionOf(ctx.session);
    const page = paginate('prompts', this.registry.listed(), (p) => p.name, params?.cursor, this.host.pageSize, this.registry.state.version);
    const prompts = await Promise.all(page.items.map(async (p) => describePrompt(p, await this.argumentsOf(p), rev)));
    return page.nextCursor === undefined ? { prompts } : { prompts, nextCursor: page.nextCursor };
  }

  /** `prompts/get`. */
  async get(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
    const name = params?.name;
    if (typeof name !== 'string') throw new McpError(ErrorCode.InvalidParams, 'prompts/get needs a "name": the name of a prompt from prompts/list');
    const prompt = this.registry.get(name);
    if (!prompt || !prompt.enabled) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`, { name });
    const raw = params?.arguments;
    if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
      throw new McpError(ErrorCode.InvalidParams, `prompts/get: "arguments" must be an object of strings`);
    }
    const given = (raw ?? {}) as Record<string, unknown>;
    const notStrings = Object.keys(given).filter((k) => typeof given[k] !== 'string');
    if (notStrings.length > 0) {
      throw new McpError(ErrorCode.InvalidParams, `Prompt "${name}": argument values must be strings (${notStrings.join(', ')} ${notStrings.length === 1 ? 'is' : 'are'} not)`);
    }
    const declared = await this.argumentsOf(prompt);
    const missing = declared.filter((a) => a.required === true && given[a.name] === undefined).map((a) => a.name);
    if (missing.length > 0) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Prompt "${name}" is missing required argument${missing.length === 1 ? '' : 's'}: ${missing.join(', ')}`,
        { missing },
      );
    }
    let args: unknown = given;
    if (prompt.args) {
      const checked = await prompt.args.validate(given);
      if (!checked.ok) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt "${name}": ${checked.message}`);
      args = checked.value;
    }
    const returned = await prompt.handler(args as never, new HandlerFeatureContext(ctx, this.host.logging));
    const result = normalizeResult(returned);
    if (typeof result === 'string') throw new McpError(ErrorCode.InternalError, `Prompt "${name}" produced an invalid result: ${result}`);
    return resultForRevision(result, revisionOf(ctx.session));
  }

  private declare(entry: RegisteredPrompt): void {
    if (Object.keys(entry.completers).length > 0) this.onCompletable();
    if (this.declared) return;
    this.declared = true;
    this.host.declareCapabilities({ prompts: { listChanged: this.host.listChanged('prompts') } });
  }
}

function mergeConfig(e: RegisteredPrompt, changes: PromptUpdate): PromptConfig<any> {
  const c: PromptConfig<any> = {};
  if (e.title !== undefined) c.title = e.title;
  if (e.description !== undefined) c.description = e.description;
  if (e.icons !== undefined) c.icons = e.icons;
  if (e._meta !== undefined) c._meta = e._meta;
  if (!('arguments' in changes) && !('argsSchema' in changes)) {
    if (e.arguments) c.arguments = e.arguments.map((a) => ({ ...a }));
    if (e.args) c.argsSchema = e.args.source;
  }
  c.complete = { ...e.completers };
  const { complete, ...rest } = changes;
  return { ...c, ...rest, complete: { ...c.complete, ...complete } };
}

function buildEntry(
  name: string,
  config: PromptConfig<any>,
  handler: PromptHandler<any>,
  enabled: boolean,
  previous: RegisteredPrompt | undefined,
): RegisteredPrompt {
  if (config.arguments !== undefined && config.argsSchema !== undefined) {
    throw new TypeError(`Prompt "${name}": give either arguments or argsSchema, not both`);
  }
  const completers: Record<string, CompleteCallback> = {};
  for (const [arg, fn] of Object.entries(config.complete ?? {})) {
    if (typeof fn !== 'function') throw new TypeError(`Prompt "${name}": the completion of "${arg}" must be a function`);
    completers[arg] = fn;
  }
  let args: PromptArgument[] | undefined;
  if (config.arguments !== undefined) {
    const seen = new Set<string>();
    args = config.arguments.map((a) => {
      if (typeof a?.name !== 'string' || a.name === '') throw new TypeError(`Prompt "${name}": every argument needs a name`);
      if (seen.has(a.name)) throw new TypeError(`Prompt "${name}": argument "${a.name}" is listed twice`);
      seen.add(a.name);
      const { complete, ...plain } = a;
      if (complete !== undefined) {
        if (typeof complete !== 'function') throw new TypeError(`Prompt "${name}": the completion of "${a.name}" must be a function`);
        completers[a.name] = complete;
      }
      return structuredClone(plain);
    });
  }
  const schemaSource = config.argsSchema as SchemaInput | undefined;
  const compiled =
    schemaSource === undefined
      ? undefined
      : previous?.args && previous.args.source === schemaSource
        ? previous.args
        : new CompiledSchema(schemaSource, 'input', `argsSchema of prompt "${name}"`);
  const entry: { -readonly [K in keyof RegisteredPrompt]: RegisteredPrompt[K] } = { name, enabled, args: compiled, completers, handler };
  if (args !== undefined) entry.arguments = args;
  if (config.title !== undefined) entry.title = config.title;
  if (config.description !== undefined) entry.description = config.description;
  if (config.icons !== undefined) entry.icons = structuredClone(config.icons);
  if (config._meta !== undefined) entry._meta = structuredClone(config._meta);
  return entry;
}

/** Prompt arguments from an object schema's properties. */
export function argumentsFromSchema(schema: { properties?: { [name: string]: object }; required?: string[] }): PromptArgument[] {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => {
    const p = prop as { title?: unknown; description?: unknown };
    const a: PromptArgument = { name };
    if (typeof p.title === 'string') a.title = p.title;
    if (typeof p.description === 'string') a.description = p.description;
    a.required = required.has(name);
    return a;
  });
}

/** A prompt as `prompts/list` shows it to a client of revision `rev`. */
export function describePrompt(p: RegisteredPrompt, args: readonly PromptArgument[], rev: Revision): Prompt {
  const d: Prompt = { name: p.name };
  if (p.title !== undefined && allows(rev, 'title')) d.title = p.title;
  if (p.description !== undefined) d.description = p.description;
  if (args.length > 0) {
    d.arguments = args.map((a) => {
      const out: PromptArgument = { name: a.name };
      if (a.title !== undefined && allows(rev, 'title')) out.title = a.title;
      if (a.description !== undefined) out.description = a.description;
      if (a.required !== undefined) out.required = a.required;
      return out;
    });
  }
  if (p.icons !== undefined && allows(rev, 'icons')) d.icons = p.icons;
  if (p._meta !== undefined && allows(rev, 'metaOnObjects')) d._meta = p._meta;
  return d;
}

function normalizeResult(returned: unknown): (JsonObject & { messages: PromptMessage[] }) | string {
  let result: JsonObject;
  if (typeof returned === 'string') result = { messages: [{ role: 'user', content: text(returned) }] };
  else if (Array.isArray(returned)) result = { messages: returned };
  else if (returned !== null && typeof returned === 'object') result = { ...(returned as JsonObject) };
  else return `expected a result, an array of messages or a string, got ${returned === null ? 'null' : typeof returned}`;
  if (!Array.isArray(result.messages)) return '"messages" must be an array';
  for (const [i, m] of (result.messages as unknown[]).entries()) {
    const msg = m as { role?: unknown; content?: unknown } | null;
    if (msg === null || typeof msg !== 'object') return `message ${i} must be an object`;
    if (msg.role !== 'user' && msg.role !== 'assistant') return `message ${i}: role must be "user" or "assistant"`;
    const problem = contentBlockProblem(msg.content, true);
    if (problem) return `message ${i}: ${problem}`;
  }
  if (result.description !== undefined && typeof result.description !== 'string') return '"description" must be a string';
  return result as JsonObject & { messages: PromptMessage[] };
}

/** Messages whose content revision `rev` cannot carry (audio, resource links) are left out. */
function resultForRevision(result: JsonObject & { messages: PromptMessage[] }, rev: Revision): JsonObject {
  const messages: PromptMessage[] = [];
  for (const m of result.messages) {
    const content = blockForRevision(m.content as ContentBlock, rev);
    if (content) messages.push(content === m.content ? m : { ...m, content });
  }
  return { ...result, messages };
}
