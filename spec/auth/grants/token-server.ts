/**
 * An in-test token endpoint on 127.0.0.1: records each request (headers and form) and answers
 * what the test's `answer` says.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

export interface Answer {
  status?: number;
  body: unknown;
  /** Send the body as is (not JSON-encoded). */
  raw?: boolean;
}

export interface TokenServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: TokenRequest[];
  close(): Promise<void>;
}

export async function startTokenServer(answer: (req: TokenRequest) => Answer): Promise<TokenServer> {
  const requests: TokenRequest[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      const r: TokenRequest = { path: req.url ?? '/', headers: req.headers, form: new URLSearchParams(text) };
      requests.push(r);
      const a = answer(r);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(a.raw ? String(a.body) : JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `Authorization: Basic` → [id, secret], form-decoded. */
export function basicCredentials(header: string | undefined): [string, string] | undefined {
  if (header === undefined || !header.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  return [dec(decoded.slice(0, colon)), dec(decoded.slice(colon + 1))];
}
