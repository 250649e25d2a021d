/**
 * The POST of one message on the default HTTP stack, without the `fetch` shape: undici's
 * `request` on the shared keep-alive agent with plain header records, the answer's body left a
 * Node stream (read as JSON text or SSE events by the client), and cancellation through a small
 * event emitter instead of an `AbortController`. Building a WHATWG `Response`, its web stream,
 * `Headers` objects and an `AbortSignal` per call cost the client about as much as the rest of
 * the call. Both eras take it (the 2026-07-28 one and the sessions of 2025-11-25 and older); the
 * client handles its answer exactly as a fetch answer. Used only when the transport has neither a
 * custom `fetch` nor `auth`; a redirect, or undici missing, goes back to the fetch path.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
import { EventEmitter } from 'node:events';
import type { HeadersOption } from './http-client-common.js';
import { defaultAgent, defaultAgentNow } from './http-fetch.js';
import { UndiciAnswer, type UndiciResponse } from './http-post-answer.js';

/** Aborts one request: undici takes an event emitter as its `signal` (an AbortSignal costs more to make). */
export class LeanAbort extends EventEmitter {
  aborted = false;
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/** Plain header records (lower-case names) from the `headers` option of a POST. */
export async function leanHeaders(option: HeadersOption | undefined, url: URL): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (option === undefined) return out;
  const value = typeof option === 'function' ? await option({ method: 'POST', url }) : option;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Headers)) {
    for (const [k, v] of Object.entries(value as Record<string, string>)) out[k.toLowerCase()] = v;
    return out;
  }
  new Headers(value).forEach((v, k) => (out[k] = v));
  return out;
}

/** Whether the lean path can take a POST now (undici loaded); awaits only the first load. */
export function leanReady(): boolean | Promise<boolean> {
  const loaded = defaultAgentNow();
  if (loaded === undefined) return defaultAgent().then((agent) => agent !== undefined);
  return loaded !== null;
}

/**
 * POST `body` to `url` on the shared agent (`abort` aborts it). Call only once {@link leanReady}
 * said yes; {@link leanAnswer} reads what it resolves to.
 */
export function leanRequest(url: URL, headers: Record<string, string>, body: string, abort: LeanAbort): Promise<UndiciResponse> {
  return defaultAgentNow()!.request({ origin: url.origin, path: url.pathname + url.search, method: 'POST', headers, body, signal: abort }) as Promise<UndiciResponse>;
}

/** The answer to a lean POST, or undefined when the fetch path must take the message instead (a redirect: drained). */
export function leanAnswer(res: UndiciResponse): UndiciAnswer | undefined {
  if (res.statusCode >= 300 && res.statusCode < 400) {
    res.body.on('error', ignore).resume();
    return undefined;
  }
  return new UndiciAnswer(res);
}

const ignore = (): void => {};

/** The connection died under the request (reset, closed by the peer), as opposed to never opening. */
export function connectionLost(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED';
}
