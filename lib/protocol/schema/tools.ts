/**
 * Tools: `tools/list`, `tools/call`, `notifications/tools/list_changed`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools
 */
import type {
  BaseMetadata,
  Icons,
  Meta,
  NotificationParams,
  PaginatedRequestParams,
  PaginatedResult,
  Result,
  TaskAugmentedRequestParams,
} from './base.js';
import type { ContentBlock } from './content.js';

/**
 * A JSON Schema whose root is an object, as tool input and output schemas must be. Other
 * JSON Schema keywords (`additionalProperties`, `description`, …) are allowed.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
 */
export type ObjectJsonSchema = {
  /**
   * The dialect; absent means JSON Schema 2020-12 from 2025-11-25 on.
   * @since 2025-11-25
   */
  $schema?: string;
  type: 'object';
  properties?: { [name: string]: object };
  required?: string[];
  [keyword: string]: unknown;
};

/**
 * Hints about a tool's behaviour. Hints only: never trust them from an untrusted server.
 * @since 2025-03-26
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
 */
export type ToolAnnotations = {
  /** Display name (after `Tool.title`, before `name`). */
  title?: string;
  /** Does not change its environment. Default false. */
  readOnlyHint?: boolean;
  /** May destroy (not just add). Meaningful when not read-only. Default true. */
  destructiveHint?: boolean;
  /** Repeating a call with the same arguments has no further effect. Default false. */
  idempotentHint?: boolean;
  /** Talks to an open world of outside entities. Default true. */
  openWorldHint?: boolean;
};

/**
 * Whether a tool may, must or must not be called as a task.
 * @since 2025-11-25
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#tool-level-negotiation
 */
export type ToolExecution = {
  /** Default `"forbidden"`. */
  taskSupport?: 'forbidden' | 'optional' | 'required';
};

/**
 * A tool a server offers.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
 */
export type Tool = BaseMetadata &
  Icons & {
    description?: string;
    /** Schema of `arguments`. */
    inputSchema: ObjectJsonSchema;
    /**
     * Schema of `structuredContent` in the result.
     * @since 2025-06-18
     */
    outputSchema?: ObjectJsonSchema;
    /** @since 2025-03-26 */
    annotations?: ToolAnnotations;
    /** @since 2025-11-25 */
    execution?: ToolExecution;
    /** @since 2025-06-18 */
    _meta?: Meta;
  };

/**
 * Lists the server's tools, a page at a time.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools
 */
export type ListToolsRequest = {
  method: 'tools/list';
  params?: PaginatedRequestParams;
};

/**
 * Answer to `tools/list`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools
 */
export type ListToolsResult = PaginatedResult & {
  tools: Tool[];
};

/**
 * Params of `tools/call`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#calling-tools
 */
export type CallToolRequestParams = TaskAugmentedRequestParams & {
  name: string;
  arguments?: { [key: string]: unknown };
};

/**
 * Calls a tool.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#calling-tools
 */
export type CallToolRequest = {
  method: 'tools/call';
  params: CallToolRequestParams;
};

/**
 * Answer to `tools/call`. Failures of the tool itself come back here with `isError: true`
 * (so the model can see them); unknown tools and the like are protocol errors.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result
 */
export type CallToolResult = Result & {
  /** Unstructured result. */
  content: ContentBlock[];
  /**
   * Structured result, matching the tool's `outputSchema` when it has one.
   * @since 2025-06-18
   */
  structuredContent?: { [key: string]: unknown };
  /** Default false. */
  isError?: boolean;
};

/**
 * The server's tool list changed.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification
 */
export type ToolListChangedNotification = {
  method: 'notifications/tools/list_changed';
  params?: NotificationParams;
};
