/**
 * Which era an inbound message belongs to, decided once at the edge from the body; a transport's
 * version header only cross-checks it. A `_meta` protocol version claim means modern (even on
 * `initialize`, which the modern era then answers -32601); anything else is legacy, except a
 * claim-less request that arrives with a modern `MCP-Protocol-Version` header: a malformed
 * modern request (-32602, HTTP 400), not a legacy one.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { isModernRevision } from '../protocol/revisions.js';
import { META } from '../protocol/schema/modern.js';
import { EnvelopeRefusal, hasVersionClaim, metaOf } from './envelope.js';

export type Era = 'modern' | 'legacy';

/** The era of one parsed JSON-RPC value (an array is a legacy batch). */
export function eraOf(value: unknown, versionHeader?: string): Era {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'legacy';
  const msg = value as { method?: unknown; params?: unknown };
  if (typeof msg.method !== 'string') return 'legacy';
  if (hasVersionClaim(msg.params)) return 'modern';
  // A modern header without a claim: a modern client that forgot its envelope.
  if (versionHeader !== undefined && isModernRevision(versionHeader) && 'id' in msg) return 'modern';
  return 'legacy';
}

/**
 * The HTTP cross-check of a modern request: the `MCP-Protocol-Version` header must be present
 * and equal to the body's claim (-32020 otherwise, before the version itself is judged).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 */
export function checkVersionHeader(params: unknown, header: string | undefined): void {
  const claim = metaOf(params)?.[META.protocolVersion];
  if (claim === undefined) return; // the envelope check answers -32602
  if (header === undefined) {
    throw new EnvelopeRefusal(ErrorCode.HeaderMismatch, 'Header mismatch: the MCP-Protocol-Version header is required', 400);
  }
  if (header !== claim) {
    throw new EnvelopeRefusal(
      ErrorCode.HeaderMismatch,
      `Header mismatch: MCP-Protocol-Version ${JSON.stringify(header).slice(0, 40)} differs from _meta ${META.protocolVersion} ${JSON.stringify(claim).slice(0, 40)}`,
      400,
    );
  }
}
