/**
 * The host side of an MCP App view in a browser page (the `io.modelcontextprotocol/ui`
 * extension): the view's HTML rendered through a sandbox proxy on another origin, the JSON-RPC
 * over `postMessage` run by `machines/app-bridge.machine.ts`, the view's `tools/call` and
 * `resources/read` proxied to the MCP server (only tools an app may call), its `ui/*` requests
 * handed to the page's handlers, its size followed, and a clean teardown. Whatever the view
 * sends, the host page goes on: malformed messages get an error (when they have an id) and are
 * reported on `errors`, never thrown.
 *
 * Runs in a browser; bundle `mcp-actors/apps` with your page.
 *
 * @see https://modelcontextprotocol.io/extensions/apps
 */
import { createActor, type Actor, type InspectionEvent } from 'xstate';
import { appBridgeMachine } from '../../machines/app-bridge.machine.js';
import { APPS_PROTOCOL_VERSION, appContentSecurityPolicy, appToolMeta, type AppCsp, type AppPermissions, type AppResourceMeta } from '../protocol/apps-extension.js';

/** What the bridge uses of the page (structural, so it type-checks without the DOM library). */
interface FrameLike {
  readonly contentWindow: { postMessage(message: unknown, targetOrigin: string): void } | null;
  readonly style: { width: string; height: string; border: string; display: string; [k: string]: string };
  setAttribute(name: string, value: string): void;
  remove(): void;
  src: string;
}
interface ContainerLike {
  readonly ownerDocument: { createElement(tag: 'iframe'): FrameLike; defaultView: WindowLike | null };
  appendChild(node: FrameLike): unknown;
}
interface MessageEventLike {
  readonly data: unknown;
  readonly origin: string;
  readonly source: unknown;
}
interface WindowLike {
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  readonly location: { origin: string };
}

/** A tool as listed by the server (what the bridge needs to check who may call it). */
export interface AppTool {
  name: string;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** How the bridge reaches the MCP server that served the app (usually through an mcp-actors Client). */
export interface AppServerAccess {
  callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  readResource(uri: string): Promise<Record<string, unknown>>;
  /** The server's tools, to refuse calls to tools an app may not call. */
  tools(): Promise<AppTool[]> | AppTool[];
}

/** What the page does with the view's requests; each may refuse by throwing (the view gets -32000). */
export interface AppHostHandlers {
  openLink?(url: string): void | Promise<void>;
  message?(params: { role: string; content: unknown }): void | Promise<void>;
  updateModelContext?(params: { content?: unknown[]; structuredContent?: Record<string, unknown> }): void | Promise<void>;
  log?(params: { level?: string; data?: unknown; logger?: string }): void;
}

export interface AppBridgeOptions {
  /** Where the view's frame goes. */
  container: ContainerLike;
  /** The sandbox proxy page's URL, on an origin other than the page's (web hosts must use one). */
  sandboxUrl: string;
  server: AppServerAccess;
  hostInfo: { name: string; version: string };
  /** Sent in `ui/initialize`'s result (theme, locale, displayMode, containerDimensions...). */
  hostContext?: Record<string, unknown>;
  handlers?: AppHostHandlers;
  /** Largest height (px) the view may grow to with `ui/notifications/size-changed`; default 2000. */
  maxHeight?: number;
  /** Waits of the bridge's machine (ms). */
  loadTimeoutMs?: number;
  teardownTimeoutMs?: number;
  /** An XState inspector: the bridge's actor is drawn with the others. */
  inspect?: (event: InspectionEvent) => void;
  /** Largest message (characters of its JSON) taken from the view; default 4 MiB. */
  maxMessageChars?: number;
  /**
   * The audit trail of the CSP each view is rendered under, for security review: called once per
   * `show` with an {@link AppCspRecord} (also kept as `bridge.cspRecord`). Hand it to your logger.
   * @see https://modelcontextprotocol.io/extensions/apps (UI Resource Format: Host Behavior, Audit Trail)
   */
  auditCsp?: (record: AppCspRecord) => void;
}

/**
 * What a view was rendered under: the CSP the server declared, the policy the sandbox applies,
 * the origins it dropped as malformed, the browser permissions asked for. Nothing of the view's
 * HTML or the tool's input or result: the record is safe to keep in a log.
 */
export interface AppCspRecord {
  /** The tool whose call the view renders, and the `ui://` resource it links to. */
  readonly tool: string;
  readonly resourceUri?: string | undefined;
  /** `_meta.ui.csp` as the resource declared it; undefined: none (the restrictive default applies). */
  readonly declared: AppCsp | undefined;
  /** The Content-Security-Policy the view's document gets. */
  readonly policy: string;
  /** Declared origins left out of the policy (not an http(s) or ws(s) origin). */
  readonly dropped: readonly string[];
  readonly permissions: AppPermissions | undefined;
}

/** What the page shows: the app's HTML, its `_meta.ui`, and the tool call it renders. */
export interface AppShowOptions {
  html: string;
  meta?: AppResourceMeta;
  tool: AppTool;
  toolInput: Record<string, unknown>;
  /** The tools/call request's id, for `hostContext.toolInfo`. */
  toolCallId?: string | number;
}

/** Something the view did wrong, or the host refused (the page goes on). */
export interface AppBridgeError {
  kind: 'malformed' | 'oversized' | 'refused' | 'failed';
  message: string;
}

type Json = Record<string, unknown>;

/** One app view on the page. */
export class AppBridge {
  private frame: FrameLike | undefined;
  private actor: Actor<typeof appBridgeMachine> | undefined;
  private show_: AppShowOptions | undefined;
  private nextId = 1;
  private teardownId: number | undefined;
  private readonly sandboxOrigin: string;
  private readonly window: WindowLike;
  private readonly onMessage = (event: MessageEventLike) => this.receive(event);
  /** Problems so far (what the view sent that was refused, what failed). */
  readonly errors: AppBridgeError[] = [];
  /** The last `ui/update-model-context` the view sent. */
  modelContext: Json | undefined;
  /** The CSP the view shown is rendered under (the audit record `auditCsp` was given). */
  cspRecord: AppCspRecord | undefined;
  private readonly listeners = new Set<(state: string) => void>();

  constructor(private readonly options: AppBridgeOptions) {
    const win = options.container.ownerDocument.defaultView;
    if (win === null) throw new TypeError('The container is not in a window');
    this.window = win;
    this.sandboxOrigin = new URL(options.sandboxUrl, win.location.origin).origin;
    // The spec: the host and the sandbox must have different origins.
    if (this.sandboxOrigin === win.location.origin) throw new TypeError(`The sandbox proxy must be on another origin than the page (${this.sandboxOrigin})`);
  }

  /** The machine's state: awaitingProxy, awaitingView, initializing, ready, tearingDown, closed, failed. */
  get state(): string {
    const value = this.actor?.getSnapshot().value;
    return typeof value === 'string' ? value : 'idle';
  }

  /** Called with each new state. */
  subscribe(listener: (state: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Render the app for a tool call: the proxy frame is created and the machine started. */
  show(show: AppShowOptions): void {
    if (this.actor !== undefined) throw new Error('This bridge already shows a view: tear it down and make another');
    this.show_ = show;
    this.auditCsp(show);
    const frame = this.options.container.ownerDocument.createElement('iframe');
    // Nested frames inherit these flags: the view's own (set by the proxy) can only narrow them.
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
    frame.setAttribute('title', `App: ${show.tool.name}`);
    frame.style.border = '0';
    frame.style.width = '100%';
    frame.style.height = '0px';
    frame.style.display = 'block';
    this.frame = frame;
    this.window.addEventListener('message', this.onMessage);
    const machine = appBridgeMachine.provide({
      actions: {
        sendResource: () => this.post({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: show.html, ...(show.meta?.csp && { csp: show.meta.csp }), ...(show.meta?.permissions && { permissions: show.meta.permissions }) } }),
        answerInitialize: () => {},
        sendToolInput: () => this.post({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: show.toolInput } }),
        sendToolResult: ({ context }) => context.pending?.kind === 'result' && this.post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: context.pending.result }),
        sendToolCancelled: ({ context }) => context.pending?.kind === 'cancelled' && this.post({ jsonrpc: '2.0', method: 'ui/notifications/tool-cancelled', params: { reason: context.pending.reason } }),
        sendTeardown: ({ context }) => {
          this.teardownId = this.nextId++;
          this.post({ jsonrpc: '2.0', id: this.teardownId, method: 'ui/resource-teardown', params: { reason: context.reason ?? 'closed by the host' } });
        },
        removeFrame: () => this.dispose(),
      },
    });
    this.actor = createActor(machine, {
      input: { proxied: true, ...(this.options.loadTimeoutMs !== undefined && { loadTimeout: this.options.loadTimeoutMs }), ...(this.options.teardownTimeoutMs !== undefined && { teardownTimeout: this.options.teardownTimeoutMs }) },
      ...(this.options.inspect && { inspect: this.options.inspect }),
    });
    this.actor.subscribe((snap) => {
      for (const l of this.listeners) l(typeof snap.value === 'string' ? snap.value : JSON.stringify(snap.value));
    });
    this.actor.start();
    const url = new URL(this.options.sandboxUrl, this.window.location.origin);
    url.searchParams.set('host', this.window.location.origin);
    frame.src = url.href;
    this.options.container.appendChild(frame);
  }

  /** The tool call finished: its result goes to the view (now, or once it is ready). */
  toolResult(result: Json): void {
    this.actor?.send({ type: 'TOOL_RESULT', result });
  }

  /** The tool call was cancelled. */
  toolCancelled(reason: string): void {
    this.actor?.send({ type: 'TOOL_CANCELLED', reason });
  }

  /** Ask the view to tear down, then remove it (on its answer, or after the teardown wait). */
  teardown(reason = 'closed by the host'): Promise<void> {
    const actor = this.actor;
    if (actor === undefined) return Promise.resolve();
    return new Promise((done) => {
      const sub = actor.subscribe((snap) => {
        if (snap.status === 'done') {
          sub.unsubscribe();
          done();
        }
      });
      actor.send({ type: 'TEARDOWN', reason });
      if (actor.getSnapshot().status === 'done') done();
    });
  }

  /** The audit trail: the view's CSP as declared and as applied, before anything of it loads. */
  private auditCsp(show: AppShowOptions): void {
    const declared = show.meta?.csp;
    const policy = appContentSecurityPolicy(declared);
    const applied = new Set(policy.split(/[\s;]+/));
    const all = declared ? [declared.connectDomains, declared.resourceDomains, declared.frameDomains, declared.baseUriDomains].flatMap((d) => (Array.isArray(d) ? d : [])) : [];
    const uri = appToolMeta(show.tool._meta)?.resourceUri;
    this.cspRecord = {
      tool: show.tool.name,
      resourceUri: typeof uri === 'string' ? uri : undefined,
      declared: declared === undefined ? undefined : structuredClone(declared),
      policy,
      dropped: [...new Set(all.filter((d) => typeof d !== 'string' || !applied.has(d)).map(String))],
      permissions: show.meta?.permissions === undefined ? undefined : structuredClone(show.meta.permissions),
    };
    try {
      this.options.auditCsp?.(this.cspRecord);
    } catch (e) {
      // The page's logger failing is no reason not to show the view.
      this.fail('failed', `auditCsp threw: ${(e as Error)?.message ?? String(e)}`);
    }
  }

  private dispose(): void {
    this.window.removeEventListener('message', this.onMessage);
    this.frame?.remove();
    this.frame = undefined;
  }

  private post(message: Json): void {
    this.frame?.contentWindow?.postMessage(message, this.sandboxOrigin);
  }

  private fail(kind: AppBridgeError['kind'], message: string): void {
    this.errors.push({ kind, message });
  }

  private reply(id: unknown, body: { result: Json } | { error: { code: number; message: string } }): void {
    this.post({ jsonrpc: '2.0', id, ...body });
  }

  private receive(event: MessageEventLike): void {
    // Only the proxy frame speaks to us, from its own origin.
    if (this.frame === undefined || event.source !== this.frame.contentWindow || event.origin !== this.sandboxOrigin) return;
    try {
      this.handle(event.data);
    } catch (e) {
      // Nothing the view sends may break the page.
      this.fail('failed', `handling a message from the view failed: ${(e as Error)?.message ?? String(e)}`);
    }
  }

  private handle(data: unknown): void {
    const max = this.options.maxMessageChars ?? 4 * 1024 * 1024;
    let size: number;
    try {
      size = JSON.stringify(data)?.length ?? 0;
    } catch {
      size = Infinity;
    }
    const m = data as Json | null;
    const id = m !== null && typeof m === 'object' ? m['id'] : undefined;
    const hasId = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
    if (size > max) {
      this.fail('oversized', `a message of ${size} characters (at most ${max})`);
      if (hasId) this.reply(id, { error: { code: -32600, message: `Message too large (at most ${max} characters)` } });
      return;
    }
    if (m === null || typeof m !== 'object' || Array.isArray(m) || m['jsonrpc'] !== '2.0') {
      this.fail('malformed', `not a JSON-RPC 2.0 message: ${String(JSON.stringify(data)).slice(0, 120)}`);
      if (hasId) this.reply(id, { error: { code: -32600, message: 'Invalid Request: expected a JSON-RPC 2.0 message' } });
      return;
    }
    const method = m['method'];
    if (method === undefined) {
      // A response: ours are only the teardown's.
      if (id === this.teardownId) this.actor?.send({ type: 'TEARDOWN_ACK' });
      return;
    }
    if (typeof method !== 'string') {
      this.fail('malformed', 'a message whose method is not a string');
      if (hasId) this.reply(id, { error: { code: -32600, message: 'Invalid Request: method must be a string' } });
      return;
    }
    const params = (m['params'] ?? {}) as Json;
    if (params === null || typeof params !== 'object' || Array.isArray(params)) {
      this.fail('malformed', `${method} with params that are not an object`);
      if (hasId) this.reply(id, { error: { code: -32602, message: 'Invalid params: expected an object' } });
      return;
    }
    if (!hasId) {
      if (id !== undefined) {
        this.fail('malformed', `${method} with an id that is neither a string nor an integer`);
        return;
      }
      this.notification(method, params);
      return;
    }
    void this.request(id as string | number, method, params);
  }

  private notification(method: string, params: Json): void {
    switch (method) {
      case 'ui/notifications/sandbox-proxy-ready':
        this.actor?.send({ type: 'PROXY_READY' });
        return;
      case 'ui/notifications/initialized':
        this.actor?.send({ type: 'VIEW_INITIALIZED' });
        return;
      case 'ui/notifications/size-changed': {
        const height = params['height'];
        const width = params['width'];
        if (this.frame && typeof height === 'number' && Number.isFinite(height) && height >= 0) this.frame.style.height = `${Math.min(Math.ceil(height), this.options.maxHeight ?? 2000)}px`;
        if (this.frame && typeof width === 'number' && Number.isFinite(width) && width > 0 && this.options.hostContext?.['containerDimensions'] === undefined) this.frame.style.width = '100%';
        return;
      }
      case 'notifications/message':
        this.options.handlers?.log?.(params as never);
        return;
      default:
        return; // unknown notifications are ignored, as JSON-RPC says
    }
  }

  private async request(id: string | number, method: string, params: Json): Promise<void> {
    const refuse = (message: string, code = -32000) => {
      this.fail('refused', `${method}: ${message}`);
      this.reply(id, { error: { code, message } });
    };
    const run = async (f: () => unknown) => {
      try {
        const result = await f();
        this.reply(id, { result: (result ?? {}) as Json });
      } catch (e) {
        refuse((e as Error)?.message ?? String(e));
      }
    };
    const show = this.show_!;
    switch (method) {
      case 'ui/initialize':
        this.actor?.send({ type: 'VIEW_INITIALIZE' });
        this.reply(id, {
          result: {
            protocolVersion: APPS_PROTOCOL_VERSION,
            hostInfo: this.options.hostInfo,
            hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, sandbox: { ...(show.meta?.csp && { csp: show.meta.csp }) } },
            hostContext: { displayMode: 'inline', availableDisplayModes: ['inline'], ...this.options.hostContext, toolInfo: { ...(show.toolCallId !== undefined && { id: show.toolCallId }), tool: show.tool } },
          },
        });
        return;
      case 'ping':
        this.reply(id, { result: {} });
        return;
      case 'tools/call': {
        const name = params['name'];
        const args = params['arguments'] ?? {};
        if (typeof name !== 'string') return refuse('tools/call needs a tool name', -32602);
        if (args === null || typeof args !== 'object' || Array.isArray(args)) return refuse('tools/call arguments must be an object', -32602);
        const tool = (await this.options.server.tools()).find((t) => t.name === name);
        const visibility = appToolMeta(tool?._meta)?.visibility;
        // Apps may call the server's tools whose visibility includes "app" (the default is both).
        if (tool === undefined || (visibility !== undefined && !visibility.includes('app'))) return refuse(`the app may not call the tool "${name}"`, -32602);
        return run(() => this.options.server.callTool(name, args as Json));
      }
      case 'resources/read': {
        const uri = params['uri'];
        if (typeof uri !== 'string') return refuse('resources/read needs a uri', -32602);
        return run(() => this.options.server.readResource(uri));
      }
      case 'ui/open-link': {
        const url = params['url'];
        if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return refuse('Invalid URL');
        const open = this.options.handlers?.openLink;
        if (open === undefined) return refuse('Link opening is not supported by this host');
        return run(() => open(url));
      }
      case 'ui/message': {
        const handler = this.options.handlers?.message;
        if (handler === undefined) return refuse('Messages are not supported by this host');
        if (typeof params['role'] !== 'string' || params['content'] === undefined) return refuse('Invalid message format', -32602);
        return run(() => handler(params as never));
      }
      case 'ui/update-model-context':
        this.modelContext = params;
        return run(() => this.options.handlers?.updateModelContext?.(params as never));
      case 'ui/request-display-mode': {
        // The bridge never switches: the answer is the mode in effect, the page's hostContext's
        // (it told the view so in ui/initialize), else inline.
        const mode = this.options.hostContext?.['displayMode'];
        this.reply(id, { result: { mode: typeof mode === 'string' ? mode : 'inline' } });
        return;
      }
      default:
        return refuse(`Method not found: ${method}`, -32601);
    }
  }
}

/** Make a bridge for one app view on this page. */
export function createAppBridge(options: AppBridgeOptions): AppBridge {
  return new AppBridge(options);
}
