/**
 * Shared pieces of the WebSocket specs: an MCP server with a few tools behind a WebSocket
 * endpoint, raw `ws` peers, and small waits on real sockets (events, never sleeps).
 */
import { firstValueFrom, lastValueFrom, type Observable } from 'rxjs';
import WebSocket, { WebSocketServer } from 'ws';
import { Server, type ServerSession } from '../../lib/server.js';
import type { TransportState } from '../../streams/transport.js';
import { createWebSocketServer, type McpWebSocketServer, type WebSocketServerOptions } from '../../lib/server-bindings/websocket-server.js';
import { SERVER_INFO } from '../helpers/raw-peer.js';

export { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';

export interface Fixture {
  server: Server;
  endpoint: McpWebSocketServer;
  /** What the tools saw. */
  seen: { started: string[]; aborted: unknown[] };
  /** Resolves when a `gate` call has started. */
  gateStarted: Promise<void>;
}

/** An MCP server with tools `echo`, `progress`, `gate` (waits for cancellation) and `big`, on its own port. */
export async function startServer(opts: Partial<WebSocketServerOptions> = {}): Promise<Fixture> {
  const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} } });
  const seen = { started: [] as string[], aborted: [] as unknown[] };
  let gateStarted!: () => void;
  const gate = new Promise<void>((resolve) => (gateStarted = resolve));
  server.onRequest('tools/call', async (params, ctx) => {
    const name = (params as any).name as string;
    seen.started.push(name);
    if (name === 'echo') return { content: [{ type: 'text', text: String((params as any).arguments?.text ?? '') }] };
    if (name === 'big') return { content: [{ type: 'text', text: 'x'.repeat((params as any).arguments.size) }] };
    if (name === 'progress') {
      for (let i = 1; i <= 3; i++) ctx.sendProgress(i, 3, `step ${i}`);
      return { content: [{ type: 'text', text: 'done' }] };
    }
    // gate: wait for the cancellation
    gateStarted();
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => {
        seen.aborted.push(ctx.signal.reason);
        resolve();
      }),
    );
    return { content: [] };
  });
  const endpoint = await createWebSocketServer(server, opts.httpServer ? opts : { port: 0, ...opts });
  return { server, endpoint, seen, gateStarted: gate };
}

/** Open a raw `ws` client (default subprotocol `mcp`). */
export function openRaw(url: string, protocols: string[] = ['mcp'], opts: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, opts);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** The status and body of a refused upgrade. */
export function refusal(url: string, protocols: string[] = ['mcp'], opts: WebSocket.ClientOptions = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, opts);
    ws.once('open', () => {
      ws.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    ws.on('error', () => {});
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        ws.terminate();
      });
    });
  });
}

/** The close code and reason a socket ends with. */
export function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.reject(new Error('already closed'));
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** The next text message on a raw socket, parsed. */
export function nextMessage(ws: WebSocket): Promise<any> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
}

/** A transport's final state ('closed' or 'failed'). */
export function finalState(state$: Observable<TransportState>): Promise<TransportState> {
  return lastValueFrom(state$);
}

/** Resolves when a session's streams complete (closed or failed). */
export function ended(session: { state$: Observable<unknown> }): Promise<void> {
  return new Promise((resolve) => session.state$.subscribe({ complete: () => resolve(), error: () => resolve() }));
}

/** The next session to open on an endpoint. */
export function nextSession(endpoint: McpWebSocketServer): Promise<ServerSession> {
  return firstValueFrom(endpoint.sessions$);
}

/** A bare `ws` server speaking the `mcp` subprotocol on an ephemeral loopback port. */
export async function rawServer(opts: WebSocket.ServerOptions = {}): Promise<{ wss: WebSocketServer; url: string; close(): Promise<void> }> {
  const wss = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    handleProtocols: (p) => (p.has('mcp') ? 'mcp' : false),
    ...opts,
  });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const { port } = wss.address() as { port: number };
  return {
    wss,
    url: `ws://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** Answer `initialize` like an MCP server would (for raw servers). */
export function answerInitialize(ws: WebSocket, msg: any): boolean {
  if (msg.method === 'initialize') {
    ws.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: msg.id,
        result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: SERVER_INFO },
      }),
    );
    return true;
  }
  return msg.method === 'notifications/initialized';
}
