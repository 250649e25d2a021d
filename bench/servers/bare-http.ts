/**
 * Bench server, bare HTTP (the ceiling): node:http, read the body, JSON.parse, answer,
 * JSON.stringify; a JSON body (`--mode json`) or a one-event SSE stream (`--mode sse`). No MCP,
 * no sessions.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bareAnswer } from '../echo/bare.js';
import { modeArg, serveParent } from './http-child.js';

const sse = modeArg() === 'sse';
const http = createServer((req, res) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (text += chunk));
  req.on('end', () => {
    const out = bareAnswer(text);
    if (sse) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(`event: message\ndata: ${out}\n\n`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    }
  });
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
serveParent(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, () => 0);
