/**
 * The HTTP recording proxy: listens on 127.0.0.1 and forwards every request (Streamable HTTP POST,
 * GET and DELETE, or the legacy SSE endpoints) to the target, streaming the answer back. JSON
 * bodies and SSE events are journaled both ways; the HTTP method, status and session id go with
 * each entry, credentials in headers never do.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { listen, type Listening } from '../http/listen.js';
import { SseParser } from '../../streams/sse-parse.js';
import type { RecordingWriter } from './recording.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length']);

function bodyFrames(text: string): unknown[] {
  if (text.trim() === '') return [];
  try {
    return [JSON.parse(text)];
  } catch {
    return [undefined];
  }
}

export interface HttpProxy {
  listening: Listening;
  close(): Promise<void>;
}

export async function proxyHttp(target: URL, port: number, host: string, w: RecordingWriter): Promise<HttpProxy> {
  const open = new Set<ServerResponse>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const url = new URL(req.url ?? '/', target);
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    const sessionId = req.headers['mcp-session-id'];
    const meta = { http: { method: req.method, path: url.pathname + url.search, ...(typeof sessionId === 'string' && { sessionId }) } };
    const chunks: Buffer[] = [];
    const upstream = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: req.method, headers }, (up) => {
      const outHeaders: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) outHeaders[k] = v;
      res.writeHead(up.statusCode ?? 502, outHeaders);
      const upSession = up.headers['mcp-session-id'];
      const outMeta = { http: { method: req.method, status: up.statusCode, ...(typeof upSession === 'string' ? { sessionId: upSession } : meta.http.sessionId && { sessionId: meta.http.sessionId }) } };
      const type = String(up.headers['content-type'] ?? '');
      if (type.includes('text/event-stream')) {
        const parser = new SseParser((item) => {
          if (item.type !== 'event') return;
          if (item.event === 'endpoint') w.note({ event: 'sse endpoint', endpoint: item.data });
          else if (item.data.trim() !== '') w.line('server', item.data, outMeta);
        });
        up.on('data', (c: Buffer) => {
          parser.push(c);
          res.write(c);
        });
        up.on('end', () => res.end());
      } else {
        const body: Buffer[] = [];
        up.on('data', (c: Buffer) => {
          body.push(c);
          res.write(c);
        });
        up.on('end', () => {
          res.end();
          const text = Buffer.concat(body).toString('utf8');
          if (type.includes('json') && text.trim() !== '') w.line('server', text, outMeta);
          else if (text.trim() !== '' || (up.statusCode ?? 0) >= 400) w.note({ event: 'http response', status: up.statusCode, body: text.slice(0, 2000), ...outMeta });
        });
      }
      up.on('error', () => res.destroy());
    });
    upstream.on('error', (e) => {
      w.note({ event: 'upstream error', error: e.message, ...meta });
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`mcp-actors record: cannot reach ${target.href}: ${e.message}\n`);
    });
    req.on('data', (c: Buffer) => {
      chunks.push(c);
      upstream.write(c);
    });
    req.on('end', () => {
      upstream.end();
      const text = Buffer.concat(chunks).toString('utf8');
      for (const frame of bodyFrames(text)) {
        if (frame === undefined) w.line('client', text, { ...meta, headers: w.redactHeaders(req.headers) });
        else w.frame('client', frame, { ...meta, headers: w.redactHeaders(req.headers) });
      }
      if (text.trim() === '' && req.method !== 'POST') w.note({ event: `http ${req.method}`, ...meta, headers: w.redactHeaders(req.headers) });
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
  };
  const listening = await listen(handler, { port, host, logger: false });
  w.transport('open');
  return {
    listening,
    async close() {
      for (const res of open) res.destroy();
      await listening.close();
    },
  };
}
