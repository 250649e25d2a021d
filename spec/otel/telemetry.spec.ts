import { expect } from 'chai';
import { McpError, RequestTimeoutError } from '../../lib/errors.js';
import type { JsonObject } from '../../lib/jsonrpc/message.js';
import { runClientChain } from '../../lib/client-features/interceptors/client-chain.js';
import type { NetworkFacts } from '../../lib/otel/index.js';
import { runChain } from '../../lib/server-features/interceptors/server-chain.js';
import { api, harness, type Harness } from './otel-harness.js';

type Handler = (params: JsonObject | undefined) => Promise<JsonObject>;

/**
 * A client chain and a server chain joined by a JSON "wire": what the server sees is the JSON the
 * client's chain sent, served outside the client's async context (as a peer process would).
 */
function wire(h: Harness, handler: Handler, network?: NetworkFacts) {
  let id = 0;
  const seen: JsonObject[] = [];
  const client = h.telemetry.clientOf({ protocolVersion: '2026-07-28', sessionId: 'sess-1', network });
  const call = (method: string, params?: JsonObject): Promise<JsonObject> => {
    const rid = ++id;
    return runClientChain([client], { kind: 'request', method, params, era: 'modern' }, (sent) => {
      const onWire = JSON.parse(JSON.stringify(sent ?? {})) as JsonObject;
      seen.push(onWire);
      // The revision in _meta, as the 2026-07-28 envelope carries it.
      onWire._meta = { ...(onWire._meta as JsonObject | undefined), 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
      const req = { method, params: onWire, caller: { era: 'modern' as const, peer: { sessionId: 'sess-1' } }, id: rid };
      return api.context.with(api.ROOT_CONTEXT, () => runChain([h.telemetry.server], req, handler));
    });
  };
  return { call, seen };
}

describe('otel: spans per the MCP semantic conventions', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness({ network: { transport: 'pipe' } });
  });
  afterEach(() => h.shutdown());

  it('[OTEL-001] [OTEL-002] [OTEL-005] [OTEL-012] [OTEL-018] [OTEL-021] [OTEL-027] [OTEL-032] [OTEL-040] [OTEL-043] a tool call: a CLIENT and a SERVER span named "tools/call {tool}", one trace, the server span the client span\'s child', async () => {
    const { call, seen } = wire(h, async () => ({ content: [{ type: 'text', text: 'sunny' }] }), { transport: 'pipe' });
    await call('tools/call', { name: 'get-weather', arguments: { city: 'Oslo' } });
    const client = h.span('tools/call get-weather', api.SpanKind.CLIENT);
    const server = h.span('tools/call get-weather', api.SpanKind.SERVER);
    expect(server.spanContext().traceId).to.equal(client.spanContext().traceId);
    expect(server.parentSpanContext?.spanId).to.equal(client.spanContext().spanId);
    // What travelled: the W3C traceparent of the client span in params._meta.
    const meta = seen[0]!._meta as Record<string, string>;
    expect(meta.traceparent).to.equal(`00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`);
    // This wire numbers nothing itself: a real client tells its stages the id (onRequestId), see server-peer.spec.ts.
    expect(server.attributes['jsonrpc.request.id']).to.equal('1');
    for (const s of [client, server]) {
      expect(s.attributes).to.include({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'get-weather',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.session.id': 'sess-1',
        'mcp.protocol.version': '2026-07-28',
        'network.transport': 'pipe',
      });
      expect(s.attributes).not.to.have.property('error.type');
      expect(s.status.code).to.equal(api.SpanStatusCode.UNSET);
      // Opt-in only: arguments may hold secrets.
      expect(s.attributes).not.to.have.property('gen_ai.tool.call.arguments');
    }
  });

  it('[OTEL-008] [OTEL-014] [OTEL-015] [OTEL-030] [OTEL-034] [OTEL-035] a failed tool (isError) sets error.type tool_error and the ERROR status on both sides', async () => {
    const { call } = wire(h, async () => ({ isError: true, content: [{ type: 'text', text: 'no such city' }] }));
    const out = await call('tools/call', { name: 'get-weather', arguments: {} });
    expect(out.isError).to.equal(true);
    for (const kind of [api.SpanKind.CLIENT, api.SpanKind.SERVER]) {
      const s = h.span('tools/call get-weather', kind);
      expect(s.attributes['error.type']).to.equal('tool_error');
      expect(s.status.code).to.equal(api.SpanStatusCode.ERROR);
    }
  });

  it('[OTEL-009] [OTEL-013] [OTEL-031] [OTEL-033] a JSON-RPC error: error.type and rpc.response.status_code are its code, the status message its message', async () => {
    const { call } = wire(h, async () => {
      throw new McpError(-32602, 'Unknown tool: nope');
    });
    const e = await call('tools/call', { name: 'nope' }).catch((x: unknown) => x);
    expect((e as McpError).code).to.equal(-32602);
    for (const kind of [api.SpanKind.CLIENT, api.SpanKind.SERVER]) {
      const s = h.span('tools/call nope', kind);
      expect(s.attributes).to.include({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
      expect(s.status).to.deep.equal({ code: api.SpanStatusCode.ERROR, message: 'Unknown tool: nope' });
    }
  });

  it('[OTEL-072] [OTEL-086] a request that succeeds has no error.type', async () => {
    const ok = wire(h, async () => ({}));
    await ok.call('tools/list', {});
    expect(h.span('tools/list', api.SpanKind.CLIENT).attributes).not.to.have.property('error.type');
  });

  it('a request that timed out on the client is error.type "timeout" (no code came back)', async () => {
    const { call } = wire(h, async () => {
      throw new RequestTimeoutError('tools/call', 100);
    });
    await call('tools/call', { name: 'slow' }).catch(() => undefined);
    expect(h.span('tools/call slow', api.SpanKind.CLIENT).attributes['error.type']).to.equal('timeout');
  });

  it('[OTEL-006] [OTEL-007] [OTEL-028] [OTEL-029] prompts and resources: gen_ai.prompt.name in the name, mcp.resource.uri as an attribute only (low-cardinality names)', async () => {
    const { call } = wire(h, async () => ({}));
    await call('prompts/get', { name: 'analyze-code' });
    await call('resources/read', { uri: 'file:///tmp/report.pdf' });
    await call('tools/list', {});
    expect(h.span('prompts/get analyze-code', api.SpanKind.SERVER).attributes['gen_ai.prompt.name']).to.equal('analyze-code');
    const read = h.span('resources/read', api.SpanKind.SERVER);
    expect(read.attributes['mcp.resource.uri']).to.equal('file:///tmp/report.pdf');
    expect(read.attributes).not.to.have.property('gen_ai.operation.name');
    expect(h.span('tools/list', api.SpanKind.CLIENT).attributes['mcp.method.name']).to.equal('tools/list');
  });

  it('names resource spans by URI when asked, and records tool arguments and result when opted in', async () => {
    const h2 = harness({ resourceUriInSpanName: true, captureToolContent: true });
    try {
      const { call } = wire(h2, async (p) => (p?.name ? { content: [], structuredContent: { t: 20 } } : {}));
      await call('resources/read', { uri: 'file:///a' });
      await call('tools/call', { name: 'w', arguments: { city: 'Oslo' } });
      h2.span('resources/read file:///a', api.SpanKind.CLIENT);
      const s = h2.span('tools/call w', api.SpanKind.SERVER);
      expect(s.attributes['gen_ai.tool.call.arguments']).to.equal('{"city":"Oslo"}');
      expect(s.attributes['gen_ai.tool.call.result']).to.equal('{"t":20}');
    } finally {
      await h2.shutdown();
    }
  });

  it('[OTEL-004] the server continues any traceparent and keeps the baggage for the handler; it links the ambient (transport) span', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    let baggage: string | undefined;
    const transportSpan = h.tracerProvider.getTracer('http').startSpan('POST');
    const params = { name: 'w', _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, tracestate: 'rojo=00f067aa0ba902b7', baggage: 'userId=alice' } };
    await api.context.with(api.trace.setSpan(api.ROOT_CONTEXT, transportSpan), () =>
      runChain([h.telemetry.server], { method: 'tools/call', params, caller: { era: 'legacy' } }, async () => {
        baggage = api.propagation.getBaggage(api.context.active())?.getEntry('userId')?.value;
        return { content: [] };
      }),
    );
    transportSpan.end();
    const s = h.span('tools/call w', api.SpanKind.SERVER);
    expect(s.spanContext().traceId).to.equal(traceId);
    expect(s.parentSpanContext?.spanId).to.equal('00f067aa0ba902b7');
    expect(s.parentSpanContext?.traceState?.get('rojo')).to.equal('00f067aa0ba902b7');
    expect(baggage).to.equal('alice');
    expect(s.links.map((l) => l.context.spanId)).to.deep.equal([transportSpan.spanContext().spanId]);
  });

  it('a span the handler starts is a child of the server span (the server span is active while it runs)', async () => {
    const { call } = wire(h, async () => {
      h.tracerProvider.getTracer('app').startSpan('db.query').end();
      return { content: [] };
    });
    await call('tools/call', { name: 'w' });
    expect(h.span('db.query').parentSpanContext?.spanId).to.equal(h.span('tools/call w', api.SpanKind.SERVER).spanContext().spanId);
  });

  it('the client span is a child of the caller\'s active span, and the caller\'s _meta is kept', async () => {
    const { call, seen } = wire(h, async () => ({}));
    const agent = h.tracerProvider.getTracer('agent').startSpan('invoke_agent');
    await api.context.with(api.trace.setSpan(api.ROOT_CONTEXT, agent), () => call('tools/call', { name: 'w', _meta: { progressToken: 7 } }));
    agent.end();
    expect(h.span('tools/call w', api.SpanKind.CLIENT).parentSpanContext?.spanId).to.equal(agent.spanContext().spanId);
    expect((seen[0]!._meta as JsonObject).progressToken).to.equal(7);
  });

  it('[OTEL-045] [OTEL-047] [OTEL-048] [OTEL-050] [OTEL-057] [OTEL-059] [OTEL-060] [OTEL-062] records the operation-duration histograms with the advised buckets and the method, tool, operation and error.type', async () => {
    const { call } = wire(h, async (p) => (p?.name === 'bad' ? { isError: true, content: [] } : { content: [] }));
    await call('tools/call', { name: 'ok' });
    await call('tools/call', { name: 'bad' });
    await call('prompts/list', {});
    const metrics = await h.collect();
    for (const name of ['mcp.client.operation.duration', 'mcp.server.operation.duration']) {
      const m = metrics.find((x) => x.descriptor.name === name)!;
      expect(m, name).not.to.equal(undefined);
      expect(m.descriptor.unit).to.equal('s');
      const points = m.dataPoints.filter((p) => p.attributes['mcp.method.name'] === 'tools/call');
      expect(points.map((p) => p.attributes['gen_ai.tool.name']).sort()).to.deep.equal(['bad', 'ok']);
      // execute_tool on a tool call's points, and on no other.
      for (const p of points) expect(p.attributes['gen_ai.operation.name']).to.equal('execute_tool');
      const list = m.dataPoints.find((p) => p.attributes['mcp.method.name'] === 'prompts/list')!;
      expect(list.attributes).not.to.have.property('gen_ai.operation.name');
      const bad = points.find((p) => p.attributes['gen_ai.tool.name'] === 'bad')!;
      expect(bad.attributes['error.type']).to.equal('tool_error');
      expect(bad.value.buckets.boundaries).to.deep.equal([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
      // High-cardinality values stay off metrics.
      expect(bad.attributes).not.to.have.property('jsonrpc.request.id');
      expect(bad.attributes).not.to.have.property('mcp.session.id');
    }
  });

  it('input rounds (2026-07-28): a span per round, the retry linked to the round that asked, all under the client span', async () => {
    // The server asks once (input_required), then completes on the retry that carries requestState.
    const handler: Handler = async (p) =>
      p?.requestState === 'st-1'
        ? { resultType: 'complete', content: [{ type: 'text', text: 'booked' }] }
        : { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: {} } }, requestState: 'st-1' };
    const { call } = wire(h, handler);
    const agent = h.tracerProvider.getTracer('agent').startSpan('book');
    await api.context.with(api.trace.setSpan(api.ROOT_CONTEXT, agent), async () => {
      const first = await call('tools/call', { name: 'book' });
      await call('tools/call', { name: 'book', inputResponses: { confirm: { action: 'accept' } }, requestState: first.requestState as string });
    });
    agent.end();
    const servers = h.spans().filter((s) => s.kind === api.SpanKind.SERVER);
    const clients = h.spans().filter((s) => s.kind === api.SpanKind.CLIENT);
    expect(servers).to.have.length(2);
    const [round1, round2] = servers;
    expect(round1!.events.map((e) => e.name)).to.deep.equal(['mcp.input_required']);
    expect(round1!.events[0]!.attributes?.['mcp.input_request.keys']).to.deep.equal(['confirm']);
    expect(round2!.attributes['mcp.input_round']).to.equal(1);
    expect(round2!.links.map((l) => [l.context.spanId, l.attributes?.['mcp.link.kind']])).to.deep.equal([[round1!.spanContext().spanId, 'input_round']]);
    expect(clients[1]!.links.map((l) => l.context.spanId)).to.deep.equal([clients[0]!.spanContext().spanId]);
    for (const s of [...servers, ...clients]) expect(s.spanContext().traceId).to.equal(agent.spanContext().traceId);
  });

  it('input rounds are numbered: the second retry is round 2, linked to round 1', async () => {
    const handler: Handler = async (p) => {
      const state = p?.requestState;
      if (state === 'st-2') return { resultType: 'complete', content: [] };
      const next = state === 'st-1' ? 'st-2' : 'st-1';
      return { resultType: 'input_required', inputRequests: { [next]: { method: 'elicitation/create', params: {} } }, requestState: next };
    };
    const { call } = wire(h, handler);
    let out = await call('tools/call', { name: 'plan' });
    out = await call('tools/call', { name: 'plan', requestState: out.requestState as string });
    await call('tools/call', { name: 'plan', requestState: out.requestState as string });
    const servers = h.spans().filter((s) => s.kind === api.SpanKind.SERVER);
    expect(servers.map((s) => s.attributes['mcp.input_round'])).to.deep.equal([undefined, 1, 2]);
    expect(servers[2]!.links.map((l) => l.context.spanId)).to.deep.equal([servers[1]!.spanContext().spanId]);
  });

  it('a task: tasks/get and tasks/result spans carry mcp.task.id and link to the span that created the task', async () => {
    const handler: Handler = async (p) => {
      if (p?.name === 'long') return { task: { taskId: 'task-9', status: 'working', createdAt: '2026-11-29T00:00:00Z', ttl: 60000 } };
      return p?.taskId === 'task-9' ? { taskId: 'task-9', status: 'completed' } : {};
    };
    const { call } = wire(h, handler);
    await call('tools/call', { name: 'long', task: { ttl: 60000 } });
    await call('tasks/get', { taskId: 'task-9' });
    await call('tasks/result', { taskId: 'task-9' });
    for (const kind of [api.SpanKind.CLIENT, api.SpanKind.SERVER]) {
      const created = h.span('tools/call long', kind);
      expect(created.attributes['mcp.task.id']).to.equal('task-9');
      for (const name of ['tasks/get', 'tasks/result']) {
        const s = h.span(name, kind);
        expect(s.attributes['mcp.task.id']).to.equal('task-9');
        expect(s.links.map((l) => [l.context.spanId, l.attributes?.['mcp.link.kind']])).to.deep.equal([[created.spanContext().spanId, 'task']]);
      }
    }
  });

  it('with no propagator registered, W3C Trace Context and Baggage still travel in _meta both ways', async () => {
    const h2 = harness({ registeredPropagator: false });
    try {
      let user: string | undefined;
      const { call, seen } = wire(h2, async () => {
        user = api.propagation.getBaggage(api.context.active())?.getEntry('user id')?.value;
        return {};
      });
      const bag = api.propagation.setBaggage(api.ROOT_CONTEXT, api.propagation.createBaggage({ 'user id': { value: 'alice & bob' } }));
      await api.context.with(bag, () => call('tools/call', { name: 'w' }));
      const client = h2.span('tools/call w', api.SpanKind.CLIENT);
      const server = h2.span('tools/call w', api.SpanKind.SERVER);
      expect(server.parentSpanContext?.spanId).to.equal(client.spanContext().spanId);
      expect(server.spanContext().traceId).to.equal(client.spanContext().traceId);
      expect((seen[0]!._meta as JsonObject).baggage).to.equal('user%20id=alice%20%26%20bob');
      expect(user).to.equal('alice & bob');
    } finally {
      await h2.shutdown();
    }
  });

  it('[OTEL-016] [OTEL-036] a notification (no id) has no jsonrpc.request.id', async () => {
    await runChain([h.telemetry.server], { method: 'notifications/resources/updated', params: { uri: 'file:///a' }, caller: { era: 'legacy' } }, async () => ({}));
    const s = h.span('notifications/resources/updated', api.SpanKind.SERVER);
    expect(s.attributes).not.to.have.property('jsonrpc.request.id');
    expect(s.attributes['mcp.resource.uri']).to.equal('file:///a');
  });

  it('a 2026-07-28 request names its protocol version in _meta: the server span records it', async () => {
    const params = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    await runChain([h.telemetry.server], { method: 'tools/list', params, caller: { era: 'modern' } }, async () => ({ tools: [] }));
    expect(h.span('tools/list', api.SpanKind.SERVER).attributes['mcp.protocol.version']).to.equal('2026-07-28');
  });

  it('a malformed traceparent in _meta is no parent: the server span starts a trace of its own', async () => {
    await runChain([h.telemetry.server], { method: 'ping', params: { _meta: { traceparent: 'not-a-traceparent' } }, caller: { era: 'modern' } }, async () => ({}));
    const s = h.span('ping', api.SpanKind.SERVER);
    expect(s.parentSpanContext).to.equal(undefined);
    expect(api.trace.isSpanContextValid(s.spanContext())).to.equal(true);
  });
});
