/**
 * The stateful Streamable HTTP wiring both official SDKs document for node:http: one transport
 * and one server per session, kept in a map by session id; the body is read and parsed first (the
 * examples' `express.json()`), so that `initialize` can be recognized. Shared by `sdk-http.ts`
 * (SDK 1.x) and `sdk2-http.ts` (SDK v2), which supply the transport and server of their SDK.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the wiring needs of an SDK's session transport. */
export interface SessionTransport {
  readonly sessionId?: string | undefined;
  onclose?: (() => void) | undefined;
  handleRequest(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void>;
}

export interface SessionfulOptions {
  isInitializeRequest(body: unknown): boolean;
  /** A connected transport + server for a new session; `onInitialized` once it has an id. */
  openSession(onInitialized: (id: string) => void): Promise<SessionTransport>;
  /** Host/Origin guards in front (false: the guard has answered). */
  guard?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(text));
      } catch (e) {
        reject(e as Error);
      }
    });
    req.on('error', reject);
  });
}

function fail(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** Listens on 127.0.0.1 (a port of its own); resolves with the server, its URL and the live session count. */
export async function listenSessionful(options: SessionfulOptions): Promise<{ http: Server; url: string; sessions: () => number }> {
  const transports = new Map<string, SessionTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (options.guard && !options.guard(req, res)) return;
    if (req.url !== '/mcp') return fail(res, 404, 'Not found');
    const sid = req.headers['mcp-session-id'];
    const existing = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (req.method === 'POST') {
      const body = await readJson(req);
      if (existing) return existing.handleRequest(req, res, body);
      if (sid === undefined && options.isInitializeRequest(body)) {
        const transport = await options.openSession((id) => transports.set(id, transport));
        transport.onclose = () => {
          if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
        };
        return transport.handleRequest(req, res, body);
      }
      return fail(res, 400, 'Bad Request: no valid session ID provided');
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!existing) return fail(res, 400, 'Invalid or missing session ID');
      return existing.handleRequest(req, res);
    }
    fail(res, 405, 'Method not allowed');
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) fail(res, 500, String(e));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, sessions: () => transports.size };
}
