/**
 * How a Streamable HTTP client sends one POST: the lean way on the default stack (undici directly,
 * see lean-post), else through `fetch` (a custom fetch, auth, a redirect). Either way the answer
 * comes back as a `PostAnswer`, for the client to handle the same.
 * @internal
 */
import { AuthorizationError } from '../lib/auth/authorization-errors.js';
import { modernHeaders, type ParamHeaderSource } from '../lib/client-modern/wire-headers.js';
import { encodeFrame } from '../lib/jsonrpc/codec.js';
import type { Frame, RequestId } from '../lib/jsonrpc/message.js';
import { customHeaders, describeFrame, messageOf, requestIdOf, type HeadersOption } from './http-client-common.js';
import type { Abortable } from './http-client-streams.js';
import type { FetchLike } from './http-fetch.js';
import { FetchAnswer, type PostAnswer } from './http-post-answer.js';
import { connectionLost, LeanAbort, leanAnswer, leanHeaders, leanReady, leanRequest } from './lean-post.js';

/** What sending a POST needs from its transport. */
export interface PostSenderHost {
  readonly url: URL;
  readonly fetch: FetchLike;
  /** Neither a custom fetch nor auth: the lean way may be taken. */
  readonly lean: boolean;
  readonly headersOption: HeadersOption | undefined;
  paramHeaders(): ParamHeaderSource | undefined;
  /** The session id to send, if any. */
  session(): string | undefined;
  /** The negotiated `MCP-Protocol-Version` to send (not on `initialize`), if any. */
  versionHeader(): string | undefined;
  /** The transport is closing or closed, or this exchange was cancelled: its failure is no news. */
  quiet(abort: Abortable): boolean;
  /** An exchange starts; `id` is its modern request's (cancelling the request aborts it). */
  track(abort: Abortable, id: RequestId | undefined): void;
  release(abort: Abortable): void;
  undeliverable(frame: Frame, message: string, data: Record<string, unknown>): void;
}

/** A POST sent: its answer, what aborts it, and the session id it carried. */
export interface Exchange {
  answer: PostAnswer;
  abort: Abortable;
  session: string | undefined;
}

/**
 * Send the POST of `frame`. Undefined when it got no answer (reported to the host as
 * undeliverable, which throws for a notification or a response).
 */
export async function sendPost(host: PostSenderHost, frame: Frame, initialize: boolean, modern: boolean): Promise<Exchange | undefined> {
  const id = modern ? requestIdOf(frame) : undefined;
  const body = encodeFrame(frame);
  if (host.lean) {
    // Awaited only until undici is loaded, and the headers only when there is an option: each
    // await is a turn of the microtask queue per request.
    const ready = leanReady();
    if (ready === true || (ready !== false && (await ready))) {
      let headers: Record<string, string>;
      try {
        headers = host.headersOption === undefined ? {} : await leanHeaders(host.headersOption, host.url);
      } catch (e) {
        return headersFailed(host, frame, e);
      }
      const session = host.session();
      ownPostHeaders(headers, host, frame, session, initialize);
      const abort = new LeanAbort();
      host.track(abort, id);
      try {
        const answer = leanAnswer(await leanRequest(host.url, headers, body, abort));
        if (answer !== undefined) return { answer, abort, session };
        // A redirect: the fetch path follows it.
        host.release(abort);
      } catch (e) {
        host.release(abort);
        return postFailed(host, frame, abort, e, modern);
      }
    }
  }
  let headers: Headers;
  try {
    headers = await customHeaders(host.headersOption, 'POST', host.url);
  } catch (e) {
    return headersFailed(host, frame, e);
  }
  const session = host.session();
  const own: Record<string, string> = {};
  ownPostHeaders(own, host, frame, session, initialize);
  for (const name in own) headers.set(name, own[name]!);
  const controller = new AbortController();
  host.track(controller, id);
  try {
    const res = await host.fetch(host.url, { method: 'POST', headers, body, signal: controller.signal });
    return { answer: new FetchAnswer(res), abort: controller, session };
  } catch (e) {
    host.release(controller);
    return postFailed(host, frame, controller, e, modern);
  }
}

/**
 * The transport's own headers of a POST, over the custom ones (they win): the session, the
 * negotiated version, the media types, and a modern message's version, method and target.
 */
function ownPostHeaders(headers: Record<string, string>, host: PostSenderHost, frame: Frame, session: string | undefined, initialize: boolean): void {
  if (session !== undefined) headers['mcp-session-id'] = session;
  const version = initialize ? undefined : host.versionHeader();
  if (version !== undefined) headers['mcp-protocol-version'] = version;
  headers['content-type'] = 'application/json';
  headers['accept'] = 'application/json, text/event-stream';
  for (const [name, value] of modernHeaders(frame, host.paramHeaders())) headers[name] = value;
}

function headersFailed(host: PostSenderHost, frame: Frame, e: unknown): undefined {
  host.undeliverable(frame, `The \`headers\` option failed for POST ${describeFrame(frame)}: ${messageOf(e)}`, {});
  return undefined;
}

/** The POST got no answer: report it, unless it was meant to end. */
function postFailed(host: PostSenderHost, frame: Frame, abort: Abortable, e: unknown, modern: boolean): undefined {
  if (host.quiet(abort)) return undefined;
  const url = host.url.href;
  if (e instanceof AuthorizationError) {
    host.undeliverable(frame, `POST ${describeFrame(frame)} to ${url}: authorization failed: ${e.message}`, { url, authorization: e.code });
    return undefined;
  }
  // A modern request on a kept-alive connection the server closed as it was reused is lost like a
  // cut stream, and the client re-issues it (streamBroken). Other failures: nothing answered.
  const reset = modern && connectionLost(e);
  host.undeliverable(frame, `POST ${describeFrame(frame)} to ${url} failed: ${messageOf(e)}${reset ? '' : '. Is the server running?'}`, {
    url,
    ...(reset && { streamBroken: true }),
  });
  return undefined;
}
