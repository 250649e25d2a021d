/**
 * Small facts about the frames a Streamable HTTP client carries: the lifecycle messages it watches
 * and the JSON-RPC error a refused modern POST carries as its body.
 * @internal
 */
import type { Frame, JsonRpcRequest } from '../lib/jsonrpc/message.js';
import { requestIdOf } from './http-client-common.js';
import type { RawFrame } from './transport.js';

/** The `initialize` request (the transport reads its result and records it for a re-initialization). */
export function isInitializeRequest(frame: Frame): frame is JsonRpcRequest {
  const f = frame as { method?: unknown; id?: unknown };
  return !Array.isArray(frame) && f.method === 'initialize' && f.id !== undefined && f.id !== null;
}

/** `notifications/initialized`: later POSTs wait for it, and its acceptance opens the standalone stream. */
export function isInitializedNotification(frame: Frame): boolean {
  const f = frame as { method?: unknown; id?: unknown };
  return !Array.isArray(frame) && f.method === 'notifications/initialized' && f.id === undefined;
}

/** A 4xx/5xx body that is a JSON-RPC error, as the response to `frame`; undefined if it is not one. */
export function errorBodyResponse(frame: Frame, text: string, status: number): RawFrame | undefined {
  const id = requestIdOf(frame);
  if (id === undefined) return undefined;
  let body: { error?: { code?: unknown; message?: unknown; data?: unknown } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return undefined;
  }
  const e = body?.error;
  if (e === null || typeof e !== 'object' || typeof e.code !== 'number' || !Number.isInteger(e.code)) return undefined;
  const error: { code: number; message: string; data?: unknown } = { code: e.code, message: typeof e.message === 'string' ? e.message : `HTTP ${status}` };
  if (e.data !== undefined) error.data = e.data;
  return { jsonrpc: '2.0', id, error } as RawFrame;
}
