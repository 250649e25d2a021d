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
import { BehaviorSubject, Observable, Subject, distinctUntilChanged, map, merge, skip, tap, type Subscription } from 'rxjs';
import { systemClock, type Clock } from '../clock.js';
import { McpError, ResourceNotFoundError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { hasCapability } from '../protocol/methods.js';
import type { ResourceTemplate } from '../protocol/schema/resources.js';
import type { Server } from '../server.js';
import { legacySession, type RequestHandlerContext, type Session } from '../session/session.js';
import { DEFAULT_MAX_URI_LENGTH, UriTemplate, UriTemplateError, uriProblem, type MatchedVariables } from './uri-template.js';
import { listEpochsOf, type ListEpochs } from './list-epochs.js';
import { debounceOnClock, seesFor } from './list-changed.js';
import { provideListing } from './listings.js';
import { viewsOf } from './interceptors/views.js';
import { checkMetadata, checkName, checkUri, finishRead, listedResource, metadataOf, positiveInt, revisionOf, sameJson } from './resource-checks.js';
import { listResources, listTemplates, listing, sameItems, type SortedEntries } from './resource-listing.js';
import { ResourceSubscriptions } from './resource-subscribers.js';
import type {
  CompletionValues,
  ListedResource,
  ReadResourceCallback,
  ReadTemplateCallback,
  RegisteredResource,
  RegisteredResourceTemplate,
  ResourceEntry,
  ResourceMetadata,
  ResourcesInstallOptions,
  ResourcesState,
  ResourceTemplateMetadata,
  TemplateEntry,
} from './resource-types.js';

export type {
  CompleteVariableCallback,
  CompletionContext,
  CompletionValues,
  ListedResource,
  ListTemplateCallback,
  ReadResourceCallback,
  ReadResourceOutput,
  ReadTemplateCallback,
  RegisteredResource,
  RegisteredResourceTemplate,
  ResourceContentsInput,
  ResourceMetadata,
  ResourcesInstallOptions,
  ResourcesState,
  ResourceTemplateMetadata,
} from './resource-types.js';
export { ResourceNotFoundError };

const DEFAULT_PAGE_SIZE = 50;
const MAX_COMPLETION_VALUES = 100;

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
  private readonly subscriptions = new ResourceSubscriptions(
    () => this.server,
    () => this.options.maxSubscriptionsPerSession,
  );
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
  // Replaced by each notifyListChanged: a change no listing shows, which every caller is told of.
  private manualChange: object = {};
  // What sessions were last told of (per-caller views compare what each can see of it with now).
  private settled: { state: ResourcesState; manual: object } | undefined;
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
    this.manualChange = {};
    this.manualListChanged.next();
  }

  /**
   * Send `notifications/resources/updated` for `uri` to every session subscribed to it (and
   * to no other). Returns how many sessions were notified.
   * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions
   */
  notifyUpdated(uri: string): number {
    return this.subscriptions.updated(uri);
  }

  /** The URIs `session` is subscribed to. */
  subscriptionsOf(session: Session): ReadonlySet<string> {
    return this.subscriptions.of(session);
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
    server.onRequest('resources/list', (p, ctx) => listResources(this.sortedEntries(), this.options.pageSize, p, ctx));
    server.onRequest('resources/templates/list', (p, ctx) => listTemplates(this.sortedEntries(), this.options.pageSize, p, ctx));
    server.onRequest('resources/read', (p, ctx) => this.handleRead(p, ctx));
    if (this.options.subscribe) {
      server.onRequest('resources/subscribe', (p, ctx) => this.handleSubscribe(p, ctx));
      server.onRequest('resources/unsubscribe', (p, ctx) => this.handleUnsubscribe(p, ctx));
    }
    if (this.options.declareWhenEmpty || this.isNonEmpty()) this.declare();
    if (this.options.listChanged) {
      this.settled = { state: this.state, manual: this.manualChange };
      provideListing(server, 'resources', (sees) => [...listing(this.state, sees), this.manualChange]);
      const epochs = listEpochsOf(server);
      let last = 0;
      // Shared sessions hear of changes made once this process served them (not of its start-up registrations).
      let sharedChange = false;
      this.listChangedSubscription = merge(
        this.state$.pipe(map((s) => listing(s)), distinctUntilChanged(sameItems), skip(1)),
        this.manualListChanged,
      )
        .pipe(
          tap(() => {
            last = epochs.changed();
            if (server.sharedSessions !== undefined) sharedChange = true;
          }),
          // No maximum wait: a burst is told once it settles.
          debounceOnClock(this.options.listChangedDebounceMs, this.options.clock, 'resources:list_changed', Infinity),
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

  /**
   * Tell operating sessions that began before change `last` (later ones listed it already) and,
   * with per-caller views, only those that can see what changed.
   */
  private broadcastListChanged(epochs: ListEpochs, last: number, sharedChange: boolean): void {
    const before = this.settled!;
    const now = (this.settled = { state: this.state, manual: this.manualChange });
    const views = viewsOf(this.server?.interceptorList ?? [], 'resources');
    this.server?.publish({ type: 'listChanged', kind: 'resources' });
    const shared = this.server?.sharedSessions;
    if (sharedChange) shared?.listChanged('resources');
    for (const session of this.server?.sessions ?? []) {
      if (session.currentPhase !== 'operating' || shared?.covers(session)) continue;
      if (!epochs.isNewTo(session, last)) continue;
      if (!hasCapability(session.localCapabilities, ['resources', 'listChanged'])) continue;
      if (views.length > 0 && before.manual === now.manual) {
        const sees = seesFor(views, 'resources', session);
        if (sameItems(listing(before.state, sees), listing(now.state, sees))) continue;
      }
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

  private sortedEntries(): SortedEntries {
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
    return done(this.subscriptions.subscribe(legacySession(ctx.session, 'resources/subscribe'), uri));
  }

  private handleUnsubscribe(params: JsonObject | undefined, ctx: RequestHandlerContext): JsonObject | Promise<JsonObject> {
    return done(this.subscriptions.unsubscribe(legacySession(ctx.session, 'resources/unsubscribe'), this.requestedUri(params)));
  }
}

/** The empty result, once `pending` (a shared store's write) is done. */
function done(pending: Promise<void> | void): JsonObject | Promise<JsonObject> {
  return pending === undefined ? {} : pending.then(() => ({}));
}
