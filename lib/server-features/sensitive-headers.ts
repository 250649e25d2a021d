/**
 * A guard for tool authors: an `x-mcp-header` parameter is copied into an HTTP header that
 * proxies, load balancers and their logs see, so one that looks like a secret (password, token,
 * API key, credentials, card or social security number) is warned about when the tool is
 * registered (`McpSensitiveHeaderWarning`, once per tool and parameter).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header
 */
import { emitWarning } from '../host-warning.js';
import type { ParamHeader } from '../modern/param-headers.js';

// Names of secrets, not of counts or ids: `token`, `access_token`, `apiKey` warn; `max_tokens` does not.
const SENSITIVE = /pass(word|wd|phrase)|secret|(^|[-_.]|access|refresh|auth|bearer|id|api|session)[-_]?token($|[-_.])|api[-_]?key|authorization|credential|private[-_]?key|cookie|^ssn$|social[-_]?security|cvv|card[-_]?number/i;
/** camelCase names ending in Token (`githubToken`). */
const CAMEL_TOKEN = /[a-z0-9]Token$/;

const looksSensitive = (name: string) => SENSITIVE.test(name) || CAMEL_TOKEN.test(name);

/** The mirrored parameters whose name or header name looks like a secret. */
export function sensitiveHeaders(headers: readonly ParamHeader[]): ParamHeader[] {
  return headers.filter((h) => looksSensitive(h.param.split('.').at(-1)!) || looksSensitive(h.header));
}

/** Warn about each mirrored parameter of `tool` that looks like a secret. */
export function warnSensitiveHeaders(tool: string, headers: readonly ParamHeader[]): void {
  for (const h of sensitiveHeaders(headers)) {
    emitWarning(
      `Tool "${tool}": parameter "${h.param}" looks sensitive but is mirrored in the Mcp-Param-${h.header} header (x-mcp-header), which intermediaries can see and log; remove x-mcp-header from it`,
      { type: 'McpSensitiveHeaderWarning' },
    );
  }
}
