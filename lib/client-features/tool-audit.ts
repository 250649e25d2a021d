/**
 * Audit records of tool calls: which server, which tool, with what (secrets redacted), when, how
 * long, and how it ended. The client emits one per `callTool` on `toolCalls$`, built only while
 * someone observes it.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations
 */
import type { PeerInfo } from '../../machines/session.machine.js';

/** How a tool call ended. */
export type ToolCallOutcome =
  /** The tool ran and answered. */
  | 'success'
  /** The tool ran and reported an error (`isError: true`). */
  | 'tool-error'
  /** The request failed: a JSON-RPC error, a timeout, a cancellation, an invalid result... */
  | 'failed'
  /** The approver refused it; nothing was sent. */
  | 'denied';

/** One tool call, for an audit log. */
export interface ToolCallRecord {
  server: PeerInfo | undefined;
  /** The host's name for the server (set by a multi-server host). */
  serverName?: string;
  tool: string;
  /** The arguments, with the values of secret-named keys replaced by `[REDACTED]`. */
  arguments: unknown;
  /** Clock time the call began (before approval). */
  startedAt: number;
  /** Clock time it ended. */
  endedAt: number;
  durationMs: number;
  outcome: ToolCallOutcome;
  /** For `failed` and `denied`: the error's name and message (never its stack). */
  error?: { name: string; message: string; code?: number };
}

/** The error as an audit record keeps it. */
export function auditError(e: unknown): ToolCallRecord['error'] {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const code = (e as { code?: unknown }).code;
  return typeof code === 'number' ? { name: e.name, message: e.message, code } : { name: e.name, message: e.message };
}
