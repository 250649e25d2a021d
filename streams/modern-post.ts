/**
 * The POST of one modern (2026-07-28) message on the default HTTP stack, without the `fetch`
 * shape: undici's `request` on the shared keep-alive agent with plain header records, the
 * response body read as a Node stream (JSON text, or SSE events), and cancellation through a
 * small event emitter instead of an `AbortController`. A modern request needs none of what the
 * fetch shape is there for (sessions, re-initialization, authorization wrappers), and building a
 * WHATWG `Response`, its web stream, `Headers` objects and an `AbortSignal` per call cost the
 * client about as much as the rest of the call. Used only when the transport has neither a custom
 * `fetch` nor `auth`; anything unusual (a redirect, undici missing) goes back to the fetch path.
 *
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 */
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { Frame, RequestId } from '../lib/jsonrpc/message.js';
import { modernHeaders, type ParamHeaderSource } from '../lib/client-modern/wire-headers.js';
import { describeFrame, messageOf, requestIdOf, type HeadersOption } from './http-client-common.js';
import { defaultAgent, defaultAgentNow } from './http-fetch.js';
import { encodeFrame } from '../lib/jsonrpc/codec.js';

/** Aborts one request: undici takes an event emitter as its `signal` (an AbortSignal costs more to make). */
export class LeanAbort extends EventEmitter {
  aborted = false;
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/** What the poster needs from its transport. */
export interface ModernPostHost {
  readonly url: URL;
  readonly headersOption: HeadersOption | undefined;
  readonly paramHeaders: ParamHeaderSource | undefined;
  /** The transport is closing or closed: nothing more to report. */
  ended(): boolean;
  /** A POST starts; `id` is its request's (its cancellation aborts it, JSON answer or not). */
  track(abort: LeanAbort, id?: RequestId): void;
  untrack(abort: LeanAbort): void;
  /** A received message (JSON text). */
  deliver(text: string): void;
  /** Read the SSE body of request `id`; `abort` ends it. */
  readSse(id: RequestId, body: Readable, abort: LeanAbort): void;
  /** A 4xx/5xx body that is a JSON-RPC error: delivered as the answer (false if it is not one). */
  deliverErrorBody(frame: Frame, text: string, status: number): boolean;
  undeliverable(frame: Frame, message: string, data: Record<string, unknown>): void;
}

const SSE = 'text/event-stream';

/** Plain header records from the `headers` option: a record is used as is, the rest through `Headers`. */
async function plainHeaders(option: HeadersOption | undefined, url: URL): Promise<Record<string, string>> {
  if (option === undefined) return {};
  const value = typeof option === 'function' ? await option({ method: 'POST', url }) : option;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Headers)) {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(value as Record<string, string>)) out[k.toLowerCase()] = v;
    return out;
  }
  const out: Record<string, string> = {};
  new Headers(value).forEach((v, k) => (out[k] = v));
  return out;
}

/**
 * POST a modern message. Resolves false when the fetch path must take it (undici unavailable, a
 * redirect): nothing was delivered then.
 */
export async function postModern(host: ModernPostHost, frame: Frame): Promise<boolean> {
  // Awaited only until the agent is loaded, and the headers only when there is an option: each
  // await is a turn of the microtask queue per request.
  const loaded = defaultAgentNow();
  const agent = loaded === undefined ? await defaultAgent() : (loaded ?? undefined);
  if (agent === undefined) return false;
  let headers: Record<string, string>;
  try {
    headers = host.headersOption === undefined ? {} : await plainHeaders(host.headersOption, host.url);
  } catch (e) {
    host.undeliverable(frame, `The \`headers\` option failed for POST ${describeFrame(frame)}: ${messageOf(e)}`, {});
    return true;
  }
  headers['content-type'] = 'application/json';
  headers['accept'] = 'application/json, text/event-stream';
  for (const [name, value] of modernHeaders(frame, host.paramHeaders)) headers[name] = value;
  const abort = new LeanAbort();
  host.track(abort, requestIdOf(frame));
  const url = host.url;
  let res: Awaited<ReturnType<typeof agent.request>>;
  try {
    res = await agent.request({ origin: url.origin, path: url.pathname + url.search, method: 'POST', headers, body: encodeFrame(frame), signal: abort });
  } catch (e) {
    host.untrack(abort);
    if (host.ended() || abort.aborted) return true;
    // A kept-alive connection the server closed as it was reused: the request is lost like a cut
    // stream, and the client re-issues it (streamBroken). Other failures: nothing answered.
    const reset = connectionLost(e);
    host.undeliverable(frame, `POST ${describeFrame(frame)} to ${url.href} failed: ${messageOf(e)}${reset ? '' : '. Is the server running?'}`, {
      url: url.href,
      ...(reset && { streamBroken: true }),
    });
    return true;
  }
  const status = res.statusCode;
  if (status >= 300 && status < 400) {
    // Redirects are the fetch path's business.
    host.untrack(abort);
    res.body.resume();
    return false;
  }
  const id = requestIdOf(frame);
  const type = mediaTypeOf(res.headers['content-type']);
  if (status >= 200 && status < 300) {
    if (status === 202 || id === undefined) {
      host.untrack(abort);
      res.body.resume();
      return true;
    }
    if (type === SSE) {
      host.readSse(id, res.body, abort);
      return true;
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (e) {
      if (host.ended() || abort.aborted) return true;
      // The answer was cut: the request is lost, and the client re-issues it.
      host.undeliverable(frame, `Reading the answer to ${describeFrame(frame)} failed: ${messageOf(e)}.`, { streamBroken: true });
      return true;
    } finally {
      host.untrack(abort);
    }
    if (type !== 'application/json') {
      host.undeliverable(frame, `The answer to ${describeFrame(frame)} has content type ${JSON.stringify(res.headers['content-type'])}; a Streamable HTTP server answers application/json or text/event-stream.`, {
        status,
        contentType: res.headers['content-type'],
      });
      return true;
    }
    if (text.trim() !== '') host.deliver(text);
    return true;
  }
  // A refusal: a JSON-RPC error body is the answer (-32022, -32020, -32602...).
  const text = await res.body.text().catch(() => '');
  host.untrack(abort);
  if (host.deliverErrorBody(frame, text, status)) return true;
  host.undeliverable(frame, `POST ${describeFrame(frame)} to ${url.href} failed: HTTP ${status} ${text.slice(0, 300)}`, { status, body: text.slice(0, 1200) });
  return true;
}

/** The connection died under the request (reset, closed by the peer), as opposed to never opening. */
function connectionLost(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED';
}

function mediaTypeOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}
