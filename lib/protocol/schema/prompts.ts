/**
 * Prompts: `prompts/list`, `prompts/get`, `notifications/prompts/list_changed`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts
 */
import type {
  BaseMetadata,
  Icons,
  Meta,
  NotificationParams,
  PaginatedRequestParams,
  PaginatedResult,
  RequestParams,
  Result,
  Role,
} from './base.js';
import type { ContentBlock } from './content.js';

/**
 * An argument a prompt template takes.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#prompt
 */
export type PromptArgument = BaseMetadata & {
  description?: string;
  required?: boolean;
};

/**
 * A prompt or prompt template.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#prompt
 */
export type Prompt = BaseMetadata &
  Icons & {
    description?: string;
    arguments?: PromptArgument[];
    /** @since 2025-06-18 */
    _meta?: Meta;
  };

/**
 * One message of a prompt. Content blocks by revision: see `ContentBlockIn`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#promptmessage
 */
export type PromptMessage = {
  role: Role;
  content: ContentBlock;
};

/**
 * Lists prompts, a page at a time.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#listing-prompts
 */
export type ListPromptsRequest = {
  method: 'prompts/list';
  params?: PaginatedRequestParams;
};

/**
 * Answer to `prompts/list`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#listing-prompts
 */
export type ListPromptsResult = PaginatedResult & {
  prompts: Prompt[];
};

/**
 * Params of `prompts/get`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#getting-a-prompt
 */
export type GetPromptRequestParams = RequestParams & {
  name: string;
  /** Template arguments; values are strings. */
  arguments?: { [name: string]: string };
};

/**
 * Gets a prompt, filled in with arguments.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#getting-a-prompt
 */
export type GetPromptRequest = {
  method: 'prompts/get';
  params: GetPromptRequestParams;
};

/**
 * Answer to `prompts/get`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#getting-a-prompt
 */
export type GetPromptResult = Result & {
  description?: string;
  messages: PromptMessage[];
};

/**
 * The server's prompt list changed.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#list-changed-notification
 */
export type PromptListChangedNotification = {
  method: 'notifications/prompts/list_changed';
  params?: NotificationParams;
};
