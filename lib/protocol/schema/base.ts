/**
 * Shapes shared by every MCP message: `_meta`, params and result bases, pagination,
 * annotations, icons, and implementation info.
 *
 * Types across this folder are the union of revisions 2024-11-05 … 2025-11-25: a field a
 * later revision added is optional and tagged `@since`. What a negotiated revision may
 * actually send is {@link ../revisions.ts}'s business.
 *
 * Object shapes are type aliases, not interfaces, on purpose: an alias of an object type is
 * assignable to `{ [key: string]: unknown }` (the JSON-RPC layer's `params`/`result`), an
 * interface is not.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
 */
import type { RequestId } from '../../jsonrpc/message.js';

export type { RequestId };

/**
 * Free-form metadata attached to params, results and (since 2025-06-18) many objects.
 * Keys follow the `_meta` key format from 2025-06-18 on (see `allows(r, 'metaKeyFormat')`).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#meta
 */
export type Meta = { [key: string]: unknown };

/**
 * A token that ties `notifications/progress` to the request that asked for it.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
 */
export type ProgressToken = string | number;

/**
 * An opaque pagination position.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
 */
export type Cursor = string;

/**
 * The `_meta` of request params: free-form, plus the keys MCP itself defines for requests.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#meta
 */
export type RequestMeta = Meta & {
  /** Asks the receiver for `notifications/progress` carrying this token. */
  progressToken?: ProgressToken;
  /**
   * Associates the request with a task.
   * @since 2025-11-25
   */
  'io.modelcontextprotocol/related-task'?: RelatedTaskMetadata;
};

/**
 * Base of every request's params.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#requests
 */
export type RequestParams = {
  _meta?: RequestMeta;
};

/**
 * Base of the params of requests that may be run as a task (`tools/call`,
 * `sampling/createMessage`, `elicitation/create`).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
export type TaskAugmentedRequestParams = RequestParams & {
  /**
   * Present when the requestor wants the request run as a task: the receiver answers with a
   * `CreateTaskResult` at once and the real result comes from `tasks/result`.
   * @since 2025-11-25
   */
  task?: TaskMetadata;
};

/**
 * Base of every notification's params.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#notifications
 */
export type NotificationParams = {
  _meta?: Meta;
};

/**
 * Base of every result. Peers may add keys of their own; decoders keep them, these types
 * just do not name them.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#responses
 */
export type Result = {
  _meta?: Meta;
};

/**
 * A success that carries nothing (ping, subscribe, setLevel, …).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#responses
 */
export type EmptyResult = Result;

/**
 * Params of a paginated list request.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
 */
export type PaginatedRequestParams = RequestParams & {
  /** Where to continue, as returned in a previous `nextCursor`. */
  cursor?: Cursor;
};

/**
 * Result of a paginated list request.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
 */
export type PaginatedResult = Result & {
  /** Present when more results may follow; pass it back as `cursor`. */
  nextCursor?: Cursor;
};

/**
 * Who a message or piece of content is from or for.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
 */
export type Role = 'user' | 'assistant';

/**
 * Hints for the client about how to use or show an object. In 2024-11-05 the schema called
 * the carrier `Annotated`; the wire shape (`annotations: {…}`) is the same.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources#annotations
 */
export type Annotations = {
  /** Who the data is meant for; several entries mean several audiences. */
  audience?: Role[];
  /** Importance from 0 (optional) to 1 (effectively required). */
  priority?: number;
  /**
   * When the underlying data last changed, as an ISO 8601 string.
   * @since 2025-06-18
   */
  lastModified?: string;
};

/**
 * An image a client may show for an implementation, tool, resource or prompt.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#icons
 */
export type Icon = {
  /** An http(s) URL or a `data:` URI. */
  src: string;
  /** Overrides a missing or generic MIME type of `src`. */
  mimeType?: string;
  /** Sizes such as `"48x48"`, or `"any"` for scalable images; absent means any size. */
  sizes?: string[];
  /** The background the icon is designed for; absent means any. */
  theme?: 'light' | 'dark';
};

/**
 * Mixin for objects that may carry icons.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#icons
 */
export type Icons = {
  /** @since 2025-11-25 */
  icons?: Icon[];
};

/**
 * `name` is the programmatic identifier; `title` the human-readable label.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#general-fields
 */
export type BaseMetadata = {
  /** Identifier; also the display fallback when `title` is absent. */
  name: string;
  /**
   * Display name for people.
   * @since 2025-06-18
   */
  title?: string;
};

/**
 * Who is speaking: `clientInfo` / `serverInfo` of `initialize`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
export type Implementation = BaseMetadata &
  Icons & {
    version: string;
    /**
     * What the implementation does, for people.
     * @since 2025-11-25
     */
    description?: string;
    /**
     * The implementation's website.
     * @since 2025-11-25
     */
    websiteUrl?: string;
  };

/**
 * The `task` param of a task-augmented request.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#task-parameters
 */
export type TaskMetadata = {
  /** Requested retention from creation, in ms. */
  ttl?: number;
};

/**
 * Value at `_meta["io.modelcontextprotocol/related-task"]`.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#related-task-metadata
 */
export type RelatedTaskMetadata = {
  taskId: string;
};
