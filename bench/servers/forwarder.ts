/**
 * Bench floor for the gateway: a bare JSON-RPC forwarder with no MCP in it, the least a proxy
 * can do per call. It serves HTTP on 127.0.0.1 (a port of its own, printed as
 * `Forwarding at URL` on stderr) and forwards each POST:
 *
 * - `--url URL`: the bytes, to an HTTP server (method, headers and body as they came, over a
 *   keep-alive agent; the answer's status, headers and body back as they come);
 * - `-- CMD ARGS`: as one NDJSON line to a stdio server it spawns, its id renumbered so that
 *   callers cannot collide; the line answering that id comes back as a JSON body. Notifications
 *   get 202; what the server sends unasked is dropped.
 *
 * No session, no header checks, no schema: the gap between a call through it and a direct call
 * is one hop (one more process woken, two more HTTP exchanges' worth of syscalls), which the
 * gateway cannot go below.
 */
import { spawn } from 'node:child_process';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

import { fileURLToPath } from 'node:url';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The forwarding request listener: to the HTTP server at `url`. */
export function toHttp(url: URL): (req: IncomingMessage, res: ServerResponse) => void {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return (req, res) => {
    const out = request({ host: url.hostname, port: url.port, path: url.pathname, method: req.method, headers: { ...req.headers, host: url.host }, agent }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  };
}

/** The forwarding request listener: to a stdio server it spawns (`cmd args`). */
export function toStdio([cmd, ...args]: string[]): (req: IncomingMessage, res: ServerResponse) => void {
  const child = spawn(cmd!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<number, { res: ServerResponse; id: unknown }>();
  let next = 0;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let msg: { id?: number; method?: string };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      return; // not a frame: nothing to forward
    }
    if (msg.method !== undefined || typeof msg.id !== 'number') return;
    const w = waiting.get(msg.id);
    if (w === undefined) return;
    waiting.delete(msg.id);
    const body = JSON.stringify({ ...msg, id: w.id });
    w.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    w.res.end(body);
  });
  return (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    void readBody(req).then((body) => {
      let msg: { id?: unknown; method?: string };
      try {
        msg = JSON.parse(body.toString('utf8')) as typeof msg;
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (msg.id === undefined || msg.method === undefined) {
        child.stdin!.write(body.toString('utf8') + '\n');
        res.writeHead(202).end();
        return;
      }
      const id = ++next;
      waiting.set(id, { res, id: msg.id });
      child.stdin!.write(JSON.stringify({ ...msg, id }) + '\n');
    });
  };
}

/** A forwarder listening on 127.0.0.1 (a free port), in this process. */
export function listenForwarder(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(listener);
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
        close: () => new Promise<void>((done) => server.close(() => done()).closeAllConnections()),
      }),
    ),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dash = process.argv.indexOf('--');
  const urlAt = process.argv.indexOf('--url');
  const target = urlAt >= 0 ? new URL(process.argv[urlAt + 1]!) : undefined;
  const command = dash >= 0 ? process.argv.slice(dash + 1) : [];
  if (target === undefined && command.length === 0) throw new Error('usage: forwarder --url URL | -- CMD ARGS');
  const { url } = await listenForwarder(target !== undefined ? toHttp(target) : toStdio(command));
  process.stderr.write(`Forwarding at ${url}\n`);
  process.on('SIGTERM', () => process.exit(0));
}
