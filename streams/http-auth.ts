/**
 * The `authenticate` hook of the HTTP servers, and how a caller's identity is told apart.
 *
 * Every request is authenticated (the session id is never proof of anything), and a session is
 * bound to the identity that created it: a request with another identity is answered as if the
 * session did not exist.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices#session-hijacking
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { errorBody, writeJson } from './http-body.js';

/** What an `authenticate` hook says about a request. */
export type AuthOutcome =
  | { ok: true; authInfo: unknown }
  | {
      ok: false;
      status: 401 | 403;
      /** The `WWW-Authenticate` header (e.g. `Bearer resource_metadata="…"`). */
      wwwAuthenticate?: string;
      /** The response body: an object is sent as JSON, a string as is. Default a JSON-RPC error. */
      body?: unknown;
    };

export type Authenticate = (req: IncomingMessage) => AuthOutcome | Promise<AuthOutcome>;

/** Who made a request, as far as the session binding is concerned. */
export interface Caller {
  authInfo: unknown;
  /** The identity key (see {@link defaultIdentity}); undefined when no hook is configured. */
  identity: string | undefined;
}

/**
 * The identity of an `authInfo`: its subject (`sub`, `subject`, `userId`, or `extra.sub`) when it
 * has one, else its `clientId`, else its `token`, else its JSON. A session created by one identity
 * is not served to another.
 */
export function defaultIdentity(authInfo: unknown): string | undefined {
  if (authInfo === undefined || authInfo === null) return undefined;
  if (typeof authInfo !== 'object') return `value:${String(authInfo)}`;
  const a = authInfo as Record<string, unknown>;
  const extra = a.extra as Record<string, unknown> | undefined;
  for (const [key, v] of [['sub', a.sub], ['sub', a.subject], ['sub', a.userId], ['sub', extra?.sub]] as const) {
    if (typeof v === 'string' || typeof v === 'number') return `${key}:${v}`;
  }
  if (typeof a.clientId === 'string') return `client:${a.clientId}`;
  if (typeof a.token === 'string') return `token:${a.token}`;
  return `json:${JSON.stringify(authInfo)}`;
}

/** Answers a refused authentication. */
export function writeAuthFailure(res: ServerResponse, outcome: Extract<AuthOutcome, { ok: false }>): void {
  const headers: OutgoingHttpHeaders = {};
  if (outcome.wwwAuthenticate !== undefined) headers['www-authenticate'] = outcome.wwwAuthenticate;
  let body: string;
  if (outcome.body === undefined) {
    body = errorBody(-32600, outcome.status === 401 ? 'Unauthorized: authentication required' : 'Forbidden: insufficient permissions');
  } else if (typeof outcome.body === 'string') {
    body = outcome.body;
  } else {
    body = JSON.stringify(outcome.body);
  }
  writeJson(res, outcome.status, body, headers);
}
