// OUR Client over OUR Streamable HTTP client transport against small raw node:http fixture
// servers that misbehave on purpose: expired sessions, cut streams, retry fields, 405s, errors.
// Every wait between reconnects runs on a ManualClock.
import { expect } from 'chai';
import type { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { McpError, RequestCancelledError, TransportError } from '../../lib/errors.js';
import { createStreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from '../../streams/streamable-http-client.js';
import type { StreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import type { TransportState } from '../../streams/transport.js';
import { initializeResult, json, sseEvent, sseStart, startRawServer, toolResult, type RawHandler, type RawRequest, type RawServer } from '../fixtures/http-client/raw-server.js';
import { firstText, newClient, nextDetails, recordStates, rejectionOf, until } from './http-client-helpers.js';

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

interface Setup {
  server: RawServer;
  client: Client;
  transport: StreamableHttpClientTransport;
  states: TransportState[];
}
const open: Setup[] = [];

async function setup(handler: RawHandler, options: StreamableHttpClientTransportOptions = {}, versions = ['2025-11-25'], connect = true): Promise<Setup> {
  const server = await startRawServer(handler);
  const transport = createStreamableHttpClientTransport(server.url, options);
  const states = recordStates(transport.state$);
  const client = newClient(versions);
  const s = { server, client, transport, states };
  open.push(s);
  if (connect) await client.connect(transport);
  return s;
}

/** The usual answers: initialize (session `sid()`), initialized → 202, GET → 405, DELETE → 200. Returns true when it answered. */
function basics(r: RawRequest, sid: () => string = () => 's1'): boolean {
  if (r.method === 'POST' && r.json?.method === 'initialize') {
    json(r.res, 200, initializeResult(r.json.id, r.json.params.protocolVersion), { 'mcp-session-id': sid() });
    return true;
  }
  if (r.method === 'POST' && r.json?.method === 'notifications/initialized') {
    r.res.writeHead(202).end();
    return true;
  }
  if (r.method === 'POST' && r.json?.method === 'notifications/cancelled') {
    r.res.writeHead(202).end();
    return true;
  }
  if (r.method === 'GET' && r.headers['last-event-id'] === undefined) {
    r.res.writeHead(405, { allow: 'POST' }).end();
    return true;
  }
  if (r.method === 'DELETE') {
    r.res.writeHead(200).end();
    return true;
  }
  return false;
}

const progress = (r: RawRequest, n: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: r.json.params._meta.progressToken, progress: n, total: 2 },
});

const resumes = (server: RawServer) => server.requests.filter((q) => q.method === 'GET' && q.headers['last-event-id'] !== undefined);

describe('http client: raw fixture servers', function () {
  afterEach(async () => {
    for (const s of open.splice(0)) {
      await s.client.close().catch(() => {});
      await s.server.close();
    }
  });

  describe('session expiry', () => {
    it('[HTTP-032] re-sends initialize without the session id on a 404, then initialized, then retries the request', async () => {
      let n = 0;
      const valid = new Set<string>();
      const s = await setup((r) => {
        const sid = r.headers['mcp-session-id'] as string | undefined;
        if (sid !== undefined && !valid.has(sid)) {
          json(r.res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
          return;
        }
        if (basics(r, () => {
          const id = `s${++n}`;
          valid.add(id);
          return id;
        })) return;
        json(r.res, 200, toolResult(r.json.id, `${sid}:${r.json.params.arguments.text}`));
      });
      const diagnostics: string[] = [];
      s.client.diagnostics$.subscribe((d) => diagnostics.push(d.kind));
      expect(firstText(await s.client.request('tools/call', call('echo', { text: 'a' })))).to.equal('s1:a');

      valid.delete('s1');
      const from = s.server.requests.length;
      expect(firstText(await s.client.request('tools/call', call('echo', { text: 'b' })))).to.equal('s2:b');

      const after = s.server.requests.slice(from).filter((r) => r.method === 'POST');
      expect(after.map((r) => [r.json.method, r.headers['mcp-session-id'] ?? null])).to.deep.equal([
        ['tools/call', 's1'],
        ['initialize', null],
        ['notifications/initialized', 's2'],
        ['tools/call', 's2'],
      ]);
      expect(after[1]!.headers['mcp-protocol-version']).to.equal(undefined);
      expect(after[1]!.json.id).to.not.equal(after[0]!.json.id);
      expect(after[1]!.json.params).to.deep.equal(s.server.requests[0]!.json.params);
      expect(after[3]!.json.id).to.equal(after[0]!.json.id);
      expect(after[3]!.headers['mcp-protocol-version']).to.equal('2025-11-25');
      expect(s.transport.sessionId).to.equal('s2');
      expect(s.states.find((st) => st.details?.event === 'session-reinitialized')!.details).to.deep.include({
        sessionId: 's2',
        previousSessionId: 's1',
      });
      // The answer to the transport's own initialize never reached the session.
      expect(diagnostics).to.not.include('unknown-response');
      expect(s.client.currentPhase).to.equal('operating');
    });

    it('without reinitializeOnExpiry a 404 fails the transport with a TransportError saying the session expired', async () => {
      let expired = false;
      const s = await setup(
        (r) => {
          if (expired && r.headers['mcp-session-id']) {
            r.res.writeHead(404).end();
            return;
          }
          if (basics(r)) return;
          json(r.res, 200, toolResult(r.json.id, 'ok'));
        },
        { reinitializeOnExpiry: false },
      );
      expired = true;
      const error = await rejectionOf(s.client.request('tools/call', call('echo')));
      const failed = s.states.at(-1)!;
      expect(failed.phase).to.equal('failed');
      expect(failed.error).to.be.instanceOf(TransportError);
      expect(failed.error!.message).to.include('expired').and.include('"s1"').and.include('reinitializeOnExpiry');
      expect(error.message).to.include('expired');
      expect(s.server.requests.filter((r) => r.json?.method === 'initialize')).to.have.length(1);
    });
  });

  describe('resuming request streams', () => {
    for (const how of ['closed', 'broken'] as const) {
    it(`[HTTP-025] [HTTP-017] resumes a request stream ${how} before its response, with GET Last-Event-ID after the retry value: no duplicates, in order`, async () => {
      const clock = new ManualClock();
      const s = await setup(
        (r) => {
          if (basics(r)) return;
          if (r.method === 'POST' && r.json?.method === 'tools/call') {
            sseStart(r.res);
            sseEvent(r.res, { id: 'e1', retry: 2000 }); // priming: an id, empty data
            // Cut before the response: a graceful end, or a connection torn down mid-stream.
            sseEvent(r.res, { id: 'e2', data: progress(r, 1) }, () => (how === 'closed' ? r.res.end() : r.res.destroy()));
            return;
          }
          if (r.method === 'GET' && r.headers['last-event-id'] === 'e2') {
            const call0 = s.server.requests.find((q) => q.json?.method === 'tools/call')!;
            sseStart(r.res);
            sseEvent(r.res, { id: 'e3', data: progress(call0, 2) });
            sseEvent(r.res, { id: 'e4', data: toolResult(call0.json.id, 'resumed') });
            r.res.end();
            return;
          }
          r.res.writeHead(400).end('unexpected');
        },
        { clock },
      );
      const seen: number[] = [];
      const reconnecting = nextDetails(s.transport.state$, 'reconnecting');
      const result = s.client.request('tools/call', call('long'), { onprogress: (p) => seen.push(p.progress) });
      const details = (await reconnecting).details!;
      expect(details).to.deep.include({ stream: 'request', delayMs: 2000, serverRetryMs: 2000, lastEventId: 'e2', attempt: 1 });
      expect(details.reason).to.satisfy((r: string) => (how === 'closed' ? r === 'ended' : r.startsWith('broke')));
      expect(seen).to.deep.equal([1]);
      clock.advance(1999);
      await new Promise((r) => setImmediate(r));
      expect(resumes(s.server)).to.have.length(0);
      clock.advance(1);
      expect(firstText(await result)).to.equal('resumed');
      expect(seen).to.deep.equal([1, 2]);
      expect(resumes(s.server).map((q) => [q.headers['last-event-id'], q.headers['mcp-session-id'], q.headers.accept])).to.deep.equal([
        ['e2', 's1', 'text/event-stream'],
      ]);
      expect(s.client.currentPhase).to.equal('operating');
    });
    }

    it('[HTTP-017] [HTTP-018] backs off with bounded jitter when resuming fails, gives up after maxAttempts, and leaves the request pending', async () => {
      const clock = new ManualClock();
      const samples = [0.2, 0.8, 0.5, 0.1];
      let draws = 0;
      const reconnect = { maxAttempts: 3, initialDelayMs: 1000, factor: 2, maxDelayMs: 3000, jitter: 0.5 };
      const s = await setup(
        (r) => {
          if (basics(r)) return;
          if (r.method === 'POST' && r.json?.method === 'tools/call') {
            sseStart(r.res);
            sseEvent(r.res, { id: 'p1' });
            r.res.end();
            return;
          }
          if (r.method === 'GET') {
            r.res.writeHead(503).end('busy');
            return;
          }
          r.res.writeHead(400).end();
        },
        { clock, reconnect, random: () => samples[draws++]! },
      );
      const controller = new AbortController();
      const result = s.client.request('tools/call', call('long'), { signal: controller.signal });
      const bases = [1000, 2000, 3000];
      for (let attempt = 1; attempt <= 3; attempt++) {
        const d = (await nextDetails(s.transport.state$, 'reconnecting', (x) => x.attempt === attempt)).details!;
        const base = bases[attempt - 1]!;
        expect(d.delayMs, `attempt ${attempt}`).to.equal(Math.round(base * (1 - 0.5 * samples[attempt - 1]!)));
        expect(d.delayMs).to.be.within(base * (1 - reconnect.jitter), base);
        expect(d.lastEventId).to.equal('p1');
        const gets = resumes(s.server).length;
        clock.advance((d.delayMs as number) - 1);
        await new Promise((r) => setImmediate(r));
        expect(resumes(s.server)).to.have.length(gets);
        clock.advance(1);
        await s.server.next((q) => q.method === 'GET' && q.headers['last-event-id'] === 'p1', gets);
      }
      const exhausted = (await nextDetails(s.transport.state$, 'reconnect-exhausted')).details!;
      expect(exhausted).to.deep.include({ stream: 'request', attempts: 3 });
      expect(exhausted.message).to.include('HTTP 503');
      expect(resumes(s.server)).to.have.length(3);
      expect(clock.pending).to.equal(0);
      // Still pending: only a cancel (or the timeout) settles it.
      expect(s.client.pendingRequests).to.equal(1);
      expect(s.states.at(-1)!.phase).to.equal('open');
      controller.abort('enough');
      expect(await rejectionOf(result)).to.be.instanceOf(RequestCancelledError);
      await s.server.next((q) => q.json?.method === 'notifications/cancelled');
    });

    it('[HTTP-017] a stream cut without an event id is not resumable: reported, the request stays pending', async () => {
      const s = await setup((r) => {
        if (basics(r)) return;
        if (r.method === 'POST' && r.json?.method === 'tools/call') {
          sseStart(r.res);
          r.res.end();
        }
      });
      const lost = nextDetails(s.transport.state$, 'stream-lost');
      const result = s.client.request('tools/call', call('x'), { timeout: 60_000 });
      result.catch(() => {});
      expect((await lost).details).to.deep.include({ stream: 'request', resumable: false });
      expect(s.client.pendingRequests).to.equal(1);
      expect(resumes(s.server)).to.have.length(0);
    });

    it('[HTTP-025] resumes the standalone GET stream with its Last-Event-ID after backoff, delivering notifications in order', async () => {
      const clock = new ManualClock();
      let gets = 0;
      const s = await setup(
        (r) => {
          if (r.method === 'GET') {
            gets++;
            sseStart(r.res);
            if (gets === 1) {
              sseEvent(r.res, { id: 'g1', data: { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } });
              r.res.end();
            } else {
              sseEvent(r.res, { id: 'g2', data: { jsonrpc: '2.0', method: 'notifications/resources/list_changed' } });
            }
            return;
          }
          basics(r);
        },
        { clock, reconnect: { initialDelayMs: 500, jitter: 0 } },
      );
      const got: string[] = [];
      s.client.onNotification('notifications/tools/list_changed', () => void got.push('tools'));
      s.client.onNotification('notifications/resources/list_changed', () => void got.push('resources'));
      const d = (await nextDetails(s.transport.state$, 'reconnecting', (x) => x.stream === 'standalone')).details!;
      expect(d).to.deep.include({ delayMs: 500, lastEventId: 'g1' });
      clock.advance(500);
      const resume = await s.server.next((q) => q.method === 'GET' && q.headers['last-event-id'] !== undefined);
      expect(resume.headers['last-event-id']).to.equal('g1');
      await until(() => got.length === 2, 'two notifications');
      expect(got).to.deep.equal(['tools', 'resources']);
    });
  });

  describe('standalone stream and close', () => {
    it('[HTTP-020] [HTTP-033] tolerates 405 on the standalone GET silently and never retries it; DELETE 405 is fine too', async () => {
      const s = await setup((r) => {
        if (r.method === 'DELETE') {
          r.res.writeHead(405).end();
          return;
        }
        if (basics(r)) return;
        json(r.res, 200, toolResult(r.json.id, 'fine'));
      });
      await s.server.next((r) => r.method === 'GET');
      expect(firstText(await s.client.request('tools/call', call('x')))).to.equal('fine');
      expect(s.server.requests.filter((r) => r.method === 'GET')).to.have.length(1);
      expect(s.states.filter((st) => st.phase !== 'open' || (st.details?.event !== undefined))).to.deep.equal([{ phase: 'connecting' }]);
      await s.client.close();
      expect(s.states.at(-1)).to.deep.include({ phase: 'closed' });
      expect(s.states.at(-1)!.details).to.deep.include({ deleteSession: 'not-allowed' });
      const del = s.server.requests.find((r) => r.method === 'DELETE')!;
      expect(del.headers['mcp-session-id']).to.equal('s1');
    });
  });

  describe('headers and errors', () => {
    it('adds custom headers (static or per request) but keeps its own Accept, Content-Type and session headers', async () => {
      const s = await setup(
        (r) => {
          if (basics(r)) return;
          json(r.res, 200, toolResult(r.json.id, 'ok'));
        },
        {
          headers: ({ method }) => ({ authorization: 'Bearer t0k3n', 'x-method': method, accept: 'text/plain', 'mcp-session-id': 'forged' }),
        },
      );
      await s.client.request('tools/call', call('x'));
      await s.client.close();
      for (const r of s.server.requests) {
        expect(r.headers.authorization).to.equal('Bearer t0k3n');
        expect(r.headers['x-method']).to.equal(r.method);
        if (r.json?.method !== 'initialize') expect(r.headers['mcp-session-id']).to.equal('s1');
        if (r.method === 'POST') expect(r.headers.accept).to.equal('application/json, text/event-stream');
      }
    });

    it('fails a request at once when the headers function throws (e.g. a token refresh failed)', async () => {
      let broken = false;
      const s = await setup(
        (r) => {
          if (basics(r)) return;
          json(r.res, 200, toolResult(r.json.id, 'ok'));
        },
        {
          headers: () => {
            if (broken) throw new Error('token refresh failed');
            return {};
          },
        },
      );
      broken = true;
      const error = await rejectionOf(s.client.request('tools/call', call('x')));
      expect(error.message).to.include('token refresh failed').and.include('"tools/call"');
      expect(s.server.requests.filter((r) => r.json?.method === 'tools/call')).to.have.length(0);
    });

    it('fails a request with the HTTP status, a body snippet and the request named', async () => {
      const s = await setup((r) => {
        if (basics(r)) return;
        r.res.writeHead(500, { 'content-type': 'text/plain' }).end('database exploded');
      });
      const error = await rejectionOf(s.client.request('tools/call', call('x')));
      expect(error).to.be.instanceOf(McpError);
      expect(error.message).to.include('HTTP 500').and.include('database exploded').and.include('"tools/call"').and.include('retry later');
      expect(s.client.currentPhase).to.equal('operating');
    });

    it('uses the JSON-RPC error message of an error body', async () => {
      const s = await setup((r) => {
        if (basics(r)) return;
        json(r.res, 400, { jsonrpc: '2.0', error: { code: -32600, message: 'Bad Request: Unsupported protocol version' }, id: null });
      });
      const error = await rejectionOf(s.client.request('tools/call', call('x')));
      expect(error.message).to.include('HTTP 400').and.include('Unsupported protocol version');
    });

    it('says the server is not running when nothing listens', async () => {
      const server = await startRawServer(() => {});
      const url = server.url;
      await server.close();
      const transport = createStreamableHttpClientTransport(url);
      const client = newClient();
      const error = await rejectionOf(client.connect(transport));
      expect(error.message).to.include('"initialize"').and.include('Is the server running?');
      await client.close().catch(() => {});
    });
  });

  describe('legacy fallback', () => {
    it('rejects an endpoint event on another origin', async () => {
      const s = await setup(
        (r) => {
          if (r.method === 'POST') {
            r.res.writeHead(405).end();
            return;
          }
          sseStart(r.res);
          // Same port, other host name: another origin.
          sseEvent(r.res, { event: 'endpoint', data: `http://localhost:${new URL(s.server.origin).port}/messages` });
        },
        {},
        ['2024-11-05'],
        false,
      );
      const error = await rejectionOf(s.client.connect(s.transport));
      expect(error.message).to.include('another origin');
      const failed = s.states.at(-1)!;
      expect(failed.phase).to.equal('failed');
      expect(failed.error!.message).to.include('POST initialize (Streamable HTTP) got HTTP 405').and.include('another origin');
      expect(s.server.requests.filter((r) => r.path.startsWith('/messages'))).to.have.length(0);
    });

    it('does not fall back with fallbackToSse: false', async () => {
      const s = await setup(
        (r) => {
          r.res.writeHead(405).end();
        },
        { fallbackToSse: false },
        undefined,
        false,
      );
      const error = await rejectionOf(s.client.connect(s.transport));
      expect(error.message).to.include('HTTP 405').and.include('"initialize"');
      expect(s.server.requests.filter((r) => r.method === 'GET')).to.have.length(0);
    });
  });
});
