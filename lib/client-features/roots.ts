/**
 * Roots the client exposes: validation of root URIs before they are handed to a server.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots
 */
import { access, constants } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Root } from '../protocol/schema/roots.js';

/**
 * Why `roots` cannot be exposed, or undefined: each root needs a `file://` URI that parses, has
 * no `..` segment (path traversal, also percent-encoded) and no query or fragment; names are
 * strings; no URI twice.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#root
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#security-considerations
 */
export function checkRoots(roots: unknown): string | undefined {
  if (!Array.isArray(roots)) return 'roots must be an array';
  const seen = new Set<string>();
  for (let i = 0; i < roots.length; i++) {
    const r = roots[i] as Partial<Root> | null;
    if (r === null || typeof r !== 'object') return `roots[${i}] must be an object`;
    if (typeof r.uri !== 'string') return `roots[${i}].uri must be a string`;
    if (!r.uri.startsWith('file://')) return `roots[${i}].uri must be a file:// URI, got ${JSON.stringify(r.uri)}`;
    let url: URL;
    try {
      url = new URL(r.uri);
    } catch {
      return `roots[${i}].uri is not a valid URI: ${JSON.stringify(r.uri)}`;
    }
    // URL parsing resolves dot segments, so look at the text as written (and decoded).
    const rawPath = r.uri.slice('file://'.length);
    let decoded: string;
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      return `roots[${i}].uri has invalid percent-encoding: ${JSON.stringify(r.uri)}`;
    }
    if (decoded.split(/[\\/]/).some((seg) => seg === '..' || seg === '.')) {
      return `roots[${i}].uri must not contain "." or ".." segments (path traversal): ${JSON.stringify(r.uri)}`;
    }
    if (decoded.includes('\0')) return `roots[${i}].uri must not contain NUL`;
    if (url.search || url.hash) return `roots[${i}].uri must not have a query or fragment`;
    if (r.name !== undefined && typeof r.name !== 'string') return `roots[${i}].name must be a string`;
    if (seen.has(url.href)) return `roots[${i}].uri ${JSON.stringify(r.uri)} is listed twice`;
    seen.add(url.href);
  }
  return undefined;
}

/** Whether two root lists say the same thing (no notification when nothing changed). */
export function sameRoots(a: readonly Root[], b: readonly Root[]): boolean {
  return a.length === b.length && a.every((r, i) => JSON.stringify(r) === JSON.stringify(b[i]));
}

/**
 * Says whether a root can be exposed now (exists, readable...). A root it refuses is left out of
 * `roots/list`; a verifier that throws makes the answer -32603 (Internal error).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/client/roots#implementation-guidelines
 */
export type RootVerifier = (root: Root) => boolean | Promise<boolean>;

/** A {@link RootVerifier} for `file://` roots: the directory (or file) exists and is readable. */
export const rootIsAccessible: RootVerifier = async (root) => {
  try {
    await access(fileURLToPath(root.uri), constants.R_OK);
    return true;
  } catch {
    return false;
  }
};

/** Options of `client.setRoots`. */
export interface SetRootsOptions {
  /**
   * Checked for each root at every `roots/list`, so a server is only told of roots it can use:
   * `true` for {@link rootIsAccessible}, or a verifier of your own. Off by default.
   */
  verify?: boolean | RootVerifier;
}
