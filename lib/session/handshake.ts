/**
 * The lifecycle's checks: what makes an `initialize` request or result invalid, and a failure as
 * the session machine keeps it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
 */
import type { SessionContext, SessionFailure, SessionPhase, SessionRole } from '../../machines/session.machine.js';
import { McpError, TransportError } from '../errors.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { errorResponse, type JsonObject, type JsonRpcRequest, type JsonRpcResponse } from '../jsonrpc/message.js';

/** The refusal of an `initialize` request this side cannot take now (or whose params are wrong), or undefined. */
export function refuseInitialize(msg: JsonRpcRequest, inBatch: boolean, role: SessionRole, phase: SessionPhase): JsonRpcResponse | undefined {
  const { id } = msg;
  if (role === 'client') return errorResponse(id, ErrorCode.MethodNotFound, 'Method not found: initialize (this side is a client)');
  if (inBatch) return errorResponse(id, ErrorCode.InvalidRequest, 'initialize must not be part of a JSON-RPC batch');
  if (phase !== 'awaitingInitialize') {
    return errorResponse(id, ErrorCode.InvalidRequest, 'The session is already initialized; initialize may be sent only once per session');
  }
  const problem = checkInitializeParams(msg.params);
  if (problem) return errorResponse(id, ErrorCode.InvalidParams, `Invalid initialize params: ${problem}`);
  return undefined;
}

export function toFailure(e: Error): SessionFailure {
  const f: SessionFailure = { name: e.name, message: e.message };
  if (e instanceof McpError && e.data !== undefined) f.data = e.data;
  if (e instanceof TransportError && e.details !== undefined) f.data = e.details;
  return f;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function checkInitializeParams(p: JsonObject | undefined): string | undefined {
  if (!p) return 'params are required';
  if (typeof p.protocolVersion !== 'string') return '"protocolVersion" must be a string';
  if (!isObject(p.capabilities)) return '"capabilities" must be an object';
  if (!isObject(p.clientInfo)) return '"clientInfo" must be an object';
  if (typeof p.clientInfo.name !== 'string') return '"clientInfo.name" must be a string';
  if (typeof p.clientInfo.version !== 'string') return '"clientInfo.version" must be a string';
  return undefined;
}

function checkInitializeResult(r: JsonObject): string | undefined {
  if (typeof r.protocolVersion !== 'string') return '"protocolVersion" must be a string';
  if (!isObject(r.capabilities)) return '"capabilities" must be an object';
  if (!isObject(r.serverInfo)) return '"serverInfo" must be an object';
  return undefined;
}

/** The params of the client's `initialize`: our latest revision, capabilities and info. */
export function initializeParams(context: SessionContext): JsonObject {
  return { protocolVersion: context.supportedVersions[0]!, capabilities: context.localCapabilities as JsonObject, clientInfo: context.localInfo as unknown as JsonObject };
}

/** The server's `initialize` result: the negotiated revision, `capabilities` (as this caller sees them), info, instructions. */
export function initializeResult(context: SessionContext, capabilities: Record<string, unknown>): JsonObject {
  const result: JsonObject = { protocolVersion: context.protocolVersion!, capabilities: capabilities as JsonObject, serverInfo: context.localInfo as unknown as JsonObject };
  if (context.instructions !== undefined) result.instructions = context.instructions;
  return result;
}

/** Why the server's `initialize` result cannot be used, as the session fails with it, or undefined. */
export function invalidInitializeResult(result: JsonObject): McpError | undefined {
  const problem = checkInitializeResult(result);
  return problem ? new McpError(ErrorCode.InvalidRequest, `Invalid initialize result from the server: ${problem}`) : undefined;
}
