// The legacy era's (2025-11-25 and older) POSTs on the default HTTP stack take the lean path
// (undici's request with a LeanAbort, no fetch Response): what a user of a sessionful server
// notices must stay the same there, and a redirect or a custom fetch still goes through fetch.
import { expect } from 'chai';
import type { Dispatcher } from 'undici';
import type { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { RequestCancelledError } from '../../lib/errors.js';
import { defaultAgent, undiciFetch } from '../../streams/http-fetch.js';
import { LeanAbort } from '../../streams/lean-post.js';
import { createStreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from '../../streams/streamable-http-client.js';
import type { StreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { initializeResult, json, sseEvent, sseStart, startRawServer, toolResult, type RawHandler, type RawRequest, type RawServer } from '../fixtures/http-client/raw-server.js';
import { firstText, newClient, rejectionOf, until } from './http-client-helpers.js';

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

/** One request the shared undici agent was asked to make, and whether it went the lean way. */
interface Dispatched {
  method: string;
  path: string;
  lean: boolean;
}

let restoreAgent: (() => void) | undefined;

/** Records every request made on the default agent (both paths use it; only the lean one passes a LeanAbort). */
async function spyOnAgent(): Promise<Dispatched[]> {
  const agent = (await defaultAgent())!;
  const seen: Dispatched[] = [];
  const original = agent.request;
  agent.request = function (this: typeof agent, options: Dispatcher.RequestOptions) {
    seen.push({ method: options.method, path: options.path, lean: options.signal instanceof LeanAbort });
    return original.call(this, options);
  } as typeof agent.request;
  restoreAgent = () => {
    agent.request = original;
  };
  return seen;
}

/** initialize (session `sid()`), initialized → 202, cancelled → 202, GET → 405, DELETE → 200. True when it answered. */
function basics(r: RawRequest, sid: () => string = () => 's1'): boolean {
  if (r.method === 'POST' && r.json?.method === 'initialize') {
    json(r.res, 200, initializeResult(r.json.id, r.json.params.protocolVersion), { 'mcp-session-id': sid() });
    return true;
  }
  if (r.method === 'POST' && (r.json?.method === 'notifications/initialized' || r.json?.method === 'notifications/cancelled')) {
    r.res.writeHead(202).end();
    return true;
  }
  if (r.method === 'GET') {
    r.res.writeHead(405, { allow: 'POST' }).end();
    return true;
  }
  if (r.method === 'DELETE') {
    r.res.writeHead(200).end();
    return true;
  }
  return false;
}

interface Setup {
  server: RawServer;
  client: Client;
  transport: StreamableHttpClientTransport;
}
const open: Setup[] = [];

async function setup(handler: RawHandler, options: StreamableHttpClientTransportOptions = {}): Promise<Setup> {
  const server = await startRawServer(handler);
  const transport = createStreamableHttpClientTransport(server.url, options);
  const client = newClient(['2025-11-25']);
  const s = { server, client, transport };
  open.push(s);
  await client.connect(transport);
  return s;
}

const leanPosts = (seen: Dispatched[]) => seen.filter((d) => d.method === 'POST' && d.lean);
const fetchPosts = (seen: Dispatched[]) => seen.filter((d) => d.method === 'POST' && !d.lean);

describe('http client: the lean POST of a sessionful (2025-11-25) server', function () {
  afterEach(async () => {
    restoreAgent?.();
    restoreAgent = undefined;
    for (const s of open.splice(0)) {
      await s.client.close().catch(() => {});
      await s.server.close();
    }
  });

  it('sends every POST the lean way, with the session id of the initialize answer and the negotiated MCP-Protocol-Version after it', async () => {
    const seen = await spyOnAgent();
    const s = await setup((r) => {
      if (basics(r)) return;
      json(r.res, 200, toolResult(r.json.id, `${r.headers['mcp-session-id'] as string}:${r.headers['mcp-protocol-version'] as string}`));
    });
    expect(firstText(await s.client.request('tools/call', call('echo')))).to.equal('s1:2025-11-25');
    const posts = s.server.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.json.method, r.headers['mcp-session-id'] ?? null, r.headers['mcp-protocol-version'] ?? null])).to.deep.equal([
      ['initialize', null, null],
      ['notifications/initialized', 's1', '2025-11-25'],
      ['tools/call', 's1', '2025-11-25'],
    ]);
    expect(leanPosts(seen)).to.have.length(3);
    expect(fetchPosts(seen)).to.have.length(0);
    expect(s.transport.sessionId).to.equal('s1');
  });

  it('keeps the fetch path for a transport given its own fetch', async () => {
    const seen = await spyOnAgent();
    let fetched = 0;
    const s = await setup(
      (r) => {
        if (basics(r)) return;
        json(r.res, 200, toolResult(r.json.id, 'ok'));
      },
      {
        fetch: (input, init) => {
          fetched++;
          return undiciFetch(input, init);
        },
      },
    );
    await s.client.request('tools/call', call('echo'));
    expect(leanPosts(seen)).to.have.length(0);
    expect(fetchPosts(seen)).to.have.length(3);
    expect(fetched).to.be.at.least(3);
  });

  it('reads an SSE answer (a priming event, progress, then the result); a cancelled request\'s stream is not resumed when the server ends it', async () => {
    const seen = await spyOnAgent();
    const clock = new ManualClock();
    let hanging: RawRequest | undefined;
    const s = await setup(
      (r) => {
        if (r.json?.method === 'notifications/cancelled') hanging?.res.end();
        if (basics(r)) return;
        sseStart(r.res);
        sseEvent(r.res, { id: 'e1' });
        sseEvent(r.res, { id: 'e2', data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: r.json.params._meta.progressToken, progress: 1 } } });
        if (r.json.params.name === 'hang') {
          hanging = r;
          return;
        }
        sseEvent(r.res, { id: 'e3', data: toolResult(r.json.id, 'streamed') });
        r.res.end();
      },
      { clock },
    );
    const progress: number[] = [];
    expect(firstText(await s.client.request('tools/call', call('echo'), { onprogress: (p) => progress.push(p.progress) }))).to.equal('streamed');
    expect(progress).to.deep.equal([1]);

    const controller = new AbortController();
    const pending = s.client.request('tools/call', call('hang'), { signal: controller.signal, onprogress: (p) => progress.push(p.progress) });
    await until(() => progress.length === 2, 'the progress of the hanging call');
    const ended = new Promise<void>((resolve) => hanging!.res.on('close', () => resolve()));
    controller.abort();
    expect(await rejectionOf(pending)).to.be.instanceOf(RequestCancelledError);
    await s.server.next((r) => r.json?.method === 'notifications/cancelled');
    await ended;
    // An unfinished stream with an event id would be resumed after a backoff: this one is done.
    for (let i = 0; i < 5; i++) {
      clock.advance(60_000);
      await new Promise((r) => setImmediate(r));
    }
    expect(s.server.requests.filter((r) => r.headers['last-event-id'] !== undefined)).to.have.length(0);
    expect(fetchPosts(seen)).to.have.length(0);
  });

  it('starts a new session when a POST gets 404 for the old one, and retries the request on it', async () => {
    const seen = await spyOnAgent();
    let n = 0;
    const valid = new Set<string>();
    const s = await setup((r) => {
      const sid = r.headers['mcp-session-id'] as string | undefined;
      if (sid !== undefined && !valid.has(sid)) {
        json(r.res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
        return;
      }
      const fresh = () => {
        const id = `s${++n}`;
        valid.add(id);
        return id;
      };
      if (basics(r, fresh)) return;
      json(r.res, 200, toolResult(r.json.id, sid!));
    });
    expect(firstText(await s.client.request('tools/call', call('echo')))).to.equal('s1');
    valid.delete('s1');
    expect(firstText(await s.client.request('tools/call', call('echo')))).to.equal('s2');
    expect(s.transport.sessionId).to.equal('s2');
    // The request that saw the 404 and its retry went the lean way.
    const calls = s.server.requests.filter((r) => r.json?.method === 'tools/call').map((r) => r.headers['mcp-session-id']);
    expect(calls).to.deep.equal(['s1', 's1', 's2']);
    expect(leanPosts(seen).length).to.be.at.least(5);
  });

  it('hands a redirected POST to the fetch path: a same-origin 307 is followed (session kept), another origin is reported with its Location', async () => {
    const seen = await spyOnAgent();
    const s = await setup((r) => {
      if (r.path === '/mcp') {
        const to = r.json?.params?.name === 'away' ? 'http://localhost:1/elsewhere' : '/mcp/v2';
        r.res.writeHead(307, { location: to }).end();
        return;
      }
      if (basics(r)) return;
      json(r.res, 200, toolResult(r.json.id, `${r.path} ${r.headers['mcp-session-id'] as string}`));
    });
    expect(firstText(await s.client.request('tools/call', call('echo')))).to.equal('/mcp/v2 s1');
    expect(s.transport.sessionId).to.equal('s1');
    // Each POST was tried the lean way once, then sent through fetch, which followed the redirect.
    expect(leanPosts(seen).map((d) => d.path)).to.deep.equal(['/mcp', '/mcp', '/mcp']);
    expect(fetchPosts(seen).map((d) => d.path)).to.deep.equal(['/mcp', '/mcp/v2', '/mcp', '/mcp/v2', '/mcp', '/mcp/v2']);

    const error = await rejectionOf(s.client.request('tools/call', call('away')));
    expect(error.message).to.include('HTTP 307').and.include('Location: http://localhost:1/elsewhere').and.include('another origin');
  });

  it('close() aborts a POST still waiting for its answer', async () => {
    const s = await setup((r) => {
      if (basics(r)) return;
      // Never answered.
    });
    const pending = s.client.request('tools/call', call('hang'));
    const waiting = await s.server.next((r) => r.json?.method === 'tools/call');
    const closed = new Promise<void>((resolve) => waiting.res.on('close', () => resolve()));
    await s.client.close();
    await rejectionOf(pending);
    await closed;
  });

  it('refuses an SSE event larger than maxFrameBytes: the server is told the frame was too large', async () => {
    const s = await setup(
      (r) => {
        if (basics(r) || r.json?.method === undefined) {
          if (!r.res.headersSent) r.res.writeHead(202).end();
          return;
        }
        sseStart(r.res);
        sseEvent(r.res, { id: 'e1', data: toolResult(r.json.id, r.json.params.name === 'big' ? 'x'.repeat(5000) : 'small') });
        r.res.end();
      },
      { maxFrameBytes: 2000 },
    );
    expect(firstText(await s.client.request('tools/call', call('small')))).to.equal('small');
    void s.client.request('tools/call', call('big')).catch(() => {});
    const refusal = await s.server.next((r) => r.json?.error !== undefined);
    expect(refusal.json.error.message).to.include('Frame too large').and.include('2000');
  });
});
