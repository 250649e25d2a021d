/**
 * Resources, server side: a registry of resources and resource templates (immutable state,
 * updated with immer, observable as `state$`), and the handlers that serve it on a `Server`:
 * `resources/list` (static resources, then what templates' `list` callbacks return, paginated
 * with opaque cursors), `resources/templates/list`, `resources/read`, `resources/subscribe` and
 * `resources/unsubscribe` (per session). `notifications/resources/list_changed` is derived from
 * the registry's state (debounced on the server's clock), not sent by hand;
 * `notifications/resources/updated` goes to the sessions subscribed to a URI.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
 */
import { produce } from 'immer';
import { BehaviorSubject, Observable, Subject, distinctUntilChanged, map, merge, skip, tap, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import { systemClock, type Clock } from '../clock.js';
import { McpError, ResourceNotFoundError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { hasCapability } from '../protocol/methods.js';
import { allows, isSupportedRevision, type Revision } from '../protocol/revisions.js';
import type { Annotations, Icon, Meta } from '../protocol/schema/base.js';
import type { BlobResourceContents, TextResourceContents } from '../protocol/schema/resources.js';
import type { Resource, ResourceTemplate } from '../protocol/schema/resources.js';
import type { Server } from '../server.js';
import type { RequestCaller, RequestHandlerContext, Session } from '../session/session.js';
import { DEFAULT_MAX_URI_LENGTH, UriTemplate, UriTemplateError, uriProblem, type MatchedVariables } from './uri-template.js';
import { listEpochsOf, type ListEpochs } from './list-epochs.js';
import { base64Decode, base64Encode, utf8Decode, utf8ToBase64url } from '../crypto/bytes.js';

// ---------------------------------------------------------------- public types

/** Descriptive fields of a resource (everything but `uri` and `name`). */
export interface ResourceMetadata {
  /** Display name (sent from 2025-06-18). */
  title?: string;
  description?: string;
  mimeType?: string;
  /** Raw size in bytes, when known. */
  size?: number;
  annotations?: Annotations;
  /** Sent from 2025-11-25. */
  icons?: Icon[];
  /** Sent from 2025-06-18. */
  _meta?: Meta;
}

/** One content of a read: text, or binary as base64 or as bytes (encoded to base64 for you). */
export type ResourceContentsInput =
  | (Omit<TextResourceContents, 'uri'> & { uri?: string })
  | (Omit<BlobResourceContents, 'uri' | 'blob'> & { uri?: string; blob: string | Uint8Array });

/** What a read callback returns. A content without `uri` gets the URI that was read. */
export interface ReadResourceOutput {
  contents: ResourceContentsInput[];
  _meta?: Meta;
  /**
   * 2026-07-28 caching hints for this read (sent only to modern requests; the server's per-method
   * default otherwise): how long the result stays fresh, and whether shared caches may keep it.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
   */
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

export type ReadResourceCallback = (uri: string, ctx: RequestHandlerContext) => ReadResourceOutput | Promise<ReadResourceOutput>;
export type ReadTemplateCallback = (
  uri: string,
  variables: MatchedVariables,
  ctx: RequestHandlerContext,
) => ReadResourceOutput | Promise<ReadResourceOutput>;

/** A resource a template's `list` callback reports (the template's mimeType etc. fill gaps). */
export type ListedResource = { uri: string; name: string } & ResourceMetadata;
export type ListTemplateCallback = (ctx: RequestHandlerContext) => ListedResource[] | Promise<ListedResource[]>;

/** Context of a completion request: arguments the client already resolved. */
export interface CompletionContext {
  arguments: Record<string, string>;
}
export type CompleteVariableCallback = (
  value: string,
  context: CompletionContext,
  ctx: RequestHandlerContext | undefined,
) => string[] | Promise<string[]>;

/** Descriptive fields of a template plus its optional `list` and per-variable `complete`. */
export interface ResourceTemplateMetadata extends Omit<ResourceMetadata, 'size'> {
  /** Enumerate concrete resources of this template for `resources/list`. */
  list?: ListTemplateCallback;
  /** Completion of template variables, by variable name. */
  complete?: { [variable: string]: CompleteVariableCallback };
}

/** Handle of a registered resource. */
export interface RegisteredResource {
  readonly name: string;
  readonly uri: string;
  /** Change fields; a key given as `undefined` removes that field. */
  update(changes: Partial<ResourceMetadata> & { name?: string; uri?: string; read?: ReadResourceCallback }): void;
  remove(): void;
}

/** Handle of a registered resource template. */
export interface RegisteredResourceTemplate {
  readonly name: string;
  readonly uriTemplate: string;
  /** Change fields; a key given as `undefined` removes that field. */
  update(changes: Partial<ResourceTemplateMetadata> & { name?: string; uriTemplate?: string; read?: ReadTemplateCallback }): void;
  remove(): void;
}

export interface ResourcesInstallOptions {
  /** Items per `resources/list` and `resources/templates/list` page. Default 50. */
  pageSize?: number;
  /** Quiet time before `notifications/resources/list_changed` goes out. Default 0 (one timer turn). */
  listChangedDebounceMs?: number;
  /** Offer `resources/subscribe` (capability `resources.subscribe`). Default true. */
  subscribe?: boolean;
  /** Send `list_changed` (capability `resources.listChanged`). Default true. */
  listChanged?: boolean;
  /** Declare `resources` even while nothing is registered. Default false: on first registration. */
  declareWhenEmpty?: boolean;
  /** Longest URI accepted in requests. Default 65 536. */
  maxUriLength?: number;
  /** Most subscriptions one session may hold. Default 10 000. */
  maxSubscriptionsPerSession?: number;
  /** The clock for the debounce. Default: the server's clock, else the system clock. */
  clock?: Clock;
}

/** What `complete` returns: the `completion` object of a `completion/complete` result. */
export interface CompletionValues {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export { ResourceNotFoundError };

// ---------------------------------------------------------------- state

interface ResourceEntry {
  readonly seq: number;
  /** The `Resource` object as listed (newest revision's shape). */
  readonly listed: Resource;
  readonly read: ReadResourceCallback;
}

interface TemplateEntry {
  readonly seq: number;
  readonly listed: ResourceTemplate;
  readonly template: UriTemplate;
  readonly read: ReadTemplateCallback;
  readonly list: ListTemplateCallback | undefined;
  readonly complete: Readonly<Record<string, CompleteVariableCallback>> | undefined;
}

/** The registry: immutable, replaced on every change. */
export interface ResourcesState {
  /** By URI. */
  readonly resources: Readonly<Record<string, ResourceEntry>>;
  /** By name. */
  readonly templates: Readonly<Record<string, TemplateEntry>>;
  readonly nextSeq: number;
}

const DEFAULT_PAGE_SIZE = 50;
const MAX_COMPLETION_VALUES = 100;
const MAX_CURSOR_LENGTH = 256;

type CursorKey = [group: number, seq: number, index: number];

// ---------------------------------------------------------------- the feature

export class ResourcesFeature {
  private readonly stateSubject = new BehaviorSubject<ResourcesState>({
    resources: Object.create(null) as Record<string, ResourceEntry>,
    templates: Object.create(null) as Record<string, TemplateEntry>,
    nextSeq: 1,
  });
  /** The registry as it changes (current value first). */
  readonly state$: Observable<ResourcesState> = this.stateSubject.asObservable();

  private readonly manualListChanged = new Subject<void>();
  private readonly subscriptions = new Map<Session, Set<string>>();
  private server: Server | undefined;
  private options: Required<Omit<ResourcesInstallOptions, 'clock'>> & { clock: Clock } = {
    pageSize: DEFAULT_PAGE_SIZE,
    listChangedDebounceMs: 0,
    subscribe: true,
    listChanged: true,
    declareWhenEmpty: false,
    maxUriLength: DEFAULT_MAX_URI_LENGTH,
    maxSubscriptionsPerSession: 10_000,
    clock: systemClock,
  };
  private declared = false;
  private listChangedSubscription: Subscription | undefined;
  private sorted: { state: ResourcesState; resources: ResourceEntry[]; templates: TemplateEntry[] } | undefined;

  /** The registry now. */
  get state(): ResourcesState {
    return this.stateSubject.value;
  }

  /** Whether any template completes a variable (so `completions` is worth declaring). */
  get hasCompletions(): boolean {
    return Object.values(this.state.templates).some((t) => t.complete && Object.keys(t.complete).length > 0);
  }

  // ------------------------------------------------------------ registration

  /** Register a resource at a fixed URI. Throws on an invalid or already registered URI. */
  registerResource(name: string, uri: string, metadata: ResourceMetadata, read: ReadResourceCallback): RegisteredResource {
    checkName(name, 'resource');
    checkUri(uri);
    checkMetadata(metadata);
    if (typeof read !== 'function') throw new TypeError(`Resource "${name}": the read callback must be a function`);
    if (this.state.resources[uri]) throw new Error(`A resource with URI "${uri}" is already registered`);
    const seq = this.state.nextSeq;
    this.commit((s) => {
      s.resources[uri] = { seq, listed: listedResource(uri, name, metadata), read };
      s.nextSeq = seq + 1;
    });
    let current = uri;
    const handle: RegisteredResource = {
      get name() {
        return handleEntry().listed.name;
      },
      get uri() {
        return current;
      },
      update: (changes) => {
        const entry = handleEntry();
        const next: Record<string, unknown> = { ...entry.listed };
        for (const [k, v] of Object.entries(changes)) {
          if (k === 'read') continue;
          if (v === undefined) delete next[k];
          else next[k] = v;
        }
        checkName(next.name, 'resource');
        checkUri(next.uri);
        const { uri: newUri, name: newName, ...meta } = next as unknown as ListedResource;
        checkMetadata(meta);
        const read = changes.read ?? entry.read;
        if (typeof read !== 'function') throw new TypeError('The read callback must be a function');
        if (newUri !== current && this.state.resources[newUri]) throw new Error(`A resource with URI "${newUri}" is already registered`);
        const old = current;
        // Unchanged listing keeps its object, so list_changed (derived by reference) stays quiet.
        const fresh = listedResource(newUri, newName, meta);
        const listed = sameJson(fresh, entry.listed) ? entry.listed : fresh;
        this.commit((s) => {
          delete s.resources[old];
          s.resources[newUri] = { seq: entry.seq, listed, read };
        });
        current = newUri;
      },
      remove: () => {
        const old = current;
        if (!this.state.resources[old]) return;
        this.commit((s) => {
          delete s.resources[old];
        });
      },
    };
    const handleEntry = () => {
      const e = this.state.resources[current];
      if (!e) throw new Error(`Resource "${current}" was removed`);
      return e;
    };
    this.afterRegistration();
    return handle;
  }

  /**
   * Register a family of resources named by an RFC 6570 URI template. `read` gets the URI and
   * its variables. Throws on a malformed template, a duplicate name or template, or a
   * `complete` entry for a variable the template does not have.
   */
  registerResourceTemplate(
    name: string,
    uriTemplate: string,
    metadata: ResourceTemplateMetadata,
    read: ReadTemplateCallback,
  ): RegisteredResourceTemplate {
    checkName(name, 'resource template');
    if (this.state.templates[name]) throw new Error(`A resource template named "${name}" is already registered`);
    const entry = this.templateEntry(this.state.nextSeq, name, uriTemplate, metadata, read);
    if (Object.values(this.state.templates).some((t) => t.listed.uriTemplate === uriTemplate)) {
      throw new Error(`A resource template "${uriTemplate}" is already registered`);
    }
    this.commit((s) => {
      s.templates[name] = entry;
      s.nextSeq = entry.seq + 1;
    });
    let current = name;
    const handleEntry = () => {
      const e = this.state.templates[current];
      if (!e) throw new Error(`Resource template "${current}" was removed`);
      return e;
    };
    const handle: RegisteredResourceTemplate = {
      get name() {
        return current;
      },
      get uriTemplate() {
        return handleEntry().listed.uriTemplate;
      },
      update: (changes) => {
        const e = handleEntry();
        const merged: Record<string, unknown> = { ...metadataOf(e), name: current, uriTemplate: e.listed.uriTemplate };
        for (const [k, v] of Object.entries(changes)) {
          if (k === 'read') continue;
          if (v === undefined) delete merged[k];
          else merged[k] = v;
        }
        const { name: newName, uriTemplate: newTemplate, ...meta } = merged as unknown as { name: string; uriTemplate: string } & ResourceTemplateMetadata;
        checkName(newName, 'resource template');
        const built = this.templateEntry(e.seq, newName, newTemplate, meta, changes.read ?? e.read);
        const next = sameJson(built.listed, e.listed) ? { ...built, listed: e.listed } : built;
        if (newName !== current && this.state.templates[newName]) throw new Error(`A resource template named "${newName}" is already registered`);
        if (Object.values(this.state.templates).some((t) => t !== e && t.listed.uriTemplate === newTemplate)) {
          throw new Error(`A resource template "${newTemplate}" is already registered`);
        }
        const old = current;
        this.commit((s) => {
          delete s.templates[old];
          s.templates[newName] = next;
        });
        current = newName;
      },
      remove: () => {
        const old = current;
        if (!this.state.templates[old]) return;
        this.commit((s) => {
          delete s.templates[old];
        });
      },
    };
    this.afterRegistration();
    return handle;
  }

  /**
   * Tell clients the list changed for a reason the registry cannot see (a template's `list`
   * callback now returns something else). Debounced with registry changes.
   */
  notifyListChanged(): void {
    this.manualListChanged.next();
  }

  /**
   * Send `notifications/resources/updated` for `uri` to every session subscribed to it (and
   * to no other). Returns how many sessions were notified.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
   */
  notifyUpdated(uri: string): number {
    this.server?.publish({ type: 'resourceUpdated', uri });
    // Sessions shared by several processes keep their subscriptions in their store, which tells them.
    const shared = this.server?.sharedSessions;
    shared?.resourceUpdated(uri);
    let sent = 0;
    for (const [session, uris] of this.subscriptions) {
      if (!uris.has(uri) || session.currentPhase !== 'operating' || shared?.covers(session)) continue;
      try {
        session.notify('notifications/resources/updated', { uri });
        sent++;
      } catch {
        // The session is closing; its subscriptions go with it.
      }
    }
    return sent;
  }

  /** The URIs `session` is subscribed to. */
  subscriptionsOf(session: Session): ReadonlySet<string> {
    return this.subscriptions.get(session) ?? new Set();
  }

  /**
   * Completion of a template variable, for `completion/complete` with a `ref/resource`.
   * `ref.uri` names the template by its `uriTemplate`. A static resource's URI completes to
   * nothing; an unknown template or variable is -32602. At most 100 values are returned, with
   * `total` and `hasMore`.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion
   */
  async complete(
    ref: { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    ctx?: RequestHandlerContext,
  ): Promise<CompletionValues> {
    if (!ref || typeof ref.uri !== 'string') throw new McpError(ErrorCode.InvalidParams, 'Invalid completion reference: "ref.uri" must be a string');
    if (!argument || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      throw new McpError(ErrorCode.InvalidParams, 'Invalid completion argument: "argument.name" and "argument.value" must be strings');
    }
    const template = Object.values(this.state.templates).find((t) => t.listed.uriTemplate === ref.uri);
    if (!template) {
      if (this.state.resources[ref.uri]) return { values: [] };
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource template "${ref.uri.slice(0, 512)}"`);
    }
    if (!template.template.variableNames.includes(argument.name)) {
      throw new McpError(ErrorCode.InvalidParams, `Resource template "${ref.uri}" has no variable "${argument.name.slice(0, 256)}"`);
    }
    const completer = template.complete && Object.prototype.hasOwnProperty.call(template.complete, argument.name) ? template.complete[argument.name] : undefined;
    if (!completer) return { values: [] };
    const args: Record<string, string> = {};
    for (const [k, v] of Object.entries(context?.arguments ?? {})) if (typeof v === 'string') args[k] = v;
    const values = await completer(argument.value, { arguments: args }, ctx);
    if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
      throw new Error(`The completer of "${argument.name}" in "${ref.uri}" must return an array of strings`);
    }
    return values.length > MAX_COMPLETION_VALUES
      ? { values: values.slice(0, MAX_COMPLETION_VALUES), total: values.length, hasMore: true }
      : { values, total: values.length, hasMore: false };
  }

  // ------------------------------------------------------------ installation

  /**
   * Serve the registry on `server`: request handlers, capability declaration (now when
   * something is registered, otherwise on the first registration), `list_changed`.
   */
  install(server: Server, options: ResourcesInstallOptions = {}): this {
    if (this.server) throw new Error('This ResourcesFeature is already installed on a server');
    this.server = server;
    this.options = {
      pageSize: positiveInt(options.pageSize, DEFAULT_PAGE_SIZE, 'pageSize'),
      listChangedDebounceMs: options.listChangedDebounceMs ?? 0,
      subscribe: options.subscribe ?? true,
      listChanged: options.listChanged ?? true,
      declareWhenEmpty: options.declareWhenEmpty ?? false,
      maxUriLength: positiveInt(options.maxUriLength, DEFAULT_MAX_URI_LENGTH, 'maxUriLength'),
      maxSubscriptionsPerSession: positiveInt(options.maxSubscriptionsPerSession, 10_000, 'maxSubscriptionsPerSession'),
      clock: options.clock ?? server.options.clock ?? systemClock,
    };
    server.onRequest('resources/list', (p, ctx) => this.handleList(p, ctx));
    server.onRequest('resources/templates/list', (p, ctx) => this.handleTemplatesList(p, ctx));
    server.onRequest('resources/read', (p, ctx) => this.handleRead(p, ctx));
    if (this.options.subscribe) {
      server.onRequest('resources/subscribe', (p, ctx) => this.handleSubscribe(p, ctx));
      server.onRequest('resources/unsubscribe', (p, ctx) => this.handleUnsubscribe(p, ctx));
    }
    if (this.options.declareWhenEmpty || this.isNonEmpty()) this.declare();
    if (this.options.listChanged) {
      const epochs = listEpochsOf(server);
      let last = 0;
      // Shared sessions hear of changes made once this process served them (not of its start-up registrations).
      let sharedChange = false;
      this.listChangedSubscription = merge(
        this.state$.pipe(map(listing), distinctUntilChanged(sameItems), skip(1)),
        this.manualListChanged,
      )
        .pipe(
          tap(() => {
            last = epochs.changed();
            if (server.sharedSessions !== undefined) sharedChange = true;
          }),
          debounceOn(this.options.clock, this.options.listChangedDebounceMs, 'resources:list_changed'),
        )
        .subscribe(() => {
          this.broadcastListChanged(epochs, last, sharedChange);
          sharedChange = false;
        });
    }
    return this;
  }

  /** Stop sending `list_changed` (handlers stay registered on the server). */
  dispose(): void {
    this.listChangedSubscription?.unsubscribe();
    this.listChangedSubscription = undefined;
  }

  // ------------------------------------------------------------ internals

  private commit(recipe: (draft: { resources: Record<string, ResourceEntry>; templates: Record<string, TemplateEntry>; nextSeq: number }) => void): void {
    this.stateSubject.next(produce(this.state, recipe as never) as ResourcesState);
  }

  private isNonEmpty(): boolean {
    for (const _ in this.state.resources) return true;
    for (const _ in this.state.templates) return true;
    return false;
  }

  private afterRegistration(): void {
    if (this.server && !this.declared) this.declare();
  }

  /** @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#capabilities */
  private declare(): void {
    const server = this.server!;
    this.declared = true;
    const caps: Record<string, unknown> = {};
    if (this.options.subscribe) caps.subscribe = true;
    if (this.options.listChanged) caps.listChanged = true;
    server.declareCapabilities({ resources: caps });
    // Sessions still waiting for `initialize` can take the new capability too.
    for (const s of server.sessions) {
      if (s.currentPhase === 'connecting' || s.currentPhase === 'awaitingInitialize') {
        try {
          s.declareCapabilities({ resources: caps });
        } catch {
          // It initialized meanwhile: it keeps what it declared.
        }
      }
    }
  }

  /** Tell operating sessions that began before change `last` (later ones listed it already). */
  private broadcastListChanged(epochs: ListEpochs, last: number, sharedChange: boolean): void {
    this.server?.publish({ type: 'listChanged', kind: 'resources' });
    const shared = this.server?.sharedSessions;
    if (sharedChange) shared?.listChanged('resources');
    for (const session of this.server?.sessions ?? []) {
      if (session.currentPhase !== 'operating' || shared?.covers(session)) continue;
      if (!epochs.isNewTo(session, last)) continue;
      if (!hasCapability(session.localCapabilities, ['resources', 'listChanged'])) continue;
      try {
        session.notify('notifications/resources/list_changed');
      } catch {
        // Closing: nothing to tell.
      }
    }
  }

  private templateEntry(seq: number, name: string, uriTemplate: string, metadata: ResourceTemplateMetadata, read: ReadTemplateCallback): TemplateEntry {
    if (typeof read !== 'function') throw new TypeError(`Resource template "${name}": the read callback must be a function`);
    const template = new UriTemplate(uriTemplate, { maxUriLength: this.options.maxUriLength });
    const { list, complete, ...meta } = metadata ?? {};
    checkMetadata(meta);
    if (list !== undefined && typeof list !== 'function') throw new TypeError(`Resource template "${name}": "list" must be a function`);
    if (complete !== undefined) {
      for (const [variable, fn] of Object.entries(complete)) {
        if (!template.variableNames.includes(variable)) {
          throw new Error(`Resource template "${name}": "complete" names "${variable}", which is not a variable of "${uriTemplate}"`);
        }
        if (typeof fn !== 'function') throw new TypeError(`Resource template "${name}": complete.${variable} must be a function`);
      }
    }
    const listed = { uriTemplate, name, ...structuredClone(meta) } as ResourceTemplate;
    return { seq, listed, template, read, list, complete: complete ? { ...complete } : undefined };
  }

  private sortedEntries(): { resources: ResourceEntry[]; templates: TemplateEntry[] } {
    const state = this.state;
    if (this.sorted?.state !== state) {
      this.sorted = {
        state,
        resources: Object.values(state.resources).sort((a, b) => a.seq - b.seq),
        templates: Object.values(state.templates).sort((a, b) => a.seq - b.seq),
      };
    }
    return this.sorted;
  }

  /** @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#listing-resources */
  private async handleList(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
    const after = readCursor(params, 'r');
    const rev = revisionOf(ctx.session);
    const size = this.options.pageSize;
    const { resources, templates } = this.sortedEntries();
    const page: Resource[] = [];
    let last: CursorKey | undefined;
    let more = false;
    const take = (key: CursorKey, item: Resource): boolean => {
      if (after && compareKeys(key, after) <= 0) return true;
      if (page.length === size) {
        more = true;
        return false;
      }
      page.push(shapeForRevision(item, rev));
      last = key;
      return true;
    };
    for (const e of resources) if (!take([0, e.seq, 0], e.listed)) break;
    if (!more) {
      for (const t of templates) {
        if (!t.list || (after && (after[0] > 1 || (after[0] === 1 && after[1] > t.seq)))) continue;
        const items = await t.list(ctx);
        if (!Array.isArray(items)) throw new Error(`The list callback of resource template "${t.listed.name}" must return an array`);
        const { uriTemplate: _u, name: _n, ...defaults } = t.listed;
        let i = 0;
        for (; i < items.length; i++) {
          const item = items[i]!;
          if (!item || typeof item.uri !== 'string' || typeof item.name !== 'string') {
            throw new Error(`The list callback of resource template "${t.listed.name}" returned an item without a string "uri" and "name"`);
          }
          if (!take([1, t.seq, i], { ...defaults, ...item } as Resource)) break;
        }
        if (more) break;
      }
    }
    const result: JsonObject = { resources: page };
    if (more && last) result.nextCursor = writeCursor('r', last);
    return result;
  }

  /** @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates */
  private handleTemplatesList(params: JsonObject | undefined, ctx: RequestHandlerContext): JsonObject {
    const after = readCursor(params, 't');
    const rev = revisionOf(ctx.session);
    const page: ResourceTemplate[] = [];
    let more = false;
    let last: CursorKey | undefined;
    for (const t of this.sortedEntries().templates) {
      const key: CursorKey = [0, t.seq, 0];
      if (after && compareKeys(key, after) <= 0) continue;
      if (page.length === this.options.pageSize) {
        more = true;
        break;
      }
      page.push(shapeForRevision(t.listed, rev));
      last = key;
    }
    const result: JsonObject = { resourceTemplates: page };
    if (more && last) result.nextCursor = writeCursor('t', last);
    return result;
  }

  /** The URI of a request, checked: a string, not too long. */
  private requestedUri(params: JsonObject | undefined): string {
    const uri = params?.uri;
    if (typeof uri !== 'string') throw new McpError(ErrorCode.InvalidParams, 'Invalid params: "uri" must be a string');
    if (uri.length > this.options.maxUriLength) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: the URI is ${uri.length} characters long; at most ${this.options.maxUriLength} are accepted`, {
        length: uri.length,
        max: this.options.maxUriLength,
      });
    }
    return uri;
  }

  /**
   * What a URI names: a static resource, or a template with its variables. Invalid URIs and
   * malformed percent-encoding are -32602; a valid URI nothing matches is undefined.
   */
  private resolve(uri: string): { resource: ResourceEntry } | { template: TemplateEntry; variables: MatchedVariables } | undefined {
    const resource = this.state.resources[uri];
    if (resource) return { resource };
    const problem = uriProblem(uri, this.options.maxUriLength);
    if (problem) throw new McpError(ErrorCode.InvalidParams, `Invalid resource URI: ${problem}`, { uri: uri.slice(0, 2048) });
    for (const t of this.sortedEntries().templates) {
      let variables: MatchedVariables | null;
      try {
        variables = t.template.match(uri);
      } catch (e) {
        if (e instanceof UriTemplateError) throw new McpError(ErrorCode.InvalidParams, `Invalid resource URI: ${e.message}`, { uri: uri.slice(0, 2048) });
        throw e;
      }
      if (variables) return { template: t, variables };
    }
    return undefined;
  }

  /** @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#reading-resources */
  private async handleRead(params: JsonObject | undefined, ctx: RequestHandlerContext): Promise<JsonObject> {
    const uri = this.requestedUri(params);
    const found = this.resolve(uri);
    if (!found) throw new ResourceNotFoundError(uri);
    const [output, mimeType] =
      'resource' in found
        ? [await found.resource.read(uri, ctx), found.resource.listed.mimeType]
        : [await found.template.read(uri, found.variables, ctx), found.template.listed.mimeType];
    return finishRead(output, uri, mimeType, revisionOf(ctx.session));
  }

  /** @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions */
  private handleSubscribe(params: JsonObject | undefined, ctx: RequestHandlerContext): JsonObject | Promise<JsonObject> {
    const uri = this.requestedUri(params);
    if (!this.resolve(uri)) throw new ResourceNotFoundError(uri);
    const session = ctx.session;
    const shared = this.server?.sharedSessions;
    if (shared?.covers(session)) return shared.subscribe(session, uri, this.options.maxSubscriptionsPerSession).then(() => ({}));
    let uris = this.subscriptions.get(session);
    if (!uris) {
      uris = new Set();
      this.subscriptions.set(session, uris);
      session.state$.subscribe({ complete: () => this.subscriptions.delete(session) });
    }
    if (!uris.has(uri) && uris.size >= this.options.maxSubscriptionsPerSession) {
      throw new McpError(ErrorCode.InvalidParams, `Too many subscriptions: a session may hold at most ${this.options.maxSubscriptionsPerSession}`);
    }
    uris.add(uri);
    return {};
  }

  private handleUnsubscribe(params: JsonObject | undefined, ctx: RequestHandlerContext): JsonObject | Promise<JsonObject> {
    const uri = this.requestedUri(params);
    const shared = this.server?.sharedSessions;
    if (shared?.covers(ctx.session)) return shared.unsubscribe(ctx.session, uri).then(() => ({}));
    this.subscriptions.get(ctx.session)?.delete(uri);
    return {};
  }
}

// ---------------------------------------------------------------- helpers

function revisionOf(session: RequestCaller): Revision | undefined {
  const v = session.protocolVersion;
  return isSupportedRevision(v) ? v : undefined;
}

function positiveInt(v: number | undefined, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer`);
  return v;
}

function checkName(name: unknown, what: string): void {
  if (typeof name !== 'string' || name.length === 0) throw new TypeError(`A ${what} needs a non-empty string name`);
}

/** Registered URIs must be RFC 3986 URIs with a scheme (custom schemes included). */
function checkUri(uri: unknown): asserts uri is string {
  if (typeof uri !== 'string') throw new TypeError('A resource URI must be a string');
  const problem = uriProblem(uri);
  if (problem) throw new Error(`Invalid resource URI "${uri.slice(0, 256)}": ${problem}`);
}

function checkMetadata(meta: ResourceMetadata | undefined): void {
  if (meta === undefined || meta === null) return;
  if (typeof meta !== 'object') throw new TypeError('Resource metadata must be an object');
  for (const k of ['title', 'description', 'mimeType'] as const) {
    if (meta[k] !== undefined && typeof meta[k] !== 'string') throw new TypeError(`"${k}" must be a string`);
  }
  if (meta.size !== undefined && !(Number.isSafeInteger(meta.size) && meta.size >= 0)) throw new TypeError('"size" must be a non-negative integer (bytes)');
  const a = meta.annotations;
  if (a !== undefined) {
    if (a.priority !== undefined && !(typeof a.priority === 'number' && a.priority >= 0 && a.priority <= 1)) {
      throw new RangeError('"annotations.priority" must be a number from 0 to 1');
    }
    if (a.audience !== undefined && !(Array.isArray(a.audience) && a.audience.every((r) => r === 'user' || r === 'assistant'))) {
      throw new TypeError('"annotations.audience" must be an array of "user" and "assistant"');
    }
  }
  if (meta.icons !== undefined && !(Array.isArray(meta.icons) && meta.icons.every((i) => i && typeof i.src === 'string'))) {
    throw new TypeError('"icons" must be an array of { src: string, ... }');
  }
}

function listedResource(uri: string, name: string, meta: ResourceMetadata | undefined): Resource {
  const out: Resource = { uri, name };
  for (const [k, v] of Object.entries(meta ?? {})) if (v !== undefined) (out as Record<string, unknown>)[k] = structuredClone(v);
  return out;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function metadataOf(e: TemplateEntry): ResourceTemplateMetadata {
  const { uriTemplate: _u, name: _n, ...meta } = e.listed;
  const out: ResourceTemplateMetadata = { ...meta } as ResourceTemplateMetadata;
  if (e.list) out.list = e.list;
  if (e.complete) out.complete = { ...e.complete };
  return out;
}

/** Drop the fields `rev` does not have (title, icons, `_meta` on objects, `lastModified`). */
function shapeForRevision<T extends { title?: string; icons?: Icon[]; _meta?: Meta; annotations?: Annotations }>(obj: T, rev: Revision | undefined): T {
  if (!rev) return obj;
  let out = obj;
  const copy = (): T => (out === obj ? (out = { ...obj }) : out);
  if (obj.title !== undefined && !allows(rev, 'title')) delete copy().title;
  if (obj.icons !== undefined && !allows(rev, 'icons')) delete copy().icons;
  if (obj._meta !== undefined && !allows(rev, 'metaOnObjects')) delete copy()._meta;
  if (obj.annotations?.lastModified !== undefined && !allows(rev, 'annotationsLastModified')) {
    const { lastModified: _l, ...rest } = obj.annotations;
    copy().annotations = rest;
  }
  return out;
}

/** Ids keyed in state must stay the same list for `distinctUntilChanged`: the listed objects, by reference. */
function listing(s: ResourcesState): object[] {
  const out: object[] = [];
  for (const e of Object.values(s.resources)) out.push(e.listed);
  for (const t of Object.values(s.templates)) out.push(t.listed, t.list ?? NO_LIST);
  return out;
}
const NO_LIST = {};

function sameItems(a: object[], b: object[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Debounce on a {@link Clock} (so a ManualClock drives it and replay reproduces it). */
function debounceOn<T>(clock: Clock, ms: number, name: string): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let timer: unknown;
      let last: T;
      const fire = () => {
        timer = undefined;
        subscriber.next(last);
      };
      const sub = source.subscribe({
        next: (v) => {
          last = v;
          if (timer !== undefined) clock.clearTimeout(timer);
          timer = clock.setTimeout(fire, ms, name);
        },
        error: (e) => subscriber.error(e),
        complete: () => subscriber.complete(),
      });
      return () => {
        sub.unsubscribe();
        if (timer !== undefined) clock.clearTimeout(timer);
      };
    });
}

function compareKeys(a: CursorKey, b: CursorKey): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** An opaque cursor: base64url of the last item's position (stable when items come and go). */
function writeCursor(kind: 'r' | 't', key: CursorKey): string {
  return utf8ToBase64url(JSON.stringify({ k: kind, p: key }));
}

/** The position a cursor stands for; -32602 for anything this server did not hand out. */
function readCursor(params: JsonObject | undefined, kind: 'r' | 't'): CursorKey | undefined {
  const cursor = params?.cursor;
  if (cursor === undefined) return undefined;
  const bad = () => new McpError(ErrorCode.InvalidParams, 'Invalid cursor: pass back a "nextCursor" from a previous page of this list, unchanged');
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Decode(base64Decode(cursor)));
  } catch {
    throw bad();
  }
  const p = (parsed as { p?: unknown })?.p;
  if (
    (parsed as { k?: unknown })?.k !== kind ||
    !Array.isArray(p) ||
    p.length !== 3 ||
    !p.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) ||
    (p[0] as number) > 1
  ) {
    throw bad();
  }
  return p as CursorKey;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Check and complete a read callback's output: URIs, MIME types, text or properly encoded blobs. */
function finishRead(output: ReadResourceOutput, uri: string, mimeType: string | undefined, rev: Revision | undefined): JsonObject {
  if (!output || typeof output !== 'object' || !Array.isArray(output.contents)) {
    throw new Error(`The read callback for "${uri.slice(0, 256)}" must return { contents: [...] }`);
  }
  const metaAllowed = rev === undefined || allows(rev, 'metaOnObjects');
  const contents = output.contents.map((c, i) => {
    if (!c || typeof c !== 'object') throw new Error(`Resource contents #${i} of "${uri.slice(0, 256)}" must be an object`);
    const out: JsonObject = { uri: c.uri ?? uri };
    if (typeof out.uri !== 'string') throw new Error(`Resource contents #${i}: "uri" must be a string`);
    const mt = c.mimeType ?? mimeType;
    if (mt !== undefined) out.mimeType = mt;
    const hasText = 'text' in c && c.text !== undefined;
    const hasBlob = 'blob' in c && c.blob !== undefined;
    if (hasText === hasBlob) throw new Error(`Resource contents #${i} of "${uri.slice(0, 256)}" must have exactly one of "text" and "blob"`);
    if (hasText) {
      if (typeof (c as { text: unknown }).text !== 'string') throw new Error(`Resource contents #${i}: "text" must be a string`);
      out.text = (c as { text: string }).text;
    } else {
      const blob = (c as { blob: unknown }).blob;
      if (blob instanceof Uint8Array) out.blob = base64Encode(blob);
      else if (typeof blob === 'string' && blob.length % 4 === 0 && BASE64.test(blob)) out.blob = blob;
      else throw new Error(`Resource contents #${i} of "${uri.slice(0, 256)}": "blob" must be base64 (or bytes, which are encoded for you)`);
    }
    if (c._meta !== undefined && metaAllowed) out._meta = c._meta;
    return out;
  });
  const result: JsonObject = { contents };
  if (output._meta !== undefined) result._meta = output._meta;
  if (rev !== undefined && allows(rev, 'cachingHints')) {
    if (typeof output.ttlMs === 'number' && Number.isInteger(output.ttlMs) && output.ttlMs >= 0) result.ttlMs = output.ttlMs;
    if (output.cacheScope === 'public' || output.cacheScope === 'private') result.cacheScope = output.cacheScope;
  }
  return result;
}
