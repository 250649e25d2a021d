/**
 * Bench server, official SDK over Streamable HTTP, stateful, as the SDK's examples do it: one
 * `StreamableHTTPServerTransport` and one server per session (the low-level `Server` with the
 * `tools/call` echo, or with `--mcpserver` an `McpServer` with one tool), kept in a map by session
 * id, on node:http (127.0.0.1, a port of its own). The body is read and parsed first (the examples'
 * `express.json()`), so that initialize can be recognized. `--mode json` sets
 * `enableJsonResponse: true`, `--mode sse` false.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createSdkMcpServer, createSdkServer } from '../echo/sdk.js';
import { modeArg, serveParent } from './http-child.js';

const enableJsonResponse = modeArg() === 'json';
const mcpServer = process.argv.includes('--mcpserver');
const transports = new Map<string, StreamableHTTPServerTransport>();

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

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.url !== '/mcp') return fail(res, 404, 'Not found');
  const sid = req.headers['mcp-session-id'];
  const existing = typeof sid === 'string' ? transports.get(sid) : undefined;
  if (req.method === 'POST') {
    const body = await readJson(req);
    if (existing) return existing.handleRequest(req, res, body);
    if (sid === undefined && isInitializeRequest(body)) {
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse,
        onsessioninitialized: (id) => {
          transports.set(id, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
      };
      const server = mcpServer ? createSdkMcpServer() : createSdkServer();
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    return fail(res, 400, 'Bad Request: no valid session ID provided');
  }
  if (req.method === 'GET' || req.method === 'DELETE') {
    if (!existing) return fail(res, 400, 'Invalid or missing session ID');
    return existing.handleRequest(req, res);
  }
  fail(res, 405, 'Method not allowed');
}

const http = createServer((req, res) => {
  handle(req, res).catch((e: unknown) => {
    if (!res.headersSent) fail(res, 500, String(e));
  });
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
serveParent(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, () => transports.size);
