/**
 * Tools: a registry of tools (immutable state), `tools/list` with pagination, `tools/call` with
 * argument validation and output checks, and the list_changed notification derived from the
 * registry.
 *
 * Errors: an unknown (or disabled) tool and malformed params are protocol errors (-32602);
 * arguments that fail the input schema, a handler that throws, and structured output that does
 * not match the output schema come back as a result with `isError: true`, so the model can see
 * what went wrong and try again.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools
 */
import { clientRendersApps, type AppToolMeta } from '../protocol/apps-extension.js';
import { appToolMetaFor, withoutAppLink } from './apps.js';
import { McpError, UpstreamFaultError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { hasCapability } from '../protocol/methods.js';
import { allows, type Revision } from '../protocol/revisions.js';
import type { Icon, Meta } from '../protocol/schema/base.js';
import type { ContentBlock } from '../protocol/schema/content.js';
import type { CallToolResult, ObjectJsonSchema, Tool, ToolAnnotations, ToolExecution } from '../protocol/schema/tools.js';
import type { RequestHandlerContext } from '../session/session.js';
import { scanParamHeaders, type ParamHeader } from '../modern/param-headers.js';
import { contentBlockProblem, contentForRevision, text } from './content.js';
import { HandlerFeatureContext, revisionOf, type FeatureContext } from './feature-context.js';
import type { FeatureHost } from './feature-host.js';
import { CompiledSchema, type InferSchema, type SchemaInput, type StandardSchemaV1, type Validation } from './json-schema.js';
import { broadcastListChanged } from './list-changed.js';
import { spreadCopy } from '../jsonrpc/spread-copy.js';
import { paginate } from './pagination.js';
import { Registry, type RegistryEntry, type RegistryState } from './registry.js';
import { emitWarning } from '../host-warning.js';
import { warnSensitiveHeaders } from './sensitive-headers.js';

/** The input schema of a tool registered without one: an object with no declared properties. */
export const EMPTY_INPUT_SCHEMA: ObjectJsonSchema = { type: 'object', properties: {} };

/** How a tool is described to clients. */
export interface ToolConfig<I extends SchemaInput | undefined = SchemaInput | undefined, O extends SchemaInput | undefined = SchemaInput | undefined> {
  /** Display name (sent from 2025-06-18). */
  title?: string;
  description?: string;
  /**
   * Schema of `arguments`: a JSON Schema object (sent verbatim, `$schema`, `$defs` and all)
   * or a Standard Schema validator such as a zod object. Default: an object without properties.
   */
  inputSchema?: I;
  /** Schema of `structuredContent` (sent from 2025-06-18); results are checked against it. */
  outputSchema?: O;
  /** Behaviour hints (sent from 2025-03-26). Clients treat them as untrusted. */
  annotations?: ToolAnnotations;
  /** Icons (sent from 2025-11-25). */
  icons?: Icon[];
  /** Task support (sent from 2025-11-25). */
  execution?: ToolExecution;
  /** Metadata on the tool (sent from 2025-06-18). */
  _meta?: Meta;
  /**
   * MCP Apps: the `ui://` app that renders this tool's results, and who may call it
   * (`visibility`, default both the model and the app). Sets `_meta.ui`; a client that does not
   * render apps is not told of the link, and a tool only the app may call is hidden from it.
   * @see https://modelcontextprotocol.io/extensions/apps
   */
  ui?: AppToolMeta;
}

/** The value a Standard Schema accepts as input (what a handler must return as structured content). */
type InferInput<S> = S extends StandardSchemaV1<infer In, any> ? In : { [key: string]: unknown };

/** What a tool handler may return. */
export type ToolResult<O extends SchemaInput | undefined = undefined> = Omit<CallToolResult, 'content' | 'structuredContent'> & {
  /** Unstructured content; with `structuredContent` and no content, a JSON text block is added. */
  content?: ContentBlock[];
  structuredContent?: O extends SchemaInput ? InferInput<O> : { [key: string]: unknown };
};

/** A tool handler: string and block-array returns are shorthand for `{ content }`. */
export type ToolHandler<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined> = (
  args: I extends SchemaInput ? InferSchema<I> : { [key: string]: unknown },
  ctx: FeatureContext,
) => ToolResult<O> | string | ContentBlock[] | void | Promise<ToolResult<O> | string | ContentBlock[] | void>;

/** A registered tool, as the registry holds it. */
export interface RegisteredTool extends RegistryEntry {
  readonly name: string;
  readonly enabled: boolean;
  readonly title?: string;
  readonly description?: string;
  readonly annotations?: ToolAnnotations;
  readonly icons?: Icon[];
  readonly execution?: ToolExecution;
  readonly _meta?: Meta;
  readonly input: CompiledSchema;
  readonly output: CompiledSchema | undefined;
  readonly handler: ToolHandler<any, any>;
}

/** What {@link ToolHandle.update} may change. */
export type ToolUpdate = ToolConfig<SchemaInput | undefined, SchemaInput | undefined> & {
  /** A new name (the tool keeps its place in the list). */
  name?: string;
  handler?: ToolHandler<any, any>;
  enabled?: boolean;
};

/** A registered tool's handle. Every change is a registry change, hence a list_changed. */
export interface ToolHandle {
  /** The tool's current name. */
  readonly name: string;
  readonly enabled: boolean;
  /** Change the description, schemas, handler or name. */
  update(changes: ToolUpdate): void;
  /** Take the tool away. */
  remove(): void;
  /** List and serve it again. */
  enable(): void;
  /** Keep it registered but neither listed nor callable. */
  disable(): void;
}

const NAME_GUIDANCE = /^[A-Za-z0-9_.-]{1,128}$/;

export class ToolsFeature {
  readonly registry = new Registry<RegisteredTool>('tool');
  private declared = false;

  constructor(private readonly host: FeatureHost) {
    host.server.onRequest('tools/list', (params, ctx) => this.list(params, ctx));
    host.server.onRequest('tools/call', (params, ctx) => this.call(params, ctx));
    broadcastListChanged('tools', this.registry.listed$, {
      server: host.server,
      clock: host.clock,
      debounceMs: host.listChangedDebounceMs,
    });
  }

  /** The registry's states. */
  get state$() {
    return this.registry.state$;
  }

  /** The current registry state. */
  get state(): RegistryState<RegisteredTool> {
    return this.registry.state;
  }

  register<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolHandler<I, O>,
  ): ToolHandle {
    checkName(name);
    if (typeof handler !== 'function') throw new TypeError(`registerTool("${name}"): the handler must be a function`);
    const entry = buildEntry(name, config, handler as ToolHandler<any, any>, true, undefined);
    this.registry.add(entry);
    warnWhenReady(entry);
    this.declare();
    this.enableTasksFor(config.execution);
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
        if (changes.name !== undefined) checkName(changes.name);
        registry.replace(current, (e) => {
          const next = buildEntry(changes.name ?? current, { ...configOf(e), ...changes }, changes.handler ?? e.handler, changes.enabled ?? e.enabled, e);
          if (changes.inputSchema !== undefined) warnWhenReady(next);
          return next;
        });
        this.enableTasksFor(changes.execution);
        current = changes.name ?? current;
      },
      remove: () => {
        registry.remove(current);
      },
      enable: () => registry.replace(current, (e) => (e.enabled ? e : { ...e, enabled: true })),
      disable: () => registry.replace(current, (e) => (e.enabled ? { ...e, enabled: false } : e)),
    };
  }

  /** The `x-mcp-header` parameters of tool `name` (2026-07-28 HTTP), or undefined for an unknown tool. */
  paramHeaders(name: string): ParamHeader[] | undefined {
    const tool = this.registry.get(name);
    if (!tool) return undefined;
    const cached = paramHeaderCache.get(tool);
    if (cached) return cached;
    const found = scanParamHeaders(tool.input.jsonSchema);
    paramHeaderCache.set(tool, found);
    return found;
  }

  /** `tools/list`: a page of the enabled tools, described for the session's revision. */
  async list(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
    const rev = revisionOf(ctx.session);
    const state = this.registry.state;
    // A client that does not render apps gets the text fallback: no app links, no app-only tools.
    const apps = clientRendersApps(ctx.session.peerCapabilities);
    const listed = apps ? this.registry.listed() : this.registry.listed().filter((t) => !appOnly(t));
    const page = paginate('tools', listed, (t) => t.name, params?.cursor, this.host.pageSize, state.version);
    await Promise.all(page.items.flatMap((t) => [t.input.ready, t.output?.ready]));
    const tools = page.items.map((t) => (apps ? describeTool(t, rev) : withoutAppLink(describeTool(t, rev))!));
    return page.nextCursor === undefined ? { tools } : { tools, nextCursor: page.nextCursor };
  }

  /**
   * `tools/call`. Answered at once when the validator and the handler answer at once, otherwise a
   * promise: a dispatch takes either, and two async functions per call cost more than the work.
   * A refusal here throws (the dispatch answers it as it answers a rejection).
   */
  call(params: JsonObject | undefined, ctx: RequestHandlerContext): JsonObject | Promise<JsonObject> {
    const name = params?.name;
    if (typeof name !== 'string') throw new McpError(ErrorCode.InvalidParams, 'tools/call needs a "name": the name of a tool from tools/list');
    const tool = this.registry.get(name);
    if (!tool || !tool.enabled || (appOnly(tool) && !clientRendersApps(ctx.session.peerCapabilities))) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
    const raw = params?.arguments;
    if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
      throw new McpError(ErrorCode.InvalidParams, `tools/call: "arguments" must be an object (got ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw})`);
    }
    const rev = revisionOf(ctx.session);
    const limiter = this.host.rateLimits.toolCalls;
    if (limiter && !limiter.take(ctx.session)) {
      return toolError(`Rate limit exceeded for tool calls; retry in ${limiter.retryAfter(ctx.session)} ms`);
    }
    if (this.host.tasks) {
      const support = tool.execution?.taskSupport ?? 'forbidden';
      // Undefined at once for an ordinary call (nearly all): nothing to wait for.
      const routed = this.host.tasks.route(name, support, params, ctx, async (taskCtx) => this.execute(tool, raw, taskCtx, rev));
      if (routed !== undefined) return routed.then((created) => created ?? this.execute(tool, raw, new HandlerFeatureContext(ctx, this.host.logging), rev));
    }
    return this.execute(tool, raw, new HandlerFeatureContext(ctx, this.host.logging), rev);
  }

  /**
   * Validate the arguments, run the handler with `fctx` (a request's, or a task's), check its
   * result: at once where each step answers at once (see {@link call}).
   */
  private execute(tool: RegisteredTool, raw: unknown, fctx: FeatureContext, rev: Revision): JsonObject | Promise<JsonObject> {
    const checked = tool.input.validate(raw ?? {});
    if (isThenable(checked)) return Promise.resolve(checked).then((c) => this.runHandler(tool, c, fctx, rev));
    return this.runHandler(tool, checked, fctx, rev);
  }

  private runHandler(tool: RegisteredTool, checked: Validation, fctx: FeatureContext, rev: Revision): JsonObject | Promise<JsonObject> {
    if (!checked.ok) return toolError(`Invalid arguments for tool "${tool.name}": ${checked.message}`);
    let returned: unknown;
    try {
      returned = tool.handler(checked.value as never, fctx);
    } catch (e) {
      return handlerFailed(tool.name, e, fctx);
    }
    if (isThenable(returned)) {
      return Promise.resolve(returned).then(
        (r) => this.finish(tool, r, fctx, rev),
        (e: unknown) => handlerFailed(tool.name, e, fctx),
      );
    }
    return this.finish(tool, returned, fctx, rev);
  }

  /** The handler's answer checked and shaped for the revision (its output schema's check may wait). */
  private finish(tool: RegisteredTool, returned: unknown, fctx: FeatureContext, rev: Revision): JsonObject | Promise<JsonObject> {
    const name = tool.name;
    const result = normalizeResult(returned);
    if (typeof result === 'string') return toolError(`Tool "${name}" returned an invalid result: ${result}`);
    if (tool.output && result.isError !== true) {
      if (result.structuredContent === undefined) {
        return toolError(`Tool "${name}" has an outputSchema but returned no structuredContent`);
      }
      return this.checkOutput(tool, tool.output, result, fctx, rev);
    }
    return this.shapeResult(name, result, fctx, rev);
  }

  private async checkOutput(tool: RegisteredTool, output: CompiledSchema, result: Normalized, fctx: FeatureContext, rev: Revision): Promise<JsonObject> {
    await output.ready;
    const out = await output.validate(result.structuredContent);
    if (!out.ok) return toolError(`Tool "${tool.name}" returned structuredContent that does not match its outputSchema: ${out.message}`);
    return this.shapeResult(tool.name, result, fctx, rev);
  }

  private shapeResult(name: string, result: Normalized, fctx: FeatureContext, rev: Revision): JsonObject {
    if (!hasCapability(fctx.session.localCapabilities, ['resources'])) this.adviseOnEmbeddedResources(name, result.content);
    if (result.structuredContent !== undefined && (result.content as unknown[]).length === 0) {
      // Older clients (and models that only read content) get the same data as JSON text.
      result.content = [text(JSON.stringify(result.structuredContent))];
    }
    return resultForRevision(result, rev);
  }

  /**
   * Servers that use embedded resources should implement the `resources` capability (so the
   * client can read and subscribe to them): said once per server when a tool returns one
   * to a session that was not told `resources`.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#embedded-resources
   */
  private adviseOnEmbeddedResources(tool: string, content: readonly ContentBlock[]): void {
    const embedded = content.find((b) => b.type === 'resource');
    if (!embedded) return;
    this.host.diagnostics.once({
      kind: 'embedded-resource-without-resources-capability',
      message:
        `Tool "${tool}" returned an embedded resource, but this server does not declare the "resources" capability. ` +
        'Servers that use embedded resources should implement it: register the resources (registerResource or ' +
        'registerResourceTemplate) before clients connect, or declare capabilities.resources in the server options.',
      detail: { tool, uri: (embedded as { resource?: { uri?: unknown } }).resource?.uri },
    });
  }

  /** A tool that may run as a task turns the server's tasks on (capability and `tasks/*`). */
  private enableTasksFor(execution: ToolExecution | undefined): void {
    const support = execution?.taskSupport;
    if (support === 'optional' || support === 'required') this.host.tasks?.enable();
  }

  private declare(): void {
    if (this.declared) return;
    this.declared = true;
    this.host.declareCapabilities({ tools: { listChanged: this.host.listChanged('tools') } });
  }
}

/** Once its JSON Schema is known, warn about sensitive-looking parameters the tool mirrors in headers. */
function warnWhenReady(entry: RegisteredTool): void {
  void entry.input.ready.then(() => warnSensitiveHeaders(entry.name, scanParamHeaders(entry.input.jsonSchema)));
}

function checkName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '') throw new TypeError('A tool needs a non-empty string name');
  if (!NAME_GUIDANCE.test(name)) {
    // Only a SHOULD (2025-11-25): said on stderr through Node's warning channel, never stdout.
    emitWarning(`Tool name "${name}" should be 1-128 characters of A-Z, a-z, 0-9, "_", "-" and "."`, { type: 'McpToolNameWarning' });
  }
}

function configOf(e: RegisteredTool): ToolUpdate {
  const c: ToolUpdate = { inputSchema: e.input.source };
  if (e.title !== undefined) c.title = e.title;
  if (e.description !== undefined) c.description = e.description;
  if (e.output) c.outputSchema = e.output.source;
  if (e.annotations !== undefined) c.annotations = e.annotations;
  if (e.icons !== undefined) c.icons = e.icons;
  if (e.execution !== undefined) c.execution = e.execution;
  if (e._meta !== undefined) c._meta = e._meta;
  return c;
}

function buildEntry(
  name: string,
  config: ToolConfig<any, any>,
  handler: ToolHandler<any, any>,
  enabled: boolean,
  previous: RegisteredTool | undefined,
): RegisteredTool {
  const inputSource = (config.inputSchema ?? EMPTY_INPUT_SCHEMA) as SchemaInput;
  const input =
    previous && previous.input.source === inputSource ? previous.input : new CompiledSchema(inputSource, 'input', `input schema of tool "${name}"`);
  const outputSource = config.outputSchema as SchemaInput | undefined;
  const output =
    outputSource === undefined
      ? undefined
      : previous?.output && previous.output.source === outputSource
        ? previous.output
        : new CompiledSchema(outputSource, 'output', `output schema of tool "${name}"`);
  const entry: { -readonly [K in keyof RegisteredTool]: RegisteredTool[K] } = { name, enabled, input, output, handler };
  // Copies: the registry freezes what it holds, and the caller's objects stay theirs.
  if (config.title !== undefined) entry.title = config.title;
  if (config.description !== undefined) entry.description = config.description;
  if (config.annotations !== undefined) entry.annotations = structuredClone(config.annotations);
  if (config.icons !== undefined) entry.icons = structuredClone(config.icons);
  if (config.execution !== undefined) entry.execution = structuredClone(config.execution);
  if (config._meta !== undefined) entry._meta = structuredClone(config._meta);
  if (config.ui !== undefined) entry._meta = appToolMetaFor(name, config.ui, entry._meta) as Meta;
  return entry;
}

/** A tool whose app link says only the app may call it. */
function appOnly(t: RegisteredTool): boolean {
  const visibility = (t._meta?.['ui'] as AppToolMeta | undefined)?.visibility;
  return visibility !== undefined && !visibility.includes('model');
}

/** A tool as `tools/list` shows it to a client of revision `rev`. */
export function describeTool(t: RegisteredTool, rev: Revision): Tool {
  const d: Tool = { name: t.name, inputSchema: t.input.jsonSchema };
  if (t.title !== undefined && allows(rev, 'title')) d.title = t.title;
  if (t.description !== undefined) d.description = t.description;
  if (t.output && allows(rev, 'outputSchema')) d.outputSchema = t.output.jsonSchema;
  if (t.annotations !== undefined && allows(rev, 'toolAnnotations')) d.annotations = t.annotations;
  if (t.icons !== undefined && allows(rev, 'icons')) d.icons = t.icons;
  if (t.execution !== undefined && allows(rev, 'toolExecution')) d.execution = t.execution;
  if (t._meta !== undefined && allows(rev, 'metaOnObjects')) d._meta = t._meta;
  // Key order for readers of the wire: name, title, description, inputSchema, …
  return reorder(d);
}

/** Per registered tool entry (entries are immutable; an update makes a new one). */
const paramHeaderCache = new WeakMap<object, ParamHeader[]>();

const TOOL_KEY_ORDER = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', 'execution', '_meta'];
function reorder(d: Tool): Tool {
  const out: Record<string, unknown> = {};
  for (const k of TOOL_KEY_ORDER) if ((d as Record<string, unknown>)[k] !== undefined) out[k] = (d as Record<string, unknown>)[k];
  return out as Tool;
}

/** A tool execution error: a result the model can read, with `isError: true`. */
export function toolError(message: string): JsonObject {
  return { content: [text(message)], isError: true };
}

/**
 * A handler's throw (or rejection): a tool error the model reads, or thrown on as a protocol error
 * where the protocol says so.
 */
function handlerFailed(name: string, e: unknown, fctx: FeatureContext): JsonObject {
  // Cancelled: the session drops the answer. Required URL elicitations are a protocol error.
  // So is a client capability a 2026-07-28 request did not declare (-32021).
  if (fctx.signal.aborted || (e instanceof McpError && (e.code === ErrorCode.UrlElicitationRequired || e.code === ErrorCode.MissingRequiredClientCapability))) throw e;
  // A task of the tasks extension fails with a protocol error (its `failed` status), not a tool error.
  if (e instanceof McpError && 'failsTaskOnProtocolError' in fctx) throw e;
  // A gateway's upstream that failed (exited, unreachable, timed out) is a server error: a protocol error.
  if (e instanceof UpstreamFaultError) throw e;
  return toolError(`Tool "${name}" failed: ${(e as Error)?.message ?? String(e)}`);
}

/** A handler's answer as a result. */
type Normalized = JsonObject & { content: ContentBlock[]; structuredContent?: unknown; isError?: boolean };

/** A handler's return value as a result, or a string saying why it is not one. */
function normalizeResult(returned: unknown): Normalized | string {
  if (returned === undefined || returned === null) return { content: [] };
  if (typeof returned === 'string') return { content: [text(returned)] };
  let result: JsonObject;
  if (Array.isArray(returned)) result = { content: returned };
  // Without `content` (structuredContent only), key by key: `content` is added to the copy below.
  else if (typeof returned === 'object') result = 'content' in returned ? { ...(returned as JsonObject) } : spreadCopy(returned as JsonObject);
  else return `expected a result object, a string or an array of content blocks, got ${typeof returned}`;
  if (result.content === undefined) result.content = [];
  if (!Array.isArray(result.content)) return '"content" must be an array of content blocks';
  for (const block of result.content) {
    const problem = contentBlockProblem(block);
    if (problem) return problem;
  }
  const sc = result.structuredContent;
  if (sc !== undefined && (sc === null || typeof sc !== 'object' || Array.isArray(sc))) return '"structuredContent" must be an object';
  if (result.isError !== undefined && typeof result.isError !== 'boolean') return '"isError" must be a boolean';
  return result as JsonObject & { content: ContentBlock[] };
}

/** A result as revision `rev` can carry it. */
function resultForRevision(result: JsonObject & { content: ContentBlock[] }, rev: Revision): JsonObject {
  const out: JsonObject = { ...result, content: contentForRevision(result.content, rev) };
  if (!allows(rev, 'structuredContent')) delete out.structuredContent;
  return out;
}

function isThenable<T>(v: T | PromiseLike<T>): v is PromiseLike<T> {
  return v !== null && typeof v === 'object' && typeof (v as PromiseLike<T>).then === 'function';
}
