/**
 * The server role. A `Server` holds what every session shares (info, capabilities,
 * instructions, handlers); each `connect(transport)` starts one server session.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import { guarded } from '../streams/guarded.js';
import { Observable, Subject } from 'rxjs';
import type { Transport } from '../streams/transport.js';
import {
  Session,
  type HandlerTable,
  type NotificationHandler,
  type RequestHandler,
  type SessionOptions,
} from './session/session.js';

export interface ServerOptions extends SessionOptions {
  /** Instructions for the client, sent in the initialize result. */
  instructions?: string;
}

/** One server-side session (one client). */
export class ServerSession extends Session {
  /** `shared`: handlers of the Server this session belongs to, looked up after its own. */
  constructor(options: ServerOptions, shared?: HandlerTable) {
    super('server', options, shared);
  }
}

/**
 * The low-level server: what every session shares (info, capabilities, request and
 * notification handlers by method name). Each `connect(transport)` starts a {@link ServerSession}
 * for one client; `sessions$` gives them as they connect. Handlers get the params and a context
 * (`signal`, `sendProgress`, `session`, `authInfo`). {@link McpServer} builds tools, resources
 * and prompts on top of it.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server
 */
export class Server {
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly live = new Set<ServerSession>();
  private readonly handlers: HandlerTable = { requests: this.requestHandlers, notifications: this.notificationHandlers };
  private readonly sessionSubject = new Subject<ServerSession>();
  /** Each new session as it connects. */
  readonly sessions$: Observable<ServerSession> = guarded(this.sessionSubject.asObservable(), 'server.sessions$');

  private capabilities: Record<string, unknown>;

  constructor(readonly options: ServerOptions) {
    this.capabilities = { ...options.capabilities };
  }

  /**
   * Declare capabilities for sessions that start from now on (merged one level deep). Feature
   * APIs call this as tools, resources or prompts are registered.
   */
  declareCapabilities(capabilities: Record<string, unknown>): this {
    for (const [key, value] of Object.entries(capabilities)) {
      const prev = this.capabilities[key];
      this.capabilities[key] = prev && typeof prev === 'object' && value && typeof value === 'object' ? { ...prev, ...value } : value;
    }
    return this;
  }

  /** What sessions starting now declare. */
  get declaredCapabilities(): Record<string, unknown> {
    return this.capabilities;
  }

  /** Serve requests for `method` in every session (present and future). */
  onRequest(method: string, handler: RequestHandler): this {
    this.requestHandlers.set(method, handler);
    return this;
  }

  /** Receive notifications for `method` in every session. */
  onNotification(method: string, handler: NotificationHandler): this {
    this.notificationHandlers.set(method, handler);
    return this;
  }

  /** Sessions currently open. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.live;
  }

  /** Start a session on `transport`. Resolves once the transport is open; the client then initializes. */
  async connect(transport: Transport): Promise<ServerSession> {
    // Handlers are shared, not copied: an idle session should cost as little as possible.
    const session = new ServerSession({ ...this.options, capabilities: structuredClone(this.capabilities) }, this.handlers);
    this.live.add(session);
    session.onEnd(() => this.live.delete(session));
    this.sessionSubject.next(session);
    await session.connect(transport);
    return session;
  }

  /** Close every session. */
  async close(): Promise<void> {
    await Promise.all([...this.live].map((s) => s.close()));
  }
}

/**
 * Create a low-level {@link Server}: `info` (name and version, sent in `initialize`),
 * `capabilities` (declared as given), `instructions`; then `onRequest(method, handler)`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
export function createServer(options: ServerOptions): Server {
  return new Server(options);
}

export * from './session/session.js';
