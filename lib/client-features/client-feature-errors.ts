/**
 * Typed errors of the client features.
 */
import { McpError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { ElicitRequestURLParams } from '../protocol/schema/elicitation.js';

/** One problem found by JSON Schema validation. */
export interface SchemaIssue {
  /** JSON pointer into the instance (`#/temperature`). */
  instanceLocation: string;
  /** The schema keyword that failed (`required`, `type`, ...). */
  keyword: string;
  message: string;
}

/**
 * A tool's `structuredContent` does not match the `outputSchema` the server listed for it (or is
 * missing). The result is kept on the error for inspection.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema
 */
export class OutputSchemaError extends McpError {
  override readonly name = 'OutputSchemaError';
  constructor(
    readonly tool: string,
    readonly issues: SchemaIssue[],
    readonly result: unknown,
  ) {
    super(
      ErrorCode.InvalidParams,
      `The result of tool "${tool}" does not match its outputSchema: ` +
        issues.map((i) => `${i.instanceLocation} ${i.message}`).join('; ') +
        '. The server must return structuredContent that conforms to the schema it listed.',
      { tool, issues },
    );
  }
}

/**
 * A tool's `outputSchema` cannot be used to check its result: it breaks MCP's JSON Schema rules
 * (a `$ref` that does not resolve inside the schema, which is never fetched; keywords with values
 * of the wrong shape; more nesting or subschemas than the bounds). The result is not accepted
 * unchecked; `result` holds it for a caller who decides otherwise.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic#json-schema-usage
 */
export class UnusableOutputSchemaError extends McpError {
  override readonly name = 'UnusableOutputSchemaError';
  constructor(
    readonly tool: string,
    readonly problems: string,
    readonly result: unknown,
  ) {
    super(
      ErrorCode.InvalidParams,
      `The outputSchema of tool "${tool}" cannot be used to check its result: ${problems}. The server must list a schema that stands on its own (inline what it references under $defs).`,
      { tool, problems },
    );
  }
}

/**
 * The server answered -32042: the request can go through only after these URL-mode elicitations
 * are completed. `callTool(..., { onUrlElicitationRequired })` runs them and retries.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-elicitation-required-error
 */
export class UrlElicitationRequiredError extends McpError {
  override readonly name = 'UrlElicitationRequiredError';
  constructor(
    message: string,
    readonly elicitations: ElicitRequestURLParams[],
    data?: unknown,
  ) {
    super(ErrorCode.UrlElicitationRequired, message, data ?? { elicitations });
  }
}

/**
 * A required URL elicitation did not complete: the user declined or cancelled it, gave up
 * waiting, or it was invalid. Local only (never sent).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#completion-notifications-for-url-mode-elicitation
 */
export class ElicitationNotCompletedError extends Error {
  override readonly name = 'ElicitationNotCompletedError';
  constructor(
    readonly elicitationId: string,
    readonly outcome: 'declined' | 'cancelled' | 'abandoned' | 'rejected' | 'failed' | 'aborted',
    detail?: string,
  ) {
    super(`URL elicitation "${elicitationId}" was not completed (${outcome})${detail ? `: ${detail}` : ''}; the original request was not retried.`);
  }
}

/**
 * Throw this from a sampling handler when the user rejects the request: the server gets code -1.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#error-handling
 */
export class SamplingRejectedError extends McpError {
  override readonly name = 'SamplingRejectedError';
  constructor(message = 'User rejected sampling request') {
    super(-1, message);
  }
}

/**
 * The local sampling handler returned a result that breaks the protocol (a `tool_use` for a tool
 * that was not offered, a `tool_result` in a result, no `model`...). The server gets -32603.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#tool-use-and-result-balance
 */
export class InvalidSamplingResultError extends Error {
  override readonly name = 'InvalidSamplingResultError';
  constructor(readonly problem: string) {
    super(`The sampling handler returned an invalid result: ${problem}`);
  }
}

/**
 * A server sent a cursor it had already sent during the same listing: following it would loop.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination
 */
export class PaginationLoopError extends Error {
  override readonly name = 'PaginationLoopError';
  constructor(
    readonly method: string,
    readonly cursor: string,
  ) {
    super(`"${method}" returned the cursor ${JSON.stringify(cursor)} twice in one listing; stopped to avoid an endless loop.`);
  }
}

/**
 * A resource subscription ended because a new session could not take it over: the server lost
 * the old session (HTTP 404), the client started a new one by itself and sent
 * `resources/subscribe` again, and that failed. `code` and `data` are the server's error, when it
 * answered one. Subscribe again to retry.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
export class SubscriptionLostError extends Error {
  override readonly name = 'SubscriptionLostError';
  constructor(
    readonly uri: string,
    reason: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(`The subscription to ${uri} was lost with the server's session: renewing it on the new session failed (${reason}).`);
  }
}

/**
 * Convert an error response -32042 into a {@link UrlElicitationRequiredError}, or undefined for any
 * other error (or a -32042 without a usable list of URL elicitations).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-elicitation-required-error
 */
export function asUrlElicitationRequired(e: unknown): UrlElicitationRequiredError | undefined {
  if (e instanceof UrlElicitationRequiredError) return e;
  if (!(e instanceof McpError) || e.code !== ErrorCode.UrlElicitationRequired) return undefined;
  const list = (e.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(list)) return undefined;
  const elicitations = list.filter(
    (x): x is ElicitRequestURLParams =>
      x !== null && typeof x === 'object' && (x as any).mode === 'url' && typeof (x as any).elicitationId === 'string' && typeof (x as any).url === 'string',
  );
  if (elicitations.length === 0) return undefined;
  return new UrlElicitationRequiredError(e.message, elicitations, e.data);
}
