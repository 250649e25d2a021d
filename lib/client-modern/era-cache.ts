/**
 * What the era probe found out about an HTTP endpoint, remembered so that the next client to the
 * same endpoint does not probe again (revision 2026-07-28, versioning: "The era determination is
 * a property of the server, not of an individual request. Clients SHOULD cache the result for the
 * lifetime of the server process (stdio) or origin (HTTP), and MAY persist it").
 *
 * - Keyed by the endpoint URL (origin and path, query kept; fragment and credentials dropped),
 *   narrower than the spec's "origin": one origin often fronts several MCP servers at different
 *   paths (a gateway), and their eras differ. A narrower key only costs a probe; a wider one could
 *   send `initialize` to a modern-only server.
 * - stdio needs no cache: a client probes its process once, when it connects (the host keeps what
 *   a restart must know, a server that exits when probed, for the restarts of that server).
 * - The default is one cache for the process ({@link sharedEraCache}); `eraCache: false` on the
 *   client probes every time, and any {@link EraCache} can stand in (one that persists, say).
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions
 */
import type { Transport } from '../../streams/transport.js';
import { isHttpTransport } from './negotiate.js';

/** What a probe found: a session-era server, or a modern one and the version it took. */
export type EraVerdict = { era: 'legacy' } | { era: 'modern'; version: string };

/** Where verdicts are kept, by {@link eraCacheKey}. */
export interface EraCache {
  get(key: string): EraVerdict | undefined;
  set(key: string, verdict: EraVerdict): void;
  delete(key: string): void;
}

/** Verdicts in memory, the oldest forgotten past `maxEntries` (a process talking to endless URLs stays bounded). */
export class MemoryEraCache implements EraCache {
  private readonly entries = new Map<string, EraVerdict>();

  constructor(private readonly maxEntries = 1_000) {}

  get(key: string): EraVerdict | undefined {
    return this.entries.get(key);
  }

  set(key: string, verdict: EraVerdict): void {
    this.entries.delete(key);
    this.entries.set(key, verdict);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The process's cache, every client's default. */
export const sharedEraCache = new MemoryEraCache();

/** The key of an HTTP transport's endpoint; undefined for transports without one (stdio, memory, WebSocket). */
export function eraCacheKey(transport: Transport): string | undefined {
  if (!isHttpTransport(transport)) return undefined;
  const url = (transport as { url?: unknown }).url;
  if (!(url instanceof URL)) return undefined;
  const key = new URL(url.href);
  key.hash = '';
  key.username = '';
  key.password = '';
  return key.href;
}
