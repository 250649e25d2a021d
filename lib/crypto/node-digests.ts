/**
 * Registers `node:crypto`'s SHA-256 and HMAC-SHA-256 for `./digest.ts` when imported. Only the
 * Node entries (`mcp-actors`, the node HTTP listener) import this; `mcp-actors/web` never does.
 */
import { createHash, createHmac } from 'node:crypto';
import { useDigests } from './digest.js';

useDigests({
  sha256: (data) => createHash('sha256').update(data).digest(),
  hmacSha256: (key, data) => createHmac('sha256', key).update(data).digest(),
});
