/**
 * GET of a JSON metadata document (RFC 9728, RFC 8414, OIDC discovery): found, absent (a 4xx, so
 * the next well-known location may be tried), or an error that ends discovery.
 */
import type { FetchLike } from '../../streams/http-fetch.js';
import { AuthorizationError } from './authorization-errors.js';

export type DocumentOutcome = { found: true; json: Record<string, unknown> } | { found: false; status: number };

/** Fetches `url` as JSON. 4xx: absent. Network errors, 5xx and non-object bodies throw a `discovery_failed` error. */
export async function fetchMetadataDocument(url: URL, fetch: FetchLike, what: string): Promise<DocumentOutcome> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'GET', headers: { accept: 'application/json' } });
  } catch (e) {
    throw new AuthorizationError('discovery_failed', `Fetching the ${what} at ${url.href} failed: ${e instanceof Error ? e.message : String(e)}. Is the server reachable?`, {
      url: url.href,
    });
  }
  if (res.status >= 400 && res.status < 500) {
    await res.body?.cancel().catch(() => {});
    return { found: false, status: res.status };
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new AuthorizationError('discovery_failed', `The ${what} at ${url.href} answered HTTP ${res.status}; try again later.`, {
      url: url.href,
      status: res.status,
    });
  }
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new AuthorizationError('discovery_failed', `The ${what} at ${url.href} is not JSON.`, { url: url.href });
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new AuthorizationError('discovery_failed', `The ${what} at ${url.href} is not a JSON object.`, { url: url.href });
  }
  return { found: true, json: json as Record<string, unknown> };
}

/** A metadata member that must be an array of strings when present (RFC 8414 §2, RFC 9728 §2). */
export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
