// Revision 2026-07-28 over Streamable HTTP: stateless requests beside legacy sessions on one
// endpoint, from the same createMcpServer registrations.
import { expect } from 'chai';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer, type McpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { InMemoryReplayGuard } from '../../lib/modern/request-state.js';
import { ManualClock } from '../../lib/clock.js';
import { initializeRequest, post, postStream, raw, until } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const meta = (extra: Record<string, unknown> = {}, caps: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': V,
  [CAPS]: caps,
  'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' },
  ...extra,
});
const nameOf: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
/** A modern request with the headers a modern client sends. */
function modern(id: number, method: string, params: Record<string, unknown> = {}, caps: Record<string, unknown> = {}, metaExtra: Record<string, unknown> = {}) {
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(metaExtra, caps) } };
  const headers: Record<string, string> = { 'mcp-protocol-version': V, 'mcp-method': method };
  const key = nameOf[method];
  if (key) headers['mcp-name'] = String(params[key]);
  return { body, headers };
}

describe('2026-07-28 over Streamable HTTP (dual-era endpoint)', () => {
  let mcp: McpServer;
  let http: Listening;
  const seen: { trace?: unknown }[] = [];

  beforeEach(async () => {
    // No debounce: the fixture's own registrations are announced before any listen stream opens.
    mcp = createMcpServer({ info: { name: 'dual', version: '1.0.0' }, instructions: 'Both eras.', extensions: { 'io.example/ext': {} }, listChangedDebounceMs: 0 });
    mcp.registerTool('echo', { description: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args, ctx) => {
      seen.push({ trace: ctx.trace });
      return `echo:${String(args.text)}`;
    });
    mcp.registerTool('logs', { description: 'logs' }, (_a, ctx) => {
      ctx.log.debug('debug line');
      ctx.log.warning('warning line');
      return 'logged';
    });
    mcp.registerTool('ask', { description: 'asks a name' }, async (_a, ctx) => {
      const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { inputKey: 'who' });
      return `hi ${String(r.content?.name ?? r.action)}`;
    });
    mcp.registerTool('needs_sampling', { description: 'samples' }, async (_a, ctx) => {
      const r = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 5 });
      return JSON.stringify(r.content);
    });
    mcp.registerTool('three', { description: 'asks three at once' }, async (_a, ctx) => {
      const [a, b, c] = await Promise.all([
        ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }),
        ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 5 }),
        ctx.listRoots(),
      ]);
      return `${a.action}/${JSON.stringify(b.content)}/${c.roots.length}`;
    });
    mcp.registerTool('routed', { description: 'x-mcp-header', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } as { type: 'string' } } } }, (a) => `region ${String(a.region)}`);
    mcp.server.onRequest('io.example/ext/ping', () => ({ pong: true }));
    mcp.registerResource('readme', 'test://readme', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: 'read me' }] }));
    mcp.registerResourceTemplate('item', 'test://item/{id}', {}, (uri) => ({ contents: [{ uri, text: 'item' }] }));
    mcp.registerPrompt('greet', { description: 'greets' }, () => [{ role: 'user', content: { type: 'text', text: 'hello' } }]);
    http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    seen.length = 0;
  });
  afterEach(async () => {
    await http.close();
  });

  it('[DISC-001] [LIFE-109] [DISC-003] [BASE-106] answers server/discover with versions, capabilities (extensions included), instructions and server info', async () => {
    const { body, headers } = modern(1, 'server/discover');
    const res = await post(http.url, body, headers);
    expect(res.status).to.equal(200);
    const r = res.json.result;
    expect(r.supportedVersions).to.deep.equal([V]);
    expect(r.capabilities.tools).to.be.an('object');
    expect(r.capabilities.extensions).to.deep.equal({ 'io.example/ext': {} });
    expect(r.instructions).to.equal('Both eras.');
    expect(r.resultType).to.equal('complete');
    expect(r.ttlMs).to.be.a('number');
    expect(r.cacheScope).to.be.oneOf(['public', 'private']);
    expect(r._meta['io.modelcontextprotocol/serverInfo']).to.deep.equal({ name: 'dual', version: '1.0.0' });
    expect(res.headers['mcp-session-id']).to.equal(undefined);
  });

  it('[BASE-064] [BASE-079] serves a tool call without a session: resultType complete, serverInfo, trace context handed to the handler', async () => {
    const trace = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'a=b', baggage: 'k=v' };
    const { body, headers } = modern(2, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, {}, trace);
    const res = await post(http.url, body, headers);
    expect(res.status).to.equal(200);
    expect(res.json.result.content[0].text).to.equal('echo:x');
    expect(res.json.result.resultType).to.equal('complete');
    expect(res.json.result._meta['io.modelcontextprotocol/serverInfo'].name).to.equal('dual');
    expect(seen[0]!.trace).to.deep.equal(trace);
    expect(mcp.server.sessions.size).to.equal(0);
  });

  it('[BASE-109] a trace value that breaks its W3C format is not handed on as trace context; the request is still served', async () => {
    const trace = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331', tracestate: 'a=b', baggage: 'not a header' };
    const { body, headers } = modern(3, 'tools/call', { name: 'echo', arguments: { text: 'y' } }, {}, trace);
    const res = await post(http.url, body, headers);
    expect(res.json.result.content[0].text).to.equal('echo:y');
    expect(seen[0]!.trace).to.deep.equal({ tracestate: 'a=b' });
  });

  it('[BASE-100] [BASE-101] [BASE-102] [LIFE-107] [HTTP-132] refuses a malformed envelope with -32602 / 400, an unsupported version with -32022 / 400 naming both', async () => {
    const noCaps = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': V } } };
    let res = await post(http.url, noCaps, { 'mcp-protocol-version': V, 'mcp-method': 'tools/list' });
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32602]);
    // A modern header with no _meta at all: a malformed modern request, not a legacy one.
    res = await post(http.url, { jsonrpc: '2.0', id: 4, method: 'server/discover', params: {} }, { 'mcp-protocol-version': V, 'mcp-method': 'server/discover' });
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32602]);
    const odd = { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': 'v999' } } };
    res = await post(http.url, odd, { 'mcp-protocol-version': 'v999', 'mcp-method': 'tools/list' });
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32022]);
    expect(res.json.error.data).to.deep.equal({ supported: [V], requested: 'v999' });
    expect(res.json.id).to.equal(5);
  });

  it('[HTTP-129] [HTTP-130] [HTTP-131] [HTTP-155] [HTTP-166] [HTTP-177] [HTTP-154] [HTTP-175] checks the headers against the body with -32020 (the version mismatch before the version itself)', async () => {
    const odd = { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': 'v999' } } };
    let res = await post(http.url, odd, { 'mcp-protocol-version': V, 'mcp-method': 'tools/list' });
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32020]);
    const call = modern(7, 'tools/call', { name: 'echo', arguments: {} });
    res = await post(http.url, call.body, { ...call.headers, 'mcp-method': 'tools/list' });
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32020]);
    res = await post(http.url, call.body, { ...call.headers, 'mcp-name': 'other' });
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32020]);
    const { 'mcp-name': _n, ...noName } = call.headers;
    res = await post(http.url, call.body, noName);
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32020]);
    // Values are decoded before comparing; whitespace around them is not part of the value.
    res = await post(http.url, call.body, { ...call.headers, 'mcp-name': `=?base64?${Buffer.from('echo').toString('base64')}?=` });
    expect(res.status).to.equal(200);
  });

  it('[HTTP-164] [HTTP-165] [HTTP-168] [HTTP-173] [HTTP-178] [HTTP-175] checks x-mcp-header parameters: present, equal, decoded; a missing header for a present argument is refused', async () => {
    const call = modern(8, 'tools/call', { name: 'routed', arguments: { region: 'eu-west' } });
    let res = await post(http.url, call.body, { ...call.headers, 'mcp-param-region': 'eu-west' });
    expect(res.status).to.equal(200);
    res = await post(http.url, call.body, { ...call.headers, 'mcp-param-region': 'us-east' });
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32020]);
    res = await post(http.url, call.body, call.headers);
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32020]);
    res = await post(http.url, call.body, { ...call.headers, 'mcp-param-region': `=?base64?${Buffer.from('eu-west').toString('base64')}?=` });
    expect(res.status).to.equal(200);
  });

  it('[HTTP-133] [LIFE-111] answers methods 2026-07-28 removed (with a modern claim) 404 / -32601, and serves registered extension methods', async () => {
    for (const m of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'unknown/method']) {
      const { body, headers } = modern(9, m);
      const res = await post(http.url, body, headers);
      expect([res.status, res.json.error.code], m).to.deep.equal([404, -32601]);
    }
    const { body, headers } = modern(10, 'io.example/ext/ping');
    const res = await post(http.url, body, headers);
    expect(res.json.result.pong).to.equal(true);
    expect(res.json.result.resultType).to.equal('complete');
  });

  it('[LOG-031] [LOG-032] sends log messages only to a request that set a level, at or above it, on its own stream', async () => {
    const quiet = modern(11, 'tools/call', { name: 'logs' });
    const s1 = await postStream(http.url, quiet.body, quiet.headers);
    await s1.done;
    expect(s1.messages.filter((m) => m.method === 'notifications/message')).to.have.length(0);
    const loud = modern(12, 'tools/call', { name: 'logs' }, {}, { 'io.modelcontextprotocol/logLevel': 'info' });
    const s2 = await postStream(http.url, loud.body, loud.headers);
    await s2.done;
    const logs = s2.messages.filter((m) => m.method === 'notifications/message');
    expect(logs.map((m) => m.params.level)).to.deep.equal(['warning']);
    expect(s2.messages.at(-1).id).to.equal(12);
  });

  it('[BASE-104] [BASE-105] [MRTR-013] [MRTR-014] raises -32021 (HTTP 400) naming the capability a handler needs and the request did not declare', async () => {
    const { body, headers } = modern(13, 'tools/call', { name: 'needs_sampling' }, {});
    const res = await post(http.url, body, headers);
    expect([res.status, res.json.error.code]).to.deep.equal([400, -32021]);
    expect(res.json.error.data.requiredCapabilities).to.deep.equal({ sampling: {} });
  });

  it('[MRTR-001] [MRTR-004] [MRTR-012] [MRTR-015] runs an elicitation as an input-required round and resumes on the retry, keeping nothing between rounds', async () => {
    const first = modern(14, 'tools/call', { name: 'ask' }, { elicitation: {} });
    const r1 = (await post(http.url, first.body, first.headers)).json.result;
    expect(r1.resultType).to.equal('input_required');
    expect(r1.inputRequests.who.method).to.equal('elicitation/create');
    expect(r1.requestState).to.be.a('string');
    expect(r1.ttlMs).to.equal(undefined);
    const retry = modern(15, 'tools/call', { name: 'ask', inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: r1.requestState }, { elicitation: {} });
    const r2 = (await post(http.url, retry.body, retry.headers)).json.result;
    expect(r2.resultType).to.equal('complete');
    expect(r2.content[0].text).to.equal('hi Ada');
    expect(mcp.server.sessions.size).to.equal(0);
  });

  it('[MRTR-004] never answers input_required outside tools/call, prompts/get and resources/read', async () => {
    mcp.server.onRequest('io.example/ext/asks', (_p, ctx) => ctx.sendRequest('elicitation/create', { message: 'x', requestedSchema: { type: 'object', properties: {} } }));
    const { body, headers } = modern(70, 'io.example/ext/asks', {}, { elicitation: {} });
    const res = await post(http.url, body, headers);
    expect(res.json.result).to.equal(undefined);
    expect(res.json.error.code).to.equal(-32603);
  });

  it('[BASE-075] asks a URL-mode elicitation as an input round (never -32042), without elicitationId (2026-07-28 removed it)', async () => {
    mcp.registerTool('link', { description: 'url elicitation' }, async (_a, ctx) => {
      const r = await ctx.elicit({ mode: 'url', message: 'Sign in', url: 'https://example.com/login' }, { inputKey: 'login' });
      return `login ${r.action}`;
    });
    const first = modern(71, 'tools/call', { name: 'link' }, { elicitation: { url: {} } });
    const r1 = (await post(http.url, first.body, first.headers)).json.result;
    expect(r1.inputRequests.login.params).to.deep.equal({ mode: 'url', message: 'Sign in', url: 'https://example.com/login' });
    const retry = modern(72, 'tools/call', { name: 'link', inputResponses: { login: { action: 'accept' } }, requestState: r1.requestState }, { elicitation: { url: {} } });
    expect((await post(http.url, retry.body, retry.headers)).json.result.content[0].text).to.equal('login accept');
  });

  it('[MRTR-005] [MRTR-006] asks several inputs of one turn in one round, under default keys', async () => {
    const caps = { elicitation: {}, sampling: {}, roots: {} };
    const first = modern(16, 'tools/call', { name: 'three' }, caps);
    const r1 = (await post(http.url, first.body, first.headers)).json.result;
    expect(Object.keys(r1.inputRequests).sort()).to.deep.equal(['elicitation-1', 'roots-1', 'sampling-1']);
    const inputResponses = {
      'elicitation-1': { action: 'decline' },
      'sampling-1': { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' },
      'roots-1': { roots: [{ uri: 'file:///a' }] },
    };
    const retry = modern(17, 'tools/call', { name: 'three', inputResponses, requestState: r1.requestState }, caps);
    const r2 = (await post(http.url, retry.body, retry.headers)).json.result;
    expect(r2.content[0].text).to.equal('decline/{"type":"text","text":"ok"}/1');
  });

  it('[MRTR-007] [MRTR-008] [MRTR-026] refuses a tampered or foreign requestState with -32602 and stays up', async () => {
    const first = modern(18, 'tools/call', { name: 'ask' }, { elicitation: {} });
    const r1 = (await post(http.url, first.body, first.headers)).json.result;
    const answers = { who: { action: 'accept', content: { name: 'Eve' } } };
    const tampered = modern(19, 'tools/call', { name: 'ask', inputResponses: answers, requestState: `${r1.requestState}x` }, { elicitation: {} });
    let res = await post(http.url, tampered.body, tampered.headers);
    expect(res.json.error.code).to.equal(-32602);
    // The state of a call to another tool is foreign here.
    const foreign = modern(20, 'tools/call', { name: 'echo', arguments: { text: 'y' }, requestState: r1.requestState });
    res = await post(http.url, foreign.body, foreign.headers);
    expect(res.json.error.code).to.equal(-32602);
    const ok = modern(21, 'tools/call', { name: 'echo', arguments: { text: 'z' } });
    expect((await post(http.url, ok.body, ok.headers)).json.result.content[0].text).to.equal('echo:z');
  });

  it('[SUB-001] [SUB-002] [BASE-108] [TOOL-044] acknowledges subscriptions/listen with the honoured subset and tags the notifications it opted in to', async () => {
    // A server with tools only: resource list changes are not offered, so they are left out, not refused.
    const tools = createMcpServer({ info: { name: 'tools-only', version: '1' } });
    tools.registerTool('t', { description: 't' }, () => 't');
    const h = await listen(createStreamableHttpHandler(tools.server), { logger: false });
    try {
      const { body, headers } = modern(22, 'subscriptions/listen', { notifications: { toolsListChanged: true, resourcesListChanged: true } });
      const s = await postStream(h.url, body, headers);
      await s.waitForMessages(1);
      const ack = s.messages[0];
      expect(ack.method).to.equal('notifications/subscriptions/acknowledged');
      expect(ack.params.notifications).to.deep.equal({ toolsListChanged: true });
      expect(ack.params._meta['io.modelcontextprotocol/subscriptionId']).to.equal(22);
      tools.registerTool('late', { description: 'late' }, () => 'late');
      await s.waitForMessages(2);
      expect(s.messages[1].method).to.equal('notifications/tools/list_changed');
      expect(s.messages[1].params._meta['io.modelcontextprotocol/subscriptionId']).to.equal(22);
      s.res.destroy();
    } finally {
      await h.close();
    }
  });

  it('[SUB-001] [PROMPT-032] sends a listen stream only the types it opted in to, and resource updates only for its URIs', async () => {
    const { body, headers } = modern(23, 'subscriptions/listen', { notifications: { promptsListChanged: true, resourceSubscriptions: ['test://readme'] } });
    const s = await postStream(http.url, body, headers);
    await s.waitForMessages(1);
    expect(s.messages[0].params.notifications).to.deep.equal({ promptsListChanged: true, resourceSubscriptions: ['test://readme'] });
    mcp.registerTool('not-for-this-stream', { description: 'x' }, () => 'x');
    mcp.resources.notifyUpdated('test://other');
    mcp.resources.notifyUpdated('test://readme');
    mcp.registerPrompt('later', { description: 'x' }, () => [{ role: 'user', content: { type: 'text', text: 'x' } }]);
    await until(() => s.messages.some((m) => m.method === 'notifications/prompts/list_changed') && s.messages.some((m) => m.method === 'notifications/resources/updated'), 'both opted-in notifications');
    // Give a tools list_changed (not opted in) time to show up, were it sent.
    await new Promise((r) => setTimeout(r, 30));
    const methods = new Set(s.messages.map((m) => m.method));
    expect([...methods].sort()).to.deep.equal(['notifications/prompts/list_changed', 'notifications/resources/updated', 'notifications/subscriptions/acknowledged']);
    expect(s.messages.filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params.uri)).to.deep.equal(['test://readme']);
    expect(s.messages.every((m) => m.params._meta['io.modelcontextprotocol/subscriptionId'] === 23)).to.equal(true);
    s.res.destroy();
  });

  it('[CACHE-001] [CACHE-002] [CACHE-003] [CACHE-004] [CACHE-005] [CACHE-006] [CACHE-013] [TOOL-042] puts caching hints on every cacheable complete result, lists tools in a stable order', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['tools/list', {}],
      ['prompts/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'test://readme' }],
    ];
    for (const [i, [method, params]] of calls.entries()) {
      const { body, headers } = modern(30 + i, method, params);
      const r = (await post(http.url, body, headers)).json.result;
      expect(r.resultType, method).to.equal('complete');
      expect(Number.isInteger(r.ttlMs) && r.ttlMs >= 0, method).to.equal(true);
      expect(r.cacheScope, method).to.be.oneOf(['public', 'private']);
    }
    const names = async () => (await post(http.url, modern(40, 'tools/list').body, modern(40, 'tools/list').headers)).json.result.tools.map((t: { name: string }) => t.name);
    expect(await names()).to.deep.equal(await names());
    // Not cacheable: a tool result carries no hints.
    const call = modern(41, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect((await post(http.url, call.body, call.headers)).json.result.ttlMs).to.equal(undefined);
  });

  it('[RES-030] [RES-033] [BASE-074] answers an unknown resource -32602 (not -32002) with its uri, never empty contents', async () => {
    const { body, headers } = modern(42, 'resources/read', { uri: 'test://missing' });
    const res = await post(http.url, body, headers);
    expect(res.json.error.code).to.equal(-32602);
    expect(res.json.error.data.uri).to.equal('test://missing');
    expect(res.json.result).to.equal(undefined);
  });

  it('[RES-031] answers a read whose callback fails -32603, and keeps serving', async () => {
    const other = createMcpServer({ info: { name: 'failing', version: '1' } });
    other.registerResource('broken', 'test://broken', {}, () => {
      throw new Error('disk on fire');
    });
    other.registerResource('fine', 'test://fine', {}, (uri) => ({ contents: [{ uri, text: 'fine' }] }));
    const h = await listen(createStreamableHttpHandler(other.server), { logger: false });
    try {
      const broken = modern(1, 'resources/read', { uri: 'test://broken' });
      const res = (await post(h.url, broken.body, broken.headers)).json;
      expect(res.error.code).to.equal(-32603);
      const fine = modern(2, 'resources/read', { uri: 'test://fine' });
      expect((await post(h.url, fine.body, fine.headers)).json.result.contents[0].text).to.equal('fine');
    } finally {
      await h.close();
    }
  });

  it('[CACHE-021] [CACHE-022] puts the same cacheScope on every page of a paginated list', async () => {
    const other = createMcpServer({ info: { name: 'paged', version: '1' }, pageSize: 2, modern: { caching: { methods: { 'tools/list': { ttlMs: 1000, cacheScope: 'private' } } } } });
    for (const n of ['a', 'b', 'c', 'd', 'e']) other.registerTool(n, { description: n }, () => n);
    const h = await listen(createStreamableHttpHandler(other.server), { logger: false });
    try {
      const pages: { tools: { name: string }[]; nextCursor?: string; cacheScope?: string }[] = [];
      let cursor: string | undefined;
      do {
        const req = modern(pages.length + 1, 'tools/list', cursor === undefined ? {} : { cursor });
        const page = (await post(h.url, req.body, req.headers)).json.result;
        pages.push(page);
        cursor = page.nextCursor;
      } while (cursor !== undefined && pages.length < 10);
      expect(pages.flatMap((p) => p.tools.map((t) => t.name))).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
      expect(pages.map((p) => p.cacheScope)).to.deep.equal(['private', 'private', 'private']);
    } finally {
      await h.close();
    }
  });

  it('takes caching hints per method from the server options, per resource from its read callback', async () => {
    const other = createMcpServer({ info: { name: 'cached', version: '1' }, modern: { caching: { default: { ttlMs: 5000, cacheScope: 'public' }, methods: { 'resources/read': { ttlMs: 0, cacheScope: 'private' } } } } });
    other.registerTool('t', { description: 't' }, () => 't');
    other.registerResource('r', 'test://r', {}, (uri) => ({ contents: [{ uri, text: 'r' }] }));
    // Per resource: the read callback's own hints win over the server's defaults.
    other.registerResource('fixed', 'test://fixed', {}, (uri) => ({ contents: [{ uri, text: 'f' }], ttlMs: 60_000, cacheScope: 'public' }));
    const h = await listen(createStreamableHttpHandler(other.server), { logger: false });
    try {
      const list = (await post(h.url, modern(1, 'tools/list').body, modern(1, 'tools/list').headers)).json.result;
      expect([list.ttlMs, list.cacheScope]).to.deep.equal([5000, 'public']);
      const read = modern(2, 'resources/read', { uri: 'test://r' });
      const r = (await post(h.url, read.body, read.headers)).json.result;
      expect([r.ttlMs, r.cacheScope]).to.deep.equal([0, 'private']);
      const fixed = modern(3, 'resources/read', { uri: 'test://fixed' });
      const f = (await post(h.url, fixed.body, fixed.headers)).json.result;
      expect([f.ttlMs, f.cacheScope]).to.deep.equal([60_000, 'public']);
    } finally {
      await h.close();
    }
  });

  it('keeps an idle listen stream alive with SSE comments on the server clock', async () => {
    const clock = new ManualClock();
    const quiet = createMcpServer({ info: { name: 'quiet', version: '1' }, capabilities: { tools: { listChanged: true } } });
    const h = await listen(createStreamableHttpHandler(quiet.server, { clock, keepAliveMs: 1000 }), { logger: false });
    try {
      const { body, headers } = modern(60, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
      const s = await postStream(h.url, body, headers);
      await s.waitForMessages(1);
      expect(s.comments).to.equal(0);
      clock.advance(1000); // the ack counts as traffic in the first interval
      clock.advance(1000);
      await until(() => s.comments === 1, 'a keep-alive comment');
      s.res.destroy();
    } finally {
      await h.close();
    }
  });

  it('[CANCEL-041] [CANCEL-040] [CANCEL-044] [CANCEL-054] ends open listen streams on shutdown: notifications/cancelled, then the result with the subscription id', async () => {
    // (Resource updates only: the fixture's own registrations may still announce list changes.)
    const { body, headers } = modern(50, 'subscriptions/listen', { notifications: { resourceSubscriptions: ['test://readme'] } });
    const s = await postStream(http.url, body, headers);
    await s.waitForMessages(1);
    await mcp.close();
    await s.done;
    const [, cancelled, result] = s.messages;
    expect(cancelled.method).to.equal('notifications/cancelled');
    expect(cancelled.params.requestId).to.equal(50);
    expect(result.id).to.equal(50);
    expect(result.result.resultType).to.equal('complete');
    expect(result.result._meta['io.modelcontextprotocol/subscriptionId']).to.equal(50);
  });

  it('[CANCEL-067] [CANCEL-046] treats a closed response stream as cancellation: the handler is aborted, the server stays up', async () => {
    let aborted!: () => void;
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    mcp.registerTool('slow', { description: 'slow' }, async (_a, ctx) => {
      ctx.progress(1, 2);
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted();
      return 'never sent';
    });
    const { body, headers } = modern(51, 'tools/call', { name: 'slow' }, {}, { progressToken: 'p' });
    const s = await postStream(http.url, body, headers);
    await s.waitForMessages(1);
    s.res.destroy();
    await sawAbort;
    const ok = modern(52, 'tools/call', { name: 'echo', arguments: { text: 'still up' } });
    expect((await post(http.url, ok.body, ok.headers)).json.result.content[0].text).to.equal('echo:still up');
  });

  it('[MRTR-009] refuses a replayed requestState when the server keeps a replay guard', async () => {
    const guarded = createMcpServer({ info: { name: 'guarded', version: '1' }, modern: { requestState: { replayGuard: new InMemoryReplayGuard() } } });
    guarded.registerTool('ask', { description: 'asks' }, async (_a, ctx) => {
      const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { inputKey: 'who' });
      return `hi ${String(r.content?.name)}`;
    });
    const h = await listen(createStreamableHttpHandler(guarded.server), { logger: false });
    try {
      const first = modern(1, 'tools/call', { name: 'ask' }, { elicitation: {} });
      const state = (await post(h.url, first.body, first.headers)).json.result.requestState;
      const retry = (id: number) => modern(id, 'tools/call', { name: 'ask', inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: state }, { elicitation: {} });
      expect((await post(h.url, retry(2).body, retry(2).headers)).json.result.content[0].text).to.equal('hi Ada');
      const again = await post(h.url, retry(3).body, retry(3).headers);
      expect(again.json.error.code).to.equal(-32602);
      expect(again.json.error.data.reason).to.equal('replayed');
    } finally {
      await h.close();
    }
  });

  it('serves legacy clients on the same endpoint: initialize gets a session revision and a session id', async () => {
    const res = await post(http.url, initializeRequest('2026-07-28'));
    expect(res.status).to.equal(200);
    expect(res.json.result.protocolVersion).to.equal('2025-11-25');
    expect(res.headers['mcp-session-id']).to.be.a('string');
    const sid = res.headers['mcp-session-id'] as string;
    await post(http.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
    const list = await post(http.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
    expect(list.json.result.tools.map((t: { name: string }) => t.name)).to.include('echo');
    expect(list.json.result.resultType).to.equal(undefined);
    await until(() => mcp.server.sessions.size === 1, 'one legacy session');
    expect((await raw(http.url, { method: 'DELETE', headers: { 'mcp-session-id': sid } })).status).to.equal(204);
  });
});
