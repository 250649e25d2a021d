/**
 * A fetch handler on `node:http`: each request becomes a Web `Request` (its body a stream of the
 * incoming bytes, its `signal` aborted when the client leaves), the `Response` is written back,
 * streamed bodies as they come (SSE), and a client that leaves cancels the body stream.
 *
 * For running the fetch handler on Node (the demo's `--fetch`); `createStreamableHttpHandler` on
 * node:http does the same work without the two object conversions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError } from './client-error.js';

/** A bound server, as each runtime's starter reports it. @internal */
export interface Bound {
  port: number;
  host: string;
  stop(): Promise<void>;
}

type Fetch = (request: Request) => Response | Promise<Response>;

/**
 * `node:http`, fetched from the running Node (20.16+) rather than imported: a Worker build
 * bundles every `import()` it can see, and one of `node:http` fails it without `nodejs_compat`.
 */
function nodeHttp(): typeof import('node:http') {
  const proc = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process;
  const http = proc?.getBuiltinModule?.('node:http') as typeof import('node:http') | undefined;
  if (http === undefined) throw new Error('serveFetch on this runtime needs node:http (Node 20.16 or later); serve the handler with what your runtime offers instead');
  return http;
}

/** Listen on `host:port` and answer every request through `fetch`. */
export async function serveOnNode(fetch: Fetch, port: number, host: string): Promise<Bound> {
  const server = nodeHttp().createServer((req, res) => void bridge(fetch, req, res, origin));
  // A request node's parser refuses still gets a JSON-RPC error body, as every other refusal.
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    port: address.port,
    host: address.address,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One request through the fetch handler. Never throws: a failure is a 500 or a cut stream. */
export async function bridge(fetch: Fetch, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const target = req.url ?? '/';
  if (!target.startsWith('/')) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request: only origin-form request targets are served');
    return;
  }
  const aborter = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  const method = req.method ?? 'GET';
  let request: Request;
  try {
    const headers = new Headers();
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    request = new Request(origin + target, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? null : bodyOf(req),
      signal: aborter.signal,
      duplex: 'half',
    } as RequestInit);
  } catch {
    // node:http took it, the Fetch API does not (a header value it refuses, say): the client's fault.
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request: the request cannot be represented as a fetch Request');
    return;
  }
  let response: Response;
  try {
    response = await fetch(request);
  } catch {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('Internal Server Error');
    return;
  }
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  try {
    res.writeHead(response.status, out);
  } catch {
    // A head node refuses (a handler's header value with a newline, say): nothing of it goes out.
    response.body?.cancel().catch(() => {});
    res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
    return;
  }
  const body = response.body;
  if (body === null) {
    res.end();
    return;
  }
  // A streamed body (SSE) goes out as it comes: the head first, then each chunk.
  res.flushHeaders();
  const reader = body.getReader();
  res.on('close', () => {
    if (!res.writableFinished) reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Honour backpressure: read on once node took what it holds, so that a client that does
      // not read leaves the bytes queued in the body, where the handler sees them (writableLength).
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** The request body as a Web stream (no copy of the chunks). */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Uint8Array) => {
        if (open) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      });
      req.on('end', () => {
        if (open) controller.close();
        open = false;
      });
      req.on('error', (e) => {
        if (open) controller.error(e);
        open = false;
      });
    },
    cancel() {
      // The handler has what it wants (or refused the body): the rest is read and dropped.
      open = false;
      req.resume();
    },
  });
}

/** Resolves when `res` drained its buffer, or closed (then the loop's next write is a no-op). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
