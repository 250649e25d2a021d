// Server interceptors (issue 29) in both eras over stdio and HTTP, seen from our client: order,
// rewriting, short-circuits, a throwing stage, a stage that never resolves (ended by the request's
// timeout on the simulated clock), notifications, and input rounds.
import { expect } from 'chai';
import { ManualClock } from '../../../lib/clock.js';
import { McpError } from '../../../lib/errors.js';
import { createMcpServer, type McpServer } from '../../../lib/mcp-server.js';
import { createMcpFetchHandler } from '../../../lib/server-bindings/fetch-handler.js';
import type { InterceptedRequest, Interceptor } from '../../../lib/server-features/interceptors/server-chain.js';
import { MATRIX, connect, until, type Connected } from './harness.js';

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { text?: string }[]).map((b) => b.text).join('|');

function server(clock?: ManualClock): McpServer {
  const mcp = createMcpServer({ info: { name: 'intercepted', version: '1' }, ...(clock && { clock }) });
  mcp.registerTool('echo', { description: 'echoes its arguments' }, async (a: Record<string, unknown>) => `echo ${JSON.stringify(a)}`);
  mcp.registerTool('ask', { description: 'asks a name' }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { inputKey: 'who' });
    return `hi ${String(r.content?.name)}`;
  });
  return mcp;
}

for (const { era, wire } of MATRIX) {
  describe(`server interceptors: ${era} era over ${wire}`, () => {
    let c: Connected | undefined;
    afterEach(async () => {
      await c?.close();
      c = undefined;
    });

    it('run in registration order, rewrite params for the stages after and the result on the way out; requests$ names them', async () => {
      const mcp = server();
      const order: string[] = [];
      mcp.use(async function outer(req, next) {
        // The stages see the client's server/discover too (2026-07-28): this one wraps tool calls only.
        if (req.method !== 'tools/call') return next();
        order.push('in outer');
        const r = await next({ ...req.params, arguments: { ...(req.params?.arguments as object), added: 'by outer' } });
        order.push('out outer');
        return { ...r, content: [...(r.content as object[]), { type: 'text', text: 'wrapped' }] };
      });
      mcp.use(async function inner(req, next) {
        if (req.method !== 'tools/call') return next();
        order.push(`in inner sees ${JSON.stringify(req.params?.arguments)}`);
        const r = await next();
        order.push('out inner');
        return r;
      });
      c = await connect(mcp, era, wire);
      const r = await c.client.callTool({ name: 'echo', arguments: { a: 1 } });
      expect(textOf(r)).to.equal('echo {"a":1,"added":"by outer"}|wrapped');
      expect(order).to.deep.equal(['in outer', 'in inner sees {"a":1,"added":"by outer"}', 'out inner', 'out outer']);
      await until(() => c!.records.some((x) => x.method === 'tools/call'), 'the record');
      expect(c.records.find((x) => x.method === 'tools/call')!.interceptors).to.deep.equal(['outer', 'inner']);
    });

    it('short-circuit with a result (the handler never runs) or with an McpError the client gets as sent', async () => {
      const mcp = server();
      let ran = 0;
      mcp.registerTool('count', { description: 'counts' }, async () => `ran ${++ran}`);
      mcp.use(async function cache(req, next) {
        if (req.method === 'tools/call' && req.params?.name === 'count') return { content: [{ type: 'text', text: 'cached' }] };
        if (req.method === 'tools/call' && req.params?.name === 'echo') throw new McpError(-31001, 'Refused by policy', { policy: 'no-echo' });
        return next();
      });
      c = await connect(mcp, era, wire);
      expect(textOf(await c.client.callTool({ name: 'count', arguments: {} }))).to.equal('cached');
      expect(ran).to.equal(0);
      const e = await c.client.callTool({ name: 'echo', arguments: {} }).catch((x: unknown) => x);
      expect(e).to.be.instanceOf(McpError);
      expect((e as McpError).code).to.equal(-31001);
      expect((e as McpError).data).to.deep.equal({ policy: 'no-echo' });
      await until(() => c!.records.filter((x) => x.method === 'tools/call').length === 2, 'two records');
      const calls = c.records.filter((x) => x.method === 'tools/call');
      expect(calls.map((x) => [x.name, x.outcome, x.shortCircuitBy])).to.deep.equal([
        ['count', 'answered', 'cache'],
        ['echo', 'failed', undefined],
      ]);
    });

    it('a throwing stage fails only its request with -32603 naming it; the process and the next requests go on', async () => {
      const mcp = server();
      let calls = 0;
      mcp.use(function flaky(req, next) {
        if (req.method === 'tools/call' && ++calls === 1) throw new TypeError('quota table missing');
        return next();
      });
      c = await connect(mcp, era, wire);
      const e = await c.client.callTool({ name: 'echo', arguments: { n: 1 } }).catch((x: unknown) => x);
      expect((e as McpError).code).to.equal(-32603);
      expect((e as McpError).message).to.contain('Interceptor "flaky" failed').and.contain('quota table missing');
      expect(textOf(await c.client.callTool({ name: 'echo', arguments: { n: 2 } }))).to.equal('echo {"n":2}');
    });

    it('a handler error passes through the stages unchanged (not blamed on them)', async () => {
      const mcp = server();
      mcp.server.onRequest('x/fail', () => {
        throw new Error('no luck');
      });
      mcp.use(async function pass(_req, next) {
        return next();
      });
      c = await connect(mcp, era, wire);
      const e = await c.client.request('x/fail', {}).catch((x: unknown) => x);
      expect((e as McpError).code).to.equal(-32603);
      expect((e as McpError).message).to.equal('no luck');
    });

    it('a stage that never resolves is ended by the request timeout (simulated clock): the request is cancelled, its signal aborted, the server serves on', async () => {
      const clock = new ManualClock(0);
      const mcp = server();
      const stuck: InterceptedRequest[] = [];
      mcp.use(function hang(req, next) {
        if (req.params?.name === 'echo' && (req.params.arguments as { hang?: boolean })?.hang) {
          stuck.push(req);
          return new Promise(() => {});
        }
        return next();
      });
      c = await connect(mcp, era, wire, { clock, timeout: 1_000 });
      const pending = c.client.callTool({ name: 'echo', arguments: { hang: true } }).catch((x: unknown) => x);
      await until(() => stuck.length === 1, 'the stage entered');
      clock.advance(1_000);
      const e = await pending;
      expect((e as Error).name).to.equal('RequestTimeoutError');
      await until(() => stuck[0]!.signal?.aborted === true, 'the stage told of the cancellation');
      await until(() => c!.records.some((x) => x.method === 'tools/call' && x.outcome === 'cancelled'), 'the cancelled record');
      expect(c.records.find((x) => x.outcome === 'cancelled')!.interceptors).to.deep.equal(['hang']);
      expect(textOf(await c.client.callTool({ name: 'echo', arguments: { after: true } }))).to.equal('echo {"after":true}');
    });

    it('sees an input round as such: a 2026-07-28 request answers input_required through the chain, then the retry completes', async () => {
      const mcp = server();
      const results: string[] = [];
      mcp.use(async function watch(req, next) {
        const r = await next();
        if (req.params?.name === 'ask') results.push(r.resultType === 'input_required' ? `input_required ${Object.keys(r.inputRequests as object).join()}` : textOf(r));
        return r;
      });
      c = await connect(mcp, era, wire, { setup: (client) => void client.onElicitation({ form: async () => ({ action: 'accept', content: { name: 'Ada' } }) }) });
      expect(textOf(await c.client.callTool({ name: 'ask', arguments: {} }))).to.equal('hi Ada');
      // Legacy: the ask is a request to the client inside the one call; 2026-07-28: two attempts, the first input_required.
      expect(results).to.deep.equal(era === 'modern' ? ['input_required who', 'hi Ada'] : ['hi Ada']);
      if (era === 'modern') {
        await until(() => c!.records.filter((x) => x.name === 'ask').length === 2, 'two records');
        expect(c.records.filter((x) => x.name === 'ask').map((x) => [x.outcome, x.interceptors])).to.deep.equal([
          ['inputRequired', ['watch']],
          ['answered', ['watch']],
        ]);
      }
    });

    if (era === 'legacy') {
      it('notifications go through the chain with kind "notification"; a stage that answers drops them', async () => {
        const mcp = server();
        const handled: string[] = [];
        mcp.server.onNotification('notifications/roots/list_changed', () => void handled.push('roots changed'));
        const seen: string[] = [];
        let drop = true;
        const gate: Interceptor = async (req, next) => {
          if (req.kind === 'notification') seen.push(`${req.method} ${req.caller.sessionId}`);
          if (req.kind === 'notification' && drop) return {};
          return next();
        };
        mcp.use(gate);
        c = await connect(mcp, era, wire);
        await c.client.notify('notifications/roots/list_changed');
        await until(() => seen.length === 1, 'the first notification seen');
        drop = false;
        await c.client.notify('notifications/roots/list_changed');
        await until(() => handled.length === 1, 'the second handled');
        expect(seen).to.deep.equal(['notifications/roots/list_changed session-1', 'notifications/roots/list_changed session-1']);
        expect(handled).to.deep.equal(['roots changed']);
      });
    }
  });
}

describe('server interceptors: a 2026-07-28 input round on the wire', () => {
  it('what a stage returns for an input_required round is what the client gets (it may rewrite it)', async () => {
    const mcp = server();
    mcp.use(async function tag(_req, next) {
      const r = await next();
      return r.resultType === 'input_required' ? { ...r, _meta: { ...(r._meta as object | undefined), 'com.example/round-seen': true } } : r;
    });
    const handler = createMcpFetchHandler(mcp);
    const V = '2026-07-28';
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'ask',
        arguments: {},
        _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} }, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } },
      },
    };
    const res = await handler(
      new Request('http://127.0.0.1:8080/mcp', {
        method: 'POST',
        headers: { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'ask', accept: 'application/json, text/event-stream', 'content-type': 'application/json', host: '127.0.0.1:8080' },
        body: JSON.stringify(body),
      }),
    );
    const result = ((await res.json()) as { result: Record<string, any> }).result;
    expect(result.resultType).to.equal('input_required');
    expect(Object.keys(result.inputRequests)).to.deep.equal(['who']);
    expect(result._meta['com.example/round-seen']).to.equal(true);
    await mcp.close();
  });
});
