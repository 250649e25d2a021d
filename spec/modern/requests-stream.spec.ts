// Server.requests$: one record per request as it ends, in both eras and on every transport,
// with its era, caller, input round and asks, outcome and duration on the server's clock.
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { ManualClock } from '../../lib/clock.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import type { RequestRecord } from '../../lib/session/server-request.js';
import { createStdioServerTransport } from '../../streams/stdio-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { createMcpFetchHandler } from '../../lib/server-bindings/fetch-handler.js';
import { callTool, openSession, post, until } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const meta = (caps: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientCapabilities': caps,
  'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' },
});
function modern(id: number, name: string, params: Record<string, unknown> = {}, caps: Record<string, unknown> = {}) {
  return {
    body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, ...params, _meta: meta(caps) } },
    headers: { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': name },
  };
}

/** A server with a tool that asks a name, one that fails, and one that waits for `release`. */
function fixture(clock: ManualClock) {
  const mcp = createMcpServer({ info: { name: 'requests', version: '1' }, clock });
  const releases = new Map<unknown, () => void>();
  let waiting = 0;
  mcp.registerTool('ask', { description: 'asks a name' }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { inputKey: 'who' });
    return `hi ${String(r.content?.name ?? r.action)}`;
  });
  mcp.registerTool('wait', { description: 'waits' }, (_a, ctx) => new Promise<string>((resolve, reject) => {
    waiting++;
    releases.set(ctx.requestId, () => resolve('done'));
    ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
  }));
  mcp.server.onRequest('x/fail', () => {
    throw new Error('no luck');
  });
  const records: RequestRecord[] = [];
  mcp.requests$.subscribe((r) => records.push(r));
  return { mcp, records, release: (id: unknown) => releases.get(id)?.(), waiting: () => waiting, running: (id: unknown) => releases.has(id) };
}

/** A stdio server on in-process pipes: lines written to it, lines read from it. */
async function stdio(mcp: McpServer) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: Record<string, any>[] = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffer.slice(0, nl)) as Record<string, any>);
      buffer = buffer.slice(nl + 1);
    }
  });
  await mcp.connect(createStdioServerTransport({ stdin, stdout }));
  const send = (frame: unknown) => stdin.write(`${JSON.stringify(frame)}\n`);
  return { send, lines, end: () => stdin.end() };
}

describe('Server.requests$ (both eras, every transport)', () => {
  let http: Listening | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });

  it('HTTP, 2026-07-28: the input round, its retry, and an error, each one record with the principal, round and outcome', async () => {
    const clock = new ManualClock(1000);
    const { mcp, records } = fixture(clock);
    http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    const first = modern(1, 'ask', {}, { elicitation: {} });
    const r1 = (await post(http.url, first.body, first.headers)).json.result;
    expect(r1.resultType).to.equal('input_required');
    const retry = modern(2, 'ask', { inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: r1.requestState }, { elicitation: {} });
    expect((await post(http.url, retry.body, retry.headers)).json.result.content[0].text).to.equal('hi Ada');
    const fail = { jsonrpc: '2.0', id: 3, method: 'x/fail', params: { _meta: meta() } };
    expect((await post(http.url, fail, { 'mcp-protocol-version': V, 'mcp-method': 'x/fail' })).json.error.code).to.equal(-32603);
    await until(() => records.length === 3, 'three records');
    expect(records.map((r) => [r.id, r.method, r.name, r.era, r.caller, r.round, r.inputRequests, r.outcome])).to.deep.equal([
      [1, 'tools/call', 'ask', 'modern', 'anonymous', 0, 1, 'inputRequired'],
      [2, 'tools/call', 'ask', 'modern', 'anonymous', 1, 0, 'answered'],
      [3, 'x/fail', undefined, 'modern', 'anonymous', 0, 0, 'failed'],
    ]);
    expect(records[2]!.error).to.deep.equal({ code: -32603, message: 'no luck' });
    expect(records.every((r) => r.startedAt === 1000 && r.durationMs === 0)).to.equal(true);
    expect(mcp.server.sessions.size).to.equal(0);
  });

  it('HTTP, 2026-07-28: a handler that throws leaves its diagnostic on its record (the thrown error itself, as a session notes it on diagnostics$)', async () => {
    const { mcp, records } = fixture(new ManualClock(0));
    http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    const fail = { jsonrpc: '2.0', id: 7, method: 'x/fail', params: { _meta: meta() } };
    expect((await post(http.url, fail, { 'mcp-protocol-version': V, 'mcp-method': 'x/fail' })).json.error).to.deep.equal({ code: -32603, message: 'no luck' });
    const ok = modern(8, 'ask', { inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } } }, { elicitation: {} });
    await post(http.url, ok.body, ok.headers);
    await until(() => records.length === 2, 'two records');
    const [failed, answered] = records;
    expect(failed!.diagnostics?.map((d) => [d.kind, d.message])).to.deep.equal([['handler-error', 'The "x/fail" handler threw: no luck']]);
    const thrown = failed!.diagnostics![0]!.detail as Error;
    expect(thrown).to.be.instanceOf(Error);
    expect(thrown.stack).to.include('requests-stream.spec');
    expect(answered!.outcome).to.equal('answered');
    expect(answered).to.not.have.property('diagnostics');
  });

  it('fetch handler, 2026-07-28: the authenticated principal is the caller; a client that leaves cancels its request', async () => {
    const clock = new ManualClock(0);
    const { mcp, records, running } = fixture(clock);
    const handler = createMcpFetchHandler(mcp, { authenticate: () => ({ ok: true, authInfo: { sub: 'ada' } }) });
    const request = (id: number, name: string, signal?: AbortSignal) => {
      const { body, headers } = modern(id, name);
      return new Request('http://127.0.0.1:8080/mcp', {
        method: 'POST',
        headers: { ...headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json', host: '127.0.0.1:8080' },
        body: JSON.stringify(body),
        ...(signal && { signal }),
      });
    };
    const fail = { jsonrpc: '2.0', id: 1, method: 'x/fail', params: { _meta: meta() } };
    await handler(new Request('http://127.0.0.1:8080/mcp', { method: 'POST', headers: { 'mcp-protocol-version': V, 'mcp-method': 'x/fail', accept: 'application/json, text/event-stream', 'content-type': 'application/json', host: '127.0.0.1:8080' }, body: JSON.stringify(fail) }));
    const leaving = new AbortController();
    const pending = handler(request(2, 'wait', leaving.signal));
    await until(() => running(2), 'the call running');
    clock.advance(70);
    leaving.abort();
    await until(() => records.length === 2, 'two records');
    void pending.catch(() => {});
    expect(records.map((r) => [r.id, r.method, r.era, r.caller, r.outcome, r.durationMs])).to.deep.equal([
      [1, 'x/fail', 'modern', 'sub:ada', 'failed', 0],
      [2, 'tools/call', 'modern', 'sub:ada', 'cancelled', 70],
    ]);
  });

  it('HTTP, a legacy session: its requests with the session as caller, a cancelled one and an error', async () => {
    const clock = new ManualClock(0);
    const { mcp, records, waiting: started } = fixture(clock);
    http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    const sid = await openSession(http.url);
    const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const waiting = post(http.url, callTool(5, 'wait'), headers);
    await until(() => started() === 1, 'the call running');
    clock.advance(40);
    await post(http.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'changed my mind' } }, headers);
    await until(() => records.length === 2, 'the cancel recorded');
    expect((await post(http.url, { jsonrpc: '2.0', id: 6, method: 'x/fail' }, headers)).json.error.message).to.equal('no luck');
    await until(() => records.length === 3, 'the error recorded');
    expect(records.map((r) => [r.id, r.method, r.name, r.era, r.caller, r.outcome])).to.deep.equal([
      [0, 'initialize', undefined, 'legacy', 'session-1', 'answered'],
      [5, 'tools/call', 'wait', 'legacy', 'session-1', 'cancelled'],
      [6, 'x/fail', undefined, 'legacy', 'session-1', 'failed'],
    ]);
    expect(records[1]!.durationMs).to.equal(40);
    void waiting.catch(() => {});
    await mcp.close();
  });

  it('stdio: a legacy elicitation (one ask to the client), a cancelled call, an error, and a 2026-07-28 request on the same pipe', async () => {
    const clock = new ManualClock(0);
    const { mcp, records, release, running } = fixture(clock);
    const { send, lines, end } = await stdio(mcp);
    send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } });
    await until(() => lines.length === 1, 'initialize answered');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    await until(() => lines.some((l) => l.method === 'elicitation/create'), 'the server asks');
    clock.advance(250);
    const ask = lines.find((l) => l.method === 'elicitation/create')!;
    send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Bo' } } });
    await until(() => lines.some((l) => l.id === 1), 'the call answered');
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait', arguments: {} } });
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    send({ jsonrpc: '2.0', id: 3, method: 'x/fail' });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: meta() } });
    await until(() => records.length === 4 && running(4), 'four records, the modern call running');
    release(4);
    await until(() => records.length === 5, 'the modern call recorded');
    expect(records.map((r) => [r.id, r.method, r.era, r.caller, r.inputRequests, r.outcome])).to.deep.equal([
      [0, 'initialize', 'legacy', 'session-1', 0, 'answered'],
      [1, 'tools/call', 'legacy', 'session-1', 1, 'answered'],
      [2, 'tools/call', 'legacy', 'session-1', 0, 'cancelled'],
      [3, 'x/fail', 'legacy', 'session-1', 0, 'failed'],
      // The 2026-07-28 request is the server's, whatever pipe it came on.
      [4, 'tools/call', 'modern', 'anonymous', 0, 'answered'],
    ]);
    expect(records[1]!.durationMs).to.equal(250);
    end();
    await mcp.close();
  });
});
