/**
 * The HTTP recording proxy: listens on 127.0.0.1 and forwards every request (Streamable HTTP POST,
 * GET and DELETE, the 2026-07-28 era's one POST per request, or the legacy SSE endpoints) to the
 * target, streaming the answer back. JSON bodies and SSE events are journaled both ways; the HTTP
 * method, status, session id and the JSON-RPC id of the request whose stream a frame came on go
 * with each entry, credentials in headers never do. A client closing a request's stream before
 * its answer (the 2026-07-28 era's cancellation) is journaled as a note.
 *
 * Legacy HTTP+SSE (2024-11-05) servers name in their `endpoint` event where the client is to
 * POST; an absolute URL on the target's origin is rewritten to the proxy's, or the client would
 * post around the recorder.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { listen, type Listening } from '../http/listen-port.js';
import { SseParser } from '../../streams/sse-parse.js';
import type { RecordingWriter } from './recording.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length']);
/** How much of a legacy SSE stream is held while looking for its `endpoint` event. */
const ENDPOINT_HOLD_LIMIT = 64 * 1024;

function bodyFrames(text: string): unknown[] {
  if (text.trim() === '') return [];
  try {
    return [JSON.parse(text)];
  } catch {
    return [undefined];
  }
}

/** The id of the one JSON-RPC request a POST body holds, if it holds one. */
function requestIdOf(text: string): string | number | undefined {
  try {
    const f = JSON.parse(text) as { id?: unknown; method?: unknown };
    return typeof f?.method === 'string' && (typeof f.id === 'string' || typeof f.id === 'number') ? f.id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an SSE event's data is the response to request `id`. */
function answers(data: string, id: string | number): boolean {
  try {
    const f = JSON.parse(data) as { id?: unknown; method?: unknown };
    return f?.method === undefined && f.id === id;
  } catch {
    return false;
  }
}

/**
 * An `endpoint` event's URL as the client must see it: an absolute URL on the target's origin
 * moved to the proxy's origin; anything else unchanged.
 */
export function rewriteEndpoint(data: string, target: URL, proxyOrigin: string): { data: string; foreign: boolean } {
  let url: URL;
  try {
    url = new URL(data);
  } catch {
    return { data, foreign: false }; // relative: resolved against the proxy already
  }
  if (url.origin !== target.origin) return { data, foreign: true };
  return { data: `${proxyOrigin}${url.pathname}${url.search}${url.hash}`, foreign: false };
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
    const proxyOrigin = `http://${req.headers.host ?? `127.0.0.1:${port}`}`;
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    const sessionId = req.headers['mcp-session-id'];
    const meta = { http: { method: req.method, path: url.pathname + url.search, ...(typeof sessionId === 'string' && { sessionId }) } };
    const chunks: Buffer[] = [];
    let posted: string | number | undefined;
    let answered = false;
    const upstream = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: req.method, headers }, (up) => {
      const outHeaders: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) outHeaders[k] = v;
      res.writeHead(up.statusCode ?? 502, outHeaders);
      // The client sees the status and headers at once, even while the body is held below.
      res.flushHeaders();
      const upSession = up.headers['mcp-session-id'];
      const outHttp = () => ({
        method: req.method,
        status: up.statusCode,
        ...(typeof upSession === 'string' ? { sessionId: upSession } : meta.http.sessionId && { sessionId: meta.http.sessionId }),
        ...(posted !== undefined && { requestId: posted }),
      });
      const type = String(up.headers['content-type'] ?? '');
      if (type.includes('text/event-stream')) {
        // A legacy SSE stream opens with its endpoint event: hold the bytes until it is read.
        let held: Buffer[] | undefined = req.method === 'GET' ? [] : undefined;
        let heldBytes = 0;
        const release = (rewrite?: { from: string; to: string }) => {
          if (!held) return;
          let text = Buffer.concat(held).toString('utf8');
          if (rewrite) text = text.replace(rewrite.from, rewrite.to);
          held = undefined;
          res.write(text);
        };
        const parser = new SseParser((item) => {
          if (item.type !== 'event') return;
          if (item.event === 'endpoint') {
            const { data, foreign } = rewriteEndpoint(item.data, target, proxyOrigin);
            w.note({ event: 'sse endpoint', endpoint: item.data, ...(data !== item.data && { rewrittenTo: data }) });
            if (foreign) w.note({ event: 'sse endpoint on another origin: the client posts there, around the recorder', endpoint: item.data });
            release(data !== item.data ? { from: item.data, to: data } : undefined);
            return;
          }
          release();
          if (item.data.trim() === '') return;
          answered ||= posted !== undefined && answers(item.data, posted);
          w.line('server', item.data, { http: outHttp() });
        });
        up.on('data', (c: Buffer) => {
          if (held) {
            held.push(c);
            heldBytes += c.length;
            parser.push(c);
            if (held && heldBytes > ENDPOINT_HOLD_LIMIT) release();
            return;
          }
          parser.push(c);
          res.write(c);
        });
        up.on('end', () => {
          release();
          res.end();
        });
      } else {
        const body: Buffer[] = [];
        up.on('data', (c: Buffer) => {
          body.push(c);
          res.write(c);
        });
        up.on('end', () => {
          res.end();
          answered = true;
          const text = Buffer.concat(body).toString('utf8');
          if (type.includes('json') && text.trim() !== '') w.line('server', text, { http: outHttp() });
          else if (text.trim() !== '' || (up.statusCode ?? 0) >= 400) w.note({ event: 'http response', status: up.statusCode, body: text.slice(0, 2000), http: outHttp() });
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
      if (req.method === 'POST') posted = requestIdOf(text);
      for (const frame of bodyFrames(text)) {
        if (frame === undefined) w.line('client', text, { ...meta, headers: w.redactHeaders(req.headers) });
        else w.frame('client', frame, { ...meta, headers: w.redactHeaders(req.headers) });
      }
      if (text.trim() === '' && req.method !== 'POST') w.note({ event: `http ${req.method}`, ...meta, headers: w.redactHeaders(req.headers) });
    });
    res.on('close', () => {
      if (res.writableFinished) return;
      upstream.destroy();
      // The client walked away from a request's stream before its answer: a cancellation in the 2026-07-28 era.
      if (posted !== undefined && !answered) w.note({ event: 'stream closed by client', requestId: posted, ...meta });
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
