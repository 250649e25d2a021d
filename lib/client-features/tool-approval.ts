/**
 * A human in the loop for tool calls: the client asks an approver (the application's
 * confirmation prompt) before a `tools/call` goes out, showing which server, which tool and the
 * exact arguments. A denied call is never sent.
 *
 * Tool annotations (`readOnlyHint`, `destructiveHint`...) are the server's claims about its own
 * tools: they are handed to the approver marked untrusted unless the application said the
 * server is trusted, and {@link approveReadOnlyFromTrustedServers} skips the prompt only for
 * read-only tools of trusted servers.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#user-interaction-model
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#security-considerations
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
 */
import type { PeerInfo } from '../../machines/session.machine.js';
import type { Tool, ToolAnnotations } from '../protocol/schema/tools.js';

/** A tool call waiting for the user's approval: show all of it before deciding. */
export interface ToolCallApprovalRequest {
  /** The server's name and version, as it said in `initialize`. */
  server: PeerInfo | undefined;
  /** The host's name for the server (set by a multi-server host; undefined on a lone client). */
  serverName?: string;
  /** The tool's name as the server knows it. */
  tool: string;
  /** The arguments that would be sent, exactly. */
  arguments: Record<string, unknown> | undefined;
  /** The tool as the server listed it (undefined when it was not listed in this session). */
  definition: Tool | undefined;
  /** The tool's annotations; claims of the server, to be believed only when `annotationsTrusted`. */
  annotations: ToolAnnotations | undefined;
  /** The application marked this server trusted (`trustedServer`); otherwise annotations are untrusted hints. */
  annotationsTrusted: boolean;
}

/** The user's decision: `true` to call, `false` (or `{ approved: false, reason }`) to refuse. */
export type ToolCallDecision = boolean | { approved: boolean; reason?: string };

/**
 * Asks the user whether a tool call may go out (a confirmation prompt). Runs before anything is
 * sent; a refusal makes `callTool` reject with {@link ToolCallDeniedError}.
 */
export type ToolCallApprover = (request: ToolCallApprovalRequest) => ToolCallDecision | Promise<ToolCallDecision>;

/**
 * The user (or the application's policy) refused a tool call: nothing was sent to the server.
 * Local only.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#user-interaction-model
 */
export class ToolCallDeniedError extends Error {
  override readonly name = 'ToolCallDeniedError';
  constructor(
    readonly tool: string,
    readonly reason?: string,
  ) {
    super(`The call to tool "${tool}" was denied${reason ? `: ${reason}` : ' by the user'}; it was not sent to the server.`);
  }
}

/** The decision made plain: approved, and why not. */
export function readDecision(decision: unknown): { approved: boolean; reason?: string } {
  if (decision === true) return { approved: true };
  if (decision !== null && typeof decision === 'object' && (decision as { approved?: unknown }).approved === true) return { approved: true };
  const reason = decision !== null && typeof decision === 'object' ? (decision as { reason?: unknown }).reason : undefined;
  // Anything but an explicit approval is a refusal: a confused approver must not let calls through.
  return typeof reason === 'string' ? { approved: false, reason } : { approved: false };
}

/**
 * An approver that lets read-only tools of trusted servers through without asking and asks
 * `ask` (the user) for everything else. A server's annotations count only when the server is
 * trusted: an untrusted server claiming `readOnlyHint: true` still gets the prompt.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
 */
export function approveReadOnlyFromTrustedServers(ask: ToolCallApprover): ToolCallApprover {
  return (request) => {
    const a = request.annotations;
    if (request.annotationsTrusted && a?.readOnlyHint === true && a.destructiveHint !== true) return true;
    return ask(request);
  };
}
