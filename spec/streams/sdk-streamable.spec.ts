// OUR Client over OUR Streamable HTTP client transport, against the OFFICIAL SDK's
// StreamableHTTPServerTransport (low-level Server, node:http, 127.0.0.1).
import { expect } from 'chai';
import type { Client, Progress } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { allows, type Revision } from '../../lib/protocol/revisions.js';
import { createStreamableHttpClientTransport, type StreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import type { TransportState } from '../../streams/transport.js';
import { startSdkStreamableServer, type SdkStreamableOptions, type SdkStreamableServer } from '../fixtures/http-client/sdk-servers.js';
import { capturingFetch, firstText, newClient, nextDetails, posts, recordStates, until, type Sent } from './http-client-helpers.js';

const REVISIONS: Revision[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

interface Setup {
  server: SdkStreamableServer;
  client: Client;
  transport: StreamableHttpClientTransport;
  sent: Sent[];
  states: TransportState[];
}

const open: Setup[] = [];

async function setup(
  serverOptions: SdkStreamableOptions,
  versions?: string[],
  transportOptions: Parameters<typeof createStreamableHttpClientTransport>[1] = {},
): Promise<Setup> {
  const server = await startSdkStreamableServer(serverOptions);
  const { fetch, sent } = capturingFetch();
  const transport = createStreamableHttpClientTransport(server.url, { fetch, ...transportOptions });
  const states = recordStates(transport.state$);
  const client = newClient(versions);
  const s = { server, client, transport, sent, states };
  open.push(s);
  await client.connect(transport);
  return s;
}

/** The standalone GET stream is up (the SDK server drops standalone messages until it is). */
const standaloneOpen = (s: Setup) => until(() => s.sent.some((r) => r.method === 'GET' && r.status === 200), 'the standalone GET stream');

describe('http client: our client → SDK Streamable HTTP server', function () {
  afterEach(async () => {
    for (const s of open.splice(0)) {
      await s.client.close().catch(() => {});
      await s.server.close();
    }
  });

  for (const rev of REVISIONS) {
    for (const json of [false, true]) {
      const mode = json ? 'JSON responses' : 'SSE responses';
      it(`[HTTP-005] [HTTP-006] [HTTP-007] [HTTP-008] [HTTP-012] [HTTP-029] [HTTP-033] [HTTP-034] [HTTP-035] initializes at ${rev}, calls a tool (${mode}), sends the session id and protocol header, DELETEs on close`, async () => {
        const s = await setup({ json }, [rev]);
        expect(s.client.protocolVersion).to.equal(rev);
        expect(s.transport.mode).to.equal('streamable');
        expect(s.client.serverInfo).to.deep.include({ name: 'sdk-http-server' });
        const sessionId = s.transport.sessionId!;
        expect(sessionId).to.match(/^[\x21-\x7e]+$/);
        expect(s.server.sessions.has(sessionId)).to.equal(true);

        expect(firstText(await s.client.request('tools/call', call('echo', { text: `hi ${rev}` })))).to.equal(`hi ${rev}`);

        for (const post of s.sent.filter((r) => r.method === 'POST')) {
          expect(post.headers.get('accept')).to.include('application/json').and.include('text/event-stream');
          expect(post.headers.get('content-type')).to.equal('application/json');
          expect(post.json).to.be.an('object').and.not.be.an('array');
        }
        const [init] = posts(s.sent, 'initialize');
        expect(init!.headers.has('mcp-session-id'), 'initialize carries no session id').to.equal(false);
        expect(init!.headers.has('mcp-protocol-version'), 'initialize carries no protocol header').to.equal(false);
        const later = s.sent.filter((r) => r !== init);
        expect(later.length).to.be.greaterThan(1);
        for (const r of later) {
          expect(r.headers.get('mcp-session-id'), `${r.method} ${r.json?.method ?? ''}`).to.equal(sessionId);
          expect(r.headers.get('mcp-protocol-version') ?? undefined).to.equal(allows(rev, 'protocolVersionHeader') ? rev : undefined);
        }
        expect(posts(s.sent, 'notifications/initialized')[0]!.status).to.equal(202);

        await s.client.close();
        const del = s.sent.find((r) => r.method === 'DELETE');
        expect(del, 'DELETE sent').to.not.equal(undefined);
        expect(del!.headers.get('mcp-session-id')).to.equal(sessionId);
        expect(del!.status).to.equal(200);
        expect(s.server.deleted).to.deep.equal([sessionId]);
        expect(s.states.at(-1)).to.deep.include({ phase: 'closed' });
        expect(s.states.at(-1)!.details).to.deep.include({ deleteSession: 'deleted' });
      });
    }
  }

  it('[HTTP-012] receives progress on the request stream before the result', async () => {
    const s = await setup({});
    const seen: Progress[] = [];
    const result = await s.client.request('tools/call', call('progress'), { onprogress: (p) => seen.push(p) });
    expect(firstText(result)).to.equal('done');
    expect(seen.map((p) => p.progress)).to.deep.equal([1, 2, 3]);
    expect(seen[2]).to.deep.include({ total: 3, message: 'step 3' });
  });

  it('[HTTP-019] opens the standalone GET stream after initialization and receives a notification on it', async () => {
    const s = await setup({});
    await standaloneOpen(s);
    const get = s.sent.find((r) => r.method === 'GET')!;
    expect(get.headers.get('accept')).to.include('text/event-stream');
    expect(get.headers.get('mcp-session-id')).to.equal(s.transport.sessionId);
    // The GET went out only after notifications/initialized was accepted.
    expect(s.sent.indexOf(get)).to.be.greaterThan(s.sent.indexOf(posts(s.sent, 'notifications/initialized')[0]!));
    const changed = new Promise<void>((resolve) => s.client.onNotification('notifications/tools/list_changed', () => resolve()));
    expect(firstText(await s.client.request('tools/call', call('notify')))).to.equal('notified');
    await changed;
  });

  it('works over the global fetch as well (fetch option)', async () => {
    const server = await startSdkStreamableServer({});
    const transport = createStreamableHttpClientTransport(server.url, { fetch: globalThis.fetch });
    const client = newClient();
    open.push({ server, client, transport, sent: [], states: [] });
    await client.connect(transport);
    const seen: number[] = [];
    expect(firstText(await client.request('tools/call', call('progress'), { onprogress: (p) => seen.push(p.progress) }))).to.equal('done');
    expect(seen).to.deep.equal([1, 2, 3]);
    await client.close();
    expect(server.deleted).to.have.length(1);
  });

  it('does not open a standalone stream with openStandaloneStream: false', async () => {
    const s = await setup({}, undefined, { openStandaloneStream: false });
    await s.client.request('tools/call', call('echo', { text: 'x' }));
    expect(s.sent.filter((r) => r.method === 'GET')).to.have.length(0);
  });

  it('[HTTP-025] [HTTP-017] resumes a request stream the server closed (SEP-1699 polling) after its retry, with Last-Event-ID', async () => {
    const clock = new ManualClock();
    const s = await setup({ eventStore: true, retryInterval: 3000 }, ['2025-11-25'], { clock });
    const seen: number[] = [];
    const reconnecting = nextDetails(s.transport.state$, 'reconnecting', (d) => d.stream === 'request');
    const result = s.client.request('tools/call', call('poll'), { onprogress: (p) => seen.push(p.progress) });
    await s.server.pollClosed();
    const waiting = (await reconnecting).details!;
    expect(waiting).to.deep.include({ delayMs: 3000, serverRetryMs: 3000, attempt: 1 });
    s.server.releasePoll();
    const getsBefore = s.sent.filter((r) => r.method === 'GET' && r.headers.has('last-event-id')).length;
    clock.advance(2999);
    await new Promise((r) => setImmediate(r));
    expect(s.sent.filter((r) => r.method === 'GET' && r.headers.has('last-event-id'))).to.have.length(getsBefore);
    clock.advance(1);
    expect(firstText(await result)).to.equal('polled');
    expect(seen).to.deep.equal([1, 2]);
    const resume = s.sent.find((r) => r.method === 'GET' && r.headers.has('last-event-id'))!;
    expect(resume.headers.get('last-event-id')).to.be.a('string').and.not.equal('');
    expect(resume.headers.get('mcp-session-id')).to.equal(s.transport.sessionId);
  });

  it('[HTTP-032] re-initializes when the server ends the session, and the call goes through', async () => {
    const s = await setup({});
    const first = s.transport.sessionId!;
    await s.server.expire(first);
    const renewed = nextDetails(s.transport.state$, 'session-reinitialized');
    expect(firstText(await s.client.request('tools/call', call('echo', { text: 'again' })))).to.equal('again');
    const details = (await renewed).details!;
    expect(details.previousSessionId).to.equal(first);
    expect(details.sessionId).to.equal(s.transport.sessionId).and.not.equal(first);
    expect(s.server.sessions.has(s.transport.sessionId!)).to.equal(true);
    expect(s.client.currentPhase).to.equal('operating');
  });
});
