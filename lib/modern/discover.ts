/**
 * `server/discover`: the versions, capabilities (with `extensions`), identity and instructions
 * of a server, answered in both eras and on every transport.
 *
 * `supportedVersions` lists the versions a request may name in `_meta` (the session revisions
 * are negotiated by `initialize`, not per request); -32022's `supported` says the same.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/discover
 */
import type { JsonObject } from '../jsonrpc/message.js';
import { MODERN_REVISIONS } from '../protocol/revisions.js';
import type { ServedServer } from './served-server.js';

export function discoverResult(server: ServedServer): JsonObject {
  const result: JsonObject = {
    supportedVersions: [...MODERN_REVISIONS],
    capabilities: structuredClone(server.declaredCapabilities) as JsonObject,
  };
  // The 2025-11-25 `tasks` capability does not exist in this era (tasks are an extension here).
  delete (result.capabilities as JsonObject).tasks;
  if (server.options.instructions !== undefined) result.instructions = server.options.instructions;
  return result;
}
