/**
 * The `fetch` the HTTP client transports use by default: a small fetch-shaped function over an
 * undici `Agent` with keep-alive, using undici's `request` API. Measured on 5,000 sequential small
 * POSTs to a local node:http server (Node 20, 2 cores): global fetch ~225–260 µs each, undici
 * `fetch` with a keep-alive Agent about the same, this adapter ~65–75 µs (`Agent.request` alone
 * ~45–50 µs). It answers with a standard `Response`, so anything written for `fetch` (header
 * capture, OAuth wrappers) works on top of it. The Streamable HTTP client's POSTs skip that shape
 * on the default stack (`lean-post.ts`, on the same agent); its GETs and DELETE, and every request
 * of a transport with a custom `fetch` or `auth`, come here.
 *
 * Supported: string or URL input, `method`, `headers`, a string/bytes `body`, `signal`. Redirects
 * 307 and 308 are followed within the same origin (method and body kept, up to 5 hops); any other
 * redirect is returned as is, for the caller to report.
 *
 * undici is loaded on the first request, not on import: a stdio-only program never loads it, and
 * a bundler drops it from a bundle that does not use the HTTP client (package.json `sideEffects`
 * lists no module that imports it).
 */
import type { Readable } from 'node:stream';
import type { Agent } from 'undici';

/** The part of `fetch` the transports use. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

const MAX_REDIRECTS = 5;
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

let sharedAgent: Promise<Agent | undefined> | undefined;
/** The agent once loaded (null: undici could not be loaded), so a request need not await it. */
let loadedAgent: Agent | null | undefined;

/**
 * The keep-alive agent behind {@link undiciFetch} (undici loaded and the agent created on first
 * use); undefined when undici cannot be loaded (e.g. bundled into an ESM bundle, where its
 * `require` calls fail), and then Node's own `fetch` is used.
 */
export function defaultAgent(): Promise<Agent | undefined> {
  sharedAgent ??= import('undici').then(
    ({ Agent }) => (loadedAgent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 })),
    () => {
      loadedAgent = null;
      return undefined;
    },
  );
  return sharedAgent;
}

/** {@link defaultAgent} without waiting: the agent, null when undici cannot load, undefined before the first load settled. */
export function defaultAgentNow(): Agent | null | undefined {
  return loadedAgent;
}

function headersOf(init: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  const out: Record<string, string> = {};
  if (init === undefined) return out;
  new Headers(init).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('undiciFetch supports string and byte bodies only; pass your own `fetch` for other bodies');
}

/**
 * A pull-based web stream over a Node readable. (Node 20's `Readable.toWeb` throws an uncaught
 * "Controller is already closed" when the web stream is cancelled while data still flows.)
 */
function toWebStream(body: Readable): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const r = await chunks.next();
          if (cancelled) return;
          if (r.done) controller.close();
          else controller.enqueue(r.value);
        } catch (e) {
          if (!cancelled) controller.error(e);
        }
      },
      cancel() {
        cancelled = true;
        // undici's body emits an AbortError when destroyed early: expected here.
        body.on('error', () => {});
        body.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A fetch-shaped function over an undici dispatcher (default: a shared keep-alive `Agent`).
 */
export function createUndiciFetch(
  agent?: Agent,
  /** @internal Where the default agent comes from (tests: an undici that cannot load). */
  loadAgent: () => Promise<Agent | undefined> = defaultAgent,
): FetchLike {
  return async function fetchOverUndici(input, init = {}) {
    const dispatcher = agent ?? (await loadAgent());
    if (dispatcher === undefined) return globalThis.fetch(input, init);
    let url = new URL(typeof input === 'string' ? input : input.href);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = headersOf(init.headers);
    const body = bodyOf(init.body);
    for (let hop = 0; ; hop++) {
      const res = await dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: method as 'GET',
        headers,
        body,
        signal: init.signal ?? undefined,
      });
      const location = res.headers['location'];
      if ((res.statusCode === 307 || res.statusCode === 308) && typeof location === 'string' && hop < MAX_REDIRECTS) {
        const next = new URL(location, url);
        if (next.origin === url.origin) {
          res.body.resume();
          url = next;
          continue;
        }
      }
      const out = new Headers();
      for (const [key, value] of Object.entries(res.headers)) {
        if (Array.isArray(value)) for (const v of value) out.append(key, v);
        else if (value !== undefined) out.set(key, value);
      }
      if (NULL_BODY_STATUS.has(res.statusCode) || method === 'HEAD') {
        res.body.resume();
        return new Response(null, { status: res.statusCode, headers: out });
      }
      return new Response(toWebStream(res.body), { status: res.statusCode, headers: out });
    }
  };
}

/** The default fetch of the HTTP client transports. */
export const undiciFetch: FetchLike = createUndiciFetch();
