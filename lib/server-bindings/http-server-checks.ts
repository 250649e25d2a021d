/**
 * What the HTTP core asks of a POST body and of a shared store before it serves a request: is it
 * an `initialize`, which id an error answer carries, what the store must do first, whether the
 * server's store has a part for HTTP sessions, and whether an error means the store is down.
 */
import type { JsonObject, RequestId } from '../jsonrpc/message.js';
import type { TouchNeeds } from './http-cluster-sessions.js';
import type { HttpSessionStore } from './http-cluster.js';

export function isInitializeRequest(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    (value as JsonObject).method === 'initialize' &&
    (value as JsonObject).id !== undefined
  );
}

/** A server's `store` option, if it has a part for HTTP sessions. */
export function httpStoreOf(store: unknown): HttpSessionStore | undefined {
  const part = (store as { httpSessions?: unknown } | undefined)?.httpSessions;
  return part !== undefined && part !== null ? (store as HttpSessionStore) : undefined;
}

/** What the shared store must do for a POST body before it is served (see ClusterSessions.resolve). */
export function touchNeeds(value: unknown): TouchNeeds {
  let stream = false;
  let initialized = false;
  for (const m of Array.isArray(value) ? value : [value]) {
    if (m === null || typeof m !== 'object') continue;
    const msg = m as JsonObject;
    if (typeof msg.method !== 'string') continue;
    if (msg.id !== undefined) stream = true;
    else if (msg.method === 'notifications/initialized') initialized = true;
  }
  return { stream, initialized };
}

/** The id of a single JSON-RPC request, so that an error answer can carry it; null otherwise. */
export function requestIdOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
