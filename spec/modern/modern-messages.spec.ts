// 2026-07-28 messages on our server (over Streamable HTTP, no session): results and errors keep
// the request's id, lists are the same for every caller, a bad log level or bad inputResponses is
// a JSON-RPC error, and a retry that lacks an answer the handler needs is asked again.
import { expect } from 'chai';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { post } from '../fixtures/http-server/raw.js';

const V = '2026-07-28';
const nameOf: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
function modern(id: number | string, method: string, params: Record<string, unknown> = {}, caps: Record<string, unknown> = {}, metaExtra: Record<string, unknown> = {}, client = 'spec') {
  const _meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': caps, 'io.modelcontextprotocol/clientInfo': { name: client, version: '1' }, ...metaExtra };
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta } };
  const headers: Record<string, string> = { 'mcp-protocol-version': V, 'mcp-method': method };
  const key = nameOf[method];
  if (key) headers['mcp-name'] = String(params[key]);
  return { body, headers };
}

describe('2026-07-28 messages on our server', () => {
  let http: Listening;
  let openGate!: () => void;
  let gate: Promise<void>;
  let gateStarted!: () => void;
  let started: Promise<void>;

  beforeEach(async () => {
    gate = new Promise((resolve) => (openGate = resolve));
    started = new Promise((resolve) => (gateStarted = resolve));
    const mcp = createMcpServer({ info: { name: 'messages', version: '1' } });
    mcp.registerTool('echo', { description: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (a) => `echo:${String(a.text)}`);
    mcp.registerTool('ask', { description: 'asks a name' }, async (_a, ctx) => {
      const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { inputKey: 'who' });
      return `hi ${String(r.content?.name ?? r.action)}`;
    });
    mcp.registerTool('gate', { description: 'waits until the test opens the gate' }, async () => {
      gateStarted();
      await gate;
      return 'through';
    });
    mcp.registerTool('two', { description: 'asks a name, then an age' }, async (_a, ctx) => {
      const schema = (field: string) => ({ type: 'object' as const, properties: { [field]: { type: 'string' as const } }, required: [field] });
      const who = await ctx.elicit({ message: 'Name?', requestedSchema: schema('name') }, { inputKey: 'who' });
      const age = await ctx.elicit({ message: 'Age?', requestedSchema: schema('age') }, { inputKey: 'age' });
      return `${String(who.content?.name)} is ${String(age.content?.age)}`;
    });
    mcp.registerPrompt('greet', { description: 'greets' }, () => [{ role: 'user', content: { type: 'text', text: 'hello' } }]);
    mcp.registerResource('readme', 'test://readme', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: 'read me' }] }));
    http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
  });
  afterEach(async () => {
    await http.close();
  });

  const send = async (req: { body: unknown; headers: Record<string, string> }) => (await post(http.url, req.body, req.headers)).json;

  it('[BASE-063] [BASE-068] [BASE-069] answers with result or error (code and message) under the request\'s own id, string or number', async () => {
    const ok = await send(modern('call-1', 'tools/call', { name: 'echo', arguments: { text: 'x' } }));
    expect(ok.id).to.equal('call-1');
    expect(ok.result.content[0].text).to.equal('echo:x');
    expect(ok).to.not.have.property('error');
    const bad = await send(modern(41, 'prompts/get', { name: 'no-such-prompt' }));
    expect(bad.id).to.equal(41);
    expect(bad).to.not.have.property('result');
    expect(bad.error.code).to.be.a('number');
    expect(bad.error.message).to.be.a('string').and.not.equal('');
  });

  it('[PROMPT-029] [TOOL-040] [RES-024] [PROMPT-030] [TOOL-041] [RES-025] [PROMPT-031] declares what it serves in discover, and lists the same set to every caller, whatever came before', async () => {
    const d = (await send(modern(1, 'server/discover'))).result;
    expect(d.capabilities).to.include.keys('tools', 'prompts', 'resources');
    const lists = async (client: string) => ({
      tools: (await send(modern(2, 'tools/list', {}, {}, {}, client))).result.tools.map((t: { name: string }) => t.name),
      prompts: (await send(modern(3, 'prompts/list', {}, {}, {}, client))).result.prompts.map((p: { name: string }) => p.name),
      resources: (await send(modern(4, 'resources/list', {}, {}, {}, client))).result.resources.map((r: { uri: string }) => r.uri),
    });
    const before = await lists('first');
    expect([...before.tools].sort()).to.deep.equal(['ask', 'echo', 'gate', 'two']);
    expect(before.prompts).to.deep.equal(['greet']);
    expect(before.resources).to.deep.equal(['test://readme']);
    await send(modern(5, 'tools/call', { name: 'echo', arguments: { text: 'side effect?' } }));
    await send(modern(6, 'prompts/get', { name: 'greet' }));
    expect(await lists('second')).to.deep.equal(before);
  });

  it('[BASE-071] [BASE-073] answers every kind of bad request with a standard code or one 2026-07-28 defines, never -32000..-32019 or an undefined MCP code', async () => {
    const withHeaders = (req: { body: unknown; headers: Record<string, string> }, headers: Record<string, string>) => ({ body: req.body, headers: { ...req.headers, ...headers } });
    const answers = [
      await send(modern(1, 'no/such-method')),
      await send(modern(2, 'tools/call', { name: 'no-such-tool', arguments: {} })),
      await send(modern(3, 'tools/call', { name: 'echo', arguments: { text: 42 } })),
      await send(modern(4, 'resources/read', { uri: 'test://missing' })),
      await send(modern(5, 'prompts/get', { name: 'no-such-prompt' })),
      await send(modern(6, 'tools/call', { name: 'echo', arguments: {} }, {}, { 'io.modelcontextprotocol/logLevel': 'loud' })),
      await send(withHeaders(modern(7, 'tools/call', { name: 'echo', arguments: {} }), { 'mcp-name': 'other' })),
      await send(withHeaders(modern(8, 'tools/list'), { 'mcp-protocol-version': '2099-01-01' })),
      await send({ body: { ...modern(9, 'tools/list').body, params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01', 'io.modelcontextprotocol/clientCapabilities': {} } } }, headers: { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' } }),
      await send(modern(10, 'tools/call', { name: 'ask', arguments: {}, inputResponses: 'not an object' })),
      await send(modern(11, 'tools/call', { name: 'ask', arguments: {}, requestState: 'forged' })),
    ];
    const codes = answers.map((a: { error?: { code: number }; result?: { resultType?: string } }) => a.error?.code ?? a.result?.resultType);
    const defined = new Set([-32700, -32600, -32601, -32602, -32603, -32020, -32021, -32022]);
    for (const [i, code] of codes.entries()) {
      if (typeof code !== 'number') continue;
      expect(defined.has(code), `request ${i + 1} answered ${code}`).to.equal(true);
    }
    // The checks above answered errors, not results, for these.
    expect(codes.filter((c) => typeof c === 'number').length).to.be.greaterThanOrEqual(9);
    expect(codes).to.include.members([-32601, -32602, -32020, -32022]);
  });

  it('[LOG-033] refuses a request whose _meta log level is not a known level', async () => {
    const res = await send(modern(7, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, {}, { 'io.modelcontextprotocol/logLevel': 'loud' }));
    expect(res).to.not.have.property('result');
    expect(res.error.code).to.equal(-32602);
    const ok = await send(modern(8, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, {}, { 'io.modelcontextprotocol/logLevel': 'debug' }));
    expect(ok.result.content[0].text).to.equal('echo:x');
  });

  it('[ELICIT-092] hands a declined or cancelled elicitation to the handler, which completes the call', async () => {
    const caps = { elicitation: {} };
    for (const action of ['decline', 'cancel']) {
      const r1 = (await send(modern(`${action}-1`, 'tools/call', { name: 'ask' }, caps))).result;
      expect(r1.resultType).to.equal('input_required');
      const done = (await send(modern(`${action}-2`, 'tools/call', { name: 'ask', inputResponses: { who: { action } }, requestState: r1.requestState }, caps))).result;
      expect([done.resultType, done.content[0].text]).to.deep.equal(['complete', `hi ${action}`]);
    }
  });

  it('[BASE-083] what spans rounds travels in the requestState the client passes back: with it the second round completes with the first answer, without it nothing is remembered', async () => {
    const caps = { elicitation: {} };
    const r1 = (await send(modern(1, 'tools/call', { name: 'two' }, caps))).result;
    expect(Object.keys(r1.inputRequests)).to.deep.equal(['who']);
    const r2 = (await send(modern(2, 'tools/call', { name: 'two', inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: r1.requestState }, caps))).result;
    expect(Object.keys(r2.inputRequests)).to.deep.equal(['age']);
    const age = { age: { action: 'accept', content: { age: '36' } } };
    // The same answer without the state: the server kept nothing of round 1 for this client.
    const forgotten = (await send(modern(3, 'tools/call', { name: 'two', inputResponses: age }, caps))).result;
    expect(forgotten.resultType).to.equal('input_required');
    expect(Object.keys(forgotten.inputRequests)).to.deep.equal(['who']);
    const done = (await send(modern(4, 'tools/call', { name: 'two', inputResponses: age, requestState: r2.requestState }, caps))).result;
    expect([done.resultType, done.content[0].text]).to.deep.equal(['complete', 'Ada is 36']);
  });

  it('[BASE-080] serves many conversations at once: a call still running does not hold up others, and interleaved rounds complete with their own answers', async () => {
    const caps = { elicitation: {} };
    const held = send(modern('held', 'tools/call', { name: 'gate' }, {}, {}, 'c0'));
    await started;
    const starts = await Promise.all(['c1', 'c2', 'c3'].map((c) => send(modern(`${c}-1`, 'tools/call', { name: 'ask' }, caps, {}, c))));
    const states = starts.map((r) => r.result.requestState as string);
    expect(new Set(states).size).to.equal(3);
    // Interleaved: another call, then the rounds finished in another order than they began.
    expect((await send(modern('other', 'tools/call', { name: 'echo', arguments: { text: 'meanwhile' } }))).result.content[0].text).to.equal('echo:meanwhile');
    const names = ['Ada', 'Grace', 'Linus'];
    const done = await Promise.all(
      [2, 0, 1].map((i) => send(modern(`c${i + 1}-2`, 'tools/call', { name: 'ask', inputResponses: { who: { action: 'accept', content: { name: names[i] } } }, requestState: states[i] }, caps, {}, `c${i + 1}`))),
    );
    expect(done.map((r) => r.result.content[0].text)).to.deep.equal(['hi Linus', 'hi Ada', 'hi Grace']);
    openGate();
    expect((await held).result.content[0].text).to.equal('through');
  });

  it('[MRTR-024] [MRTR-025] ignores answers it did not ask for, and asks again for one the retry lacks', async () => {
    const caps = { elicitation: {} };
    const r1 = (await send(modern(9, 'tools/call', { name: 'ask' }, caps))).result;
    expect(r1.resultType).to.equal('input_required');
    const lacking = (await send(modern(10, 'tools/call', { name: 'ask', inputResponses: { other: { action: 'accept', content: {} } }, requestState: r1.requestState }, caps))).result;
    expect(lacking.resultType).to.equal('input_required');
    expect(lacking.inputRequests.who.method).to.equal('elicitation/create');
    const extra = { who: { action: 'accept', content: { name: 'Ada' } }, unasked: { anything: true } };
    const done = (await send(modern(11, 'tools/call', { name: 'ask', inputResponses: extra, requestState: lacking.requestState ?? r1.requestState }, caps))).result;
    expect(done.resultType).to.equal('complete');
    expect(done.content[0].text).to.equal('hi Ada');
  });

  it('[MRTR-022] [MRTR-023] refuses inputResponses that are not an InputResponses object with a JSON-RPC error, and stays up', async () => {
    const caps = { elicitation: {} };
    const r1 = (await send(modern(12, 'tools/call', { name: 'ask' }, caps))).result;
    for (const inputResponses of ['who=Ada', [1, 2], 42]) {
      const res = await send(modern(13, 'tools/call', { name: 'ask', inputResponses, requestState: r1.requestState }, caps));
      expect(res, JSON.stringify(inputResponses)).to.not.have.property('result');
      expect(res.error.code, JSON.stringify(inputResponses)).to.equal(-32602);
    }
    const ok = await send(modern(14, 'tools/call', { name: 'echo', arguments: { text: 'up' } }));
    expect(ok.result.content[0].text).to.equal('echo:up');
  });
});
