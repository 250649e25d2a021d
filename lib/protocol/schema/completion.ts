/**
 * Argument completion: `completion/complete`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion
 */
import type { BaseMetadata, RequestParams, Result } from './base.js';

/**
 * Names the prompt whose argument is being completed.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#reference-types
 */
export type PromptReference = BaseMetadata & {
  type: 'ref/prompt';
};

/**
 * Names the resource template (or resource URI) whose variable is being completed.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#reference-types
 */
export type ResourceTemplateReference = {
  type: 'ref/resource';
  uri: string;
};

/**
 * The 2024-11-05 and 2025-03-26 schemas' name for {@link ResourceTemplateReference}.
 * @deprecated Use `ResourceTemplateReference`; same wire shape.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#reference-types
 */
export type ResourceReference = ResourceTemplateReference;

/**
 * Params of `completion/complete`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#requesting-completions
 */
export type CompleteRequestParams = RequestParams & {
  ref: PromptReference | ResourceTemplateReference;
  /** The argument being typed and what has been typed so far. */
  argument: {
    name: string;
    value: string;
  };
  /**
   * Arguments already resolved, to narrow the suggestions.
   * @since 2025-06-18
   */
  context?: {
    arguments?: { [name: string]: string };
  };
};

/**
 * Asks the server for completion suggestions.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#requesting-completions
 */
export type CompleteRequest = {
  method: 'completion/complete';
  params: CompleteRequestParams;
};

/**
 * Answer to `completion/complete`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#completion-results
 */
export type CompleteResult = Result & {
  completion: {
    /** At most 100 values. */
    values: string[];
    /** How many exist in all, when known (may exceed `values.length`). */
    total?: number;
    /** More exist beyond `values`. */
    hasMore?: boolean;
  };
};
