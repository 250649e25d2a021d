/**
 * Lifecycle and base utilities: `initialize`, capabilities, `notifications/initialized`,
 * `ping`, `notifications/progress`, `notifications/cancelled`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
 */
import type {
  Implementation,
  NotificationParams,
  ProgressToken,
  RequestId,
  RequestParams,
  Result,
} from './base.js';

/**
 * Non-standard capabilities, keyed by name. The set of capabilities is open; anything not
 * in the spec belongs here.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export type ExperimentalCapabilities = { [name: string]: object };

/**
 * What a client declares in `initialize`. Presence of a key (even `{}`) declares support.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export type ClientCapabilities = {
  experimental?: ExperimentalCapabilities;
  /** The client answers `roots/list`. */
  roots?: {
    /** The client sends `notifications/roots/list_changed`. */
    listChanged?: boolean;
  };
  /** The client answers `sampling/createMessage`. */
  sampling?: {
    /**
     * The client honours `includeContext` values other than `"none"`.
     * @since 2025-11-25
     */
    context?: object;
    /**
     * The client accepts `tools` and `toolChoice` in sampling requests.
     * @since 2025-11-25
     */
    tools?: object;
  };
  /**
   * The client answers `elicitation/create`. An empty object means form mode only.
   * @since 2025-06-18
   */
  elicitation?: {
    /** @since 2025-11-25 */
    form?: object;
    /** @since 2025-11-25 */
    url?: object;
  };
  /**
   * The client can run requests as tasks.
   * @since 2025-11-25
   */
  tasks?: {
    /** The client answers `tasks/list`. */
    list?: object;
    /** The client answers `tasks/cancel`. */
    cancel?: object;
    /** Which of the client's requests may be task-augmented (the list is exhaustive). */
    requests?: {
      sampling?: { createMessage?: object };
      elicitation?: { create?: object };
    };
  };
};

/**
 * What a server declares in its `initialize` result.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation
 */
export type ServerCapabilities = {
  experimental?: ExperimentalCapabilities;
  /** The server sends `notifications/message` and answers `logging/setLevel`. */
  logging?: object;
  /**
   * The server answers `completion/complete`.
   * @since 2025-03-26
   */
  completions?: object;
  /** The server offers prompts. */
  prompts?: {
    /** The server sends `notifications/prompts/list_changed`. */
    listChanged?: boolean;
  };
  /** The server offers resources. */
  resources?: {
    /** The server answers `resources/subscribe` and sends `notifications/resources/updated`. */
    subscribe?: boolean;
    /** The server sends `notifications/resources/list_changed`. */
    listChanged?: boolean;
  };
  /** The server offers tools. */
  tools?: {
    /** The server sends `notifications/tools/list_changed`. */
    listChanged?: boolean;
  };
  /**
   * The server can run requests as tasks.
   * @since 2025-11-25
   */
  tasks?: {
    /** The server answers `tasks/list`. */
    list?: object;
    /** The server answers `tasks/cancel`. */
    cancel?: object;
    /** Which of the server's requests may be task-augmented (the list is exhaustive). */
    requests?: {
      tools?: { call?: object };
    };
  };
};

/**
 * Params of `initialize`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
export type InitializeRequestParams = RequestParams & {
  /** The newest revision the client speaks (a client may speak older ones too). */
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
};

/**
 * The first request of a session, client to server.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
export type InitializeRequest = {
  method: 'initialize';
  params: InitializeRequestParams;
};

/**
 * The server's answer to `initialize`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
export type InitializeResult = Result & {
  /** The revision the server chose; a client that cannot speak it disconnects. */
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  /** Hints on using the server, e.g. for a system prompt. */
  instructions?: string;
};

/**
 * Client to server, after a successful `initialize`: the session is now operating.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
export type InitializedNotification = {
  method: 'notifications/initialized';
  params?: NotificationParams;
};

/**
 * Either side checks the other is alive; the answer is an empty result.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping
 */
export type PingRequest = {
  method: 'ping';
  params?: RequestParams;
};

/**
 * Params of `notifications/progress`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
 */
export type ProgressNotificationParams = NotificationParams & {
  /** The token from the request's `_meta.progressToken`. */
  progressToken: ProgressToken;
  /** Progress so far; increases with every notification. */
  progress: number;
  /** The total, when known. */
  total?: number;
  /**
   * What is happening, for people.
   * @since 2025-03-26
   */
  message?: string;
};

/**
 * Progress of a long-running request, either direction.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
 */
export type ProgressNotification = {
  method: 'notifications/progress';
  params: ProgressNotificationParams;
};

/**
 * Params of `notifications/cancelled`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation
 */
export type CancelledNotificationParams = NotificationParams & {
  /**
   * The request being cancelled, one issued earlier in the same direction. Required before
   * 2025-11-25; from 2025-11-25 required for every non-task request (tasks are cancelled
   * with `tasks/cancel` instead).
   */
  requestId?: RequestId;
  /** Why, for logs or people. */
  reason?: string;
};

/**
 * Either side gives up on a request it sent. Never sent for `initialize`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation
 */
export type CancelledNotification = {
  method: 'notifications/cancelled';
  params: CancelledNotificationParams;
};
