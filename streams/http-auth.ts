/**
 * The `authenticate` hook of the HTTP servers, and how a caller's identity is told apart.
 *
 * Every request is authenticated (the session id is never proof of anything), and a session is
 * bound to the identity that created it: a request with another identity is answered as if the
 * session did not exist.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices#session-hijacking
 */
import type { HttpHeadersOut, HttpRequestHead, HttpResponseOut } from './http-shape.js';
import { errorBody, writeJson } from './http-body.js';
import { principalOf } from '../lib/auth/principal.js';

/** A refused request: 401 (who are you?), 403 (not allowed), 400 (malformed credentials). */
export interface AuthFailure {
  ok: false;
  status: 400 | 401 | 403;
  /** The `WWW-Authenticate` header (e.g. `Bearer resource_metadata="…"`). */
  wwwAuthenticate?: string;
  /** The response body: an object is sent as JSON, a string as is. Default a JSON-RPC error. */
  body?: unknown;
}

/** What an `authenticate` hook says about a request. */
export type AuthOutcome = { ok: true; authInfo: unknown } | AuthFailure;

/** A request or notification of a body, as the per-message step sees it. */
export interface AuthorizedMessage {
  method: string;
  params?: unknown;
}

/**
 * The second, per-message step: the hook runs before the body is read, so what depends on the
 * JSON-RPC messages of a POST (per-method or per-tool scopes) is decided here, once the body is
 * parsed and before any of it reaches the session. `methods` are those of the requests and
 * notifications in the body (one, or a batch's); `messages` the same with their params.
 * Undefined lets the body through.
 */
export type AuthorizeMessages = (methods: readonly string[], authInfo: unknown, messages?: readonly AuthorizedMessage[]) => AuthFailure | undefined;

/**
 * Authenticates a request from its headers. A hook may carry its own `authorizeMessages` step
 * (as `requireBearerAuth`'s does); the servers then run it on every POST body, so per-method
 * rules cannot be forgotten when wiring the hook.
 */
export type Authenticate = AuthenticateFn & { authorizeMessages?: AuthorizeMessages };

/**
 * The hook's call: it reads the request's method, URL and headers. On the node handler the
 * request is node's `IncomingMessage`, on the fetch handler a head carrying the Web `Request`.
 * Declared as a method so that hooks typed with `IncomingMessage` still fit.
 */
type AuthenticateFn = { hook(req: HttpRequestHead): AuthOutcome | Promise<AuthOutcome> }['hook'];

/** The methods of the requests and notifications of a parsed body (one message or a batch). */
export function methodsOf(value: unknown): string[] {
  const methods: string[] = [];
  const add = (m: unknown) => {
    if (m !== null && typeof m === 'object' && typeof (m as { method?: unknown }).method === 'string') methods.push((m as { method: string }).method);
  };
  if (Array.isArray(value)) for (const m of value) add(m);
  else add(value);
  return methods;
}

/** The requests and notifications of a parsed body, with their params. */
export function messagesOf(value: unknown): AuthorizedMessage[] {
  const out: AuthorizedMessage[] = [];
  const add = (m: unknown) => {
    if (m !== null && typeof m === 'object' && typeof (m as { method?: unknown }).method === 'string') {
      const { method, params } = m as { method: string; params?: unknown };
      out.push(params === undefined ? { method } : { method, params });
    }
  };
  if (Array.isArray(value)) for (const m of value) add(m);
  else add(value);
  return out;
}

/** Who made a request, as far as the session binding is concerned. */
export interface Caller {
  authInfo: unknown;
  /** The identity key (see {@link defaultIdentity}); undefined when no hook is configured. */
  identity: string | undefined;
}

/**
 * The identity of an `authInfo` (see {@link principalOf}): its subject, else its client id, else
 * its token, else its JSON. A session created by one identity is not served to another; tasks and
 * request states use the same key.
 */
export const defaultIdentity: (authInfo: unknown) => string | undefined = principalOf;

/** Answers a refused authentication. */
export function writeAuthFailure(res: HttpResponseOut, outcome: AuthFailure): void {
  const headers: HttpHeadersOut = {};
  if (outcome.wwwAuthenticate !== undefined) headers['www-authenticate'] = outcome.wwwAuthenticate;
  let body: string;
  if (outcome.body === undefined) {
    body = errorBody(
      -32600,
      outcome.status === 401 ? 'Unauthorized: authentication required' : outcome.status === 403 ? 'Forbidden: insufficient permissions' : 'Bad Request: malformed credentials',
    );
  } else if (typeof outcome.body === 'string') {
    body = outcome.body;
  } else {
    body = JSON.stringify(outcome.body);
  }
  writeJson(res, outcome.status, body, headers);
}
