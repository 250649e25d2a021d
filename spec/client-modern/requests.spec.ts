// What every modern (2026-07-28) request of our client carries, and how it ends one early: the
// _meta envelope on each request, notifications/cancelled on abort and on timeout (simulated
// clock), a late answer ignored, the client usable afterwards.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { RequestCancelledError, RequestTimeoutError } from '../../lib/errors.js';
import { createMemoryPair } from '../../streams/memory.js';

type Msg = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, any>; result?: unknown };
const V = '2026-07-28';
const DISCOVER = { resultType: 'complete', supportedVersions: [V], capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} }, ttlMs: 0, cacheScope: 'public' };
const tick = () => new Promise((r) => setImmediate(r));

/** Answers discover and lists at once; holds tools/call until `answer(id)`. */
function server() {
  const [a, b] = createMemoryPair();
  const seen: Msg[] = [];
  const reply = (id: Msg['id'], result: unknown) => void b.send({ jsonrpc: '2.0', id: id!, result } as never);
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push(m);
    if (m.method === 'server/discover') reply(m.id, DISCOVER);
    if (m.method === 'tools/list') reply(m.id, { resultType: 'complete', tools: [{ name: 'slow', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'public' });
    if (m.method === 'prompts/list') reply(m.id, { resultType: 'complete', prompts: [], ttlMs: 0, cacheScope: 'public' });
    if (m.method === 'resources/list') reply(m.id, { resultType: 'complete', resources: [], ttlMs: 0, cacheScope: 'public' });
    if (m.method === 'completion/complete') reply(m.id, { resultType: 'complete', completion: { values: ['x1'] } });
  });
  const answer = (id: Msg['id'], text: string) => reply(id, { resultType: 'complete', content: [{ type: 'text', text }] });
  const progress = (progressToken: string | number, value: number) => void b.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: value } } as never);
  return { transport: a, seen, answer, progress };
}

describe('client: modern requests (2026-07-28)', () => {
  it('[MRTR-002] [BASE-103] [TOOL-036] [RES-022] [PROMPT-028] [PAGE-018] [ROOTS-062] [SAMP-050] [ELICIT-074] [COMPL-028] every request carries the protocol version, the client capabilities it supports and client info in _meta', async () => {
    const s = server();
    const client = new Client({ info: { name: 'spec', version: '1.2.3' }, era: 'auto' });
    client.onElicitation({ form: async () => ({ action: 'decline' }) });
    client.onSampling(async () => ({ role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }));
    client.setRoots([]);
    await client.connect(s.transport);
    await client.listTools();
    await client.listPrompts();
    await client.listResources();
    expect((await client.complete({ type: 'ref/prompt', name: 'p' }, { name: 'a', value: 'x' })).completion.values).to.deep.equal(['x1']);
    const call = client.callTool('slow');
    await tick();
    s.answer(s.seen.find((m) => m.method === 'tools/call')!.id, 'ok');
    await call;
    const requests = s.seen.filter((m) => m.id !== undefined);
    expect(requests.map((m) => m.method)).to.include.members(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'completion/complete', 'tools/call']);
    for (const m of requests) {
      const meta = m.params?._meta ?? {};
      expect(meta['io.modelcontextprotocol/protocolVersion'], m.method).to.equal(V);
      expect(meta['io.modelcontextprotocol/clientCapabilities'], m.method).to.include.keys('roots', 'sampling', 'elicitation');
      expect(meta['io.modelcontextprotocol/clientInfo'], m.method).to.deep.equal({ name: 'spec', version: '1.2.3' });
    }
    expect(s.seen.some((m) => m.method === 'initialize')).to.equal(false);
    await client.close();
  });

  it('[BASE-109] trace context goes into _meta as given when it follows W3C Trace Context and Baggage; a malformed value is refused before anything is sent', async () => {
    const s = server();
    const client = new Client({ info: { name: 'spec', version: '1.2.3' }, era: 'auto' });
    await client.connect(s.transport);
    const trace = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'congo=t61rcWkgMzE,rojo@sys=00f067aa0ba902b7', baggage: 'userId=alice,serverNode=DF%2028;ttl=60' };
    await client.listTools({ trace, fresh: true });
    const sent = s.seen.filter((m) => m.method === 'tools/list').at(-1)!;
    expect(sent.params!._meta).to.deep.include(trace);
    const before = s.seen.length;
    for (const bad of [{ traceparent: '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01' }, { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' }, { tracestate: 'Upper=x' }, { baggage: 'no-equals-sign' }]) {
      const e = await client.listTools({ trace: bad, fresh: true }).then(() => undefined, (err: unknown) => err);
      expect(e, JSON.stringify(bad)).to.be.instanceOf(TypeError);
      expect((e as Error).message).to.match(/does not follow W3C (Trace Context|Baggage)/);
    }
    expect(s.seen.length).to.equal(before); // nothing was sent for them
    await client.close();
  });

  it("a request's own _meta and trace go with that request only: the next one carries the envelope alone, and the caller's params are left as given", async () => {
    const s = server();
    const client = new Client({ info: { name: 'spec', version: '1.2.3' }, era: 'auto' });
    await client.connect(s.transport);
    const params = { _meta: { 'example.com/mark': 'first' } };
    const trace = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };
    await client.request('tools/list', params, { trace });
    await client.request('tools/list', {});
    const [first, second] = s.seen.filter((m) => m.method === 'tools/list').map((m) => m.params!._meta);
    expect(first).to.include({ 'example.com/mark': 'first', traceparent: trace.traceparent, 'io.modelcontextprotocol/protocolVersion': V });
    expect(second).to.include({ 'io.modelcontextprotocol/protocolVersion': V });
    expect(second).to.not.have.any.keys('example.com/mark', 'traceparent');
    expect(params).to.deep.equal({ _meta: { 'example.com/mark': 'first' } });
    await client.close();
  });

  it('[BASE-061] concurrent requests get distinct ids', async () => {
    const s = server();
    const client = new Client({ info: { name: 'spec', version: '1' }, era: 'auto' });
    await client.connect(s.transport);
    const calls = [client.callTool('slow'), client.callTool('slow'), client.callTool('slow'), client.listTools()];
    await tick();
    const ids = s.seen.filter((m) => m.id !== undefined).map((m) => m.id);
    expect(new Set(ids).size).to.equal(ids.length);
    for (const m of s.seen.filter((x) => x.method === 'tools/call')) s.answer(m.id, String(m.id));
    const texts = (await Promise.all(calls.slice(0, 3))).map((r) => (r as { content: { text: string }[] }).content[0]!.text);
    expect(new Set(texts).size).to.equal(3);
    await calls[3];
    await client.close();
  });

  it('[CANCEL-047] [CANCEL-065] [CANCEL-058] an aborted call sends notifications/cancelled with its id; the late answer is ignored', async () => {
    const s = server();
    const client = new Client({ info: { name: 'spec', version: '1' }, era: 'auto' });
    await client.connect(s.transport);
    const abort = new AbortController();
    const call = client.callTool('slow', {}, { signal: abort.signal });
    await tick();
    const id = s.seen.find((m) => m.method === 'tools/call')!.id;
    abort.abort();
    const err = await call.then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(RequestCancelledError);
    const cancelled = s.seen.find((m) => m.method === 'notifications/cancelled');
    expect(cancelled?.params!.requestId).to.equal(id);
    s.answer(id, 'too late');
    await tick();
    const next = client.callTool('slow');
    await tick();
    const calls = s.seen.filter((m) => m.method === 'tools/call');
    expect(calls[1]!.id).to.not.equal(id);
    s.answer(calls[1]!.id, 'second');
    expect(((await next).content[0] as { text: string }).text).to.equal('second');
    await client.close();
  });

  it('[CANCEL-052] [CANCEL-002] sends notifications/cancelled only for its own request still in flight: not once it is answered, nor on close', async () => {
    const s = server();
    const client = new Client({ info: { name: 'spec', version: '1' }, era: 'auto' });
    await client.connect(s.transport);
    const abort = new AbortController();
    const call = client.callTool('slow', {}, { signal: abort.signal });
    await tick();
    const id = s.seen.find((m) => m.method === 'tools/call')!.id;
    s.answer(id, 'done');
    expect(((await call).content[0] as { text: string }).text).to.equal('done');
    abort.abort();
    await tick();
    expect(s.seen.filter((m) => m.method === 'notifications/cancelled')).to.deep.equal([]);
    await client.close();
    await tick();
    expect(s.seen.filter((m) => m.method === 'notifications/cancelled')).to.deep.equal([]);
  });

  it('[CANCEL-048] [CANCEL-049] [CANCEL-050] a call that passes its per-request timeout fails with RequestTimeoutError and is cancelled (simulated clock)', async () => {
    const clock = new ManualClock(0);
    const s = server();
    const client = new Client({ info: { name: 'spec', version: '1' }, era: 'auto', clock });
    await client.connect(s.transport);
    const call = client.callTool('slow', {}, { timeout: 500 });
    const settled = call.then(() => undefined, (e: unknown) => e);
    await tick();
    const id = s.seen.find((m) => m.method === 'tools/call')!.id;
    clock.advance(499);
    await tick();
    expect(s.seen.some((m) => m.method === 'notifications/cancelled')).to.equal(false);
    clock.advance(1);
    expect(await settled).to.be.instanceOf(RequestTimeoutError);
    expect(s.seen.find((m) => m.method === 'notifications/cancelled')?.params!.requestId).to.equal(id);
    await client.close();
  });

  it('[CANCEL-051] progress resets the timeout, but maxTotalTimeout ends the call however much progress arrives (simulated clock)', async () => {
    const clock = new ManualClock(0);
    const s = server();
    const client = new Client({ info: { name: 'spec', version: '1' }, era: 'auto', clock });
    await client.connect(s.transport);
    const call = client.callTool('slow', {}, { timeout: 500, resetTimeoutOnProgress: true, maxTotalTimeout: 2000 });
    const settled = call.then(() => undefined, (e: unknown) => e);
    await tick();
    const request = s.seen.find((m) => m.method === 'tools/call')!;
    const token = request.params!._meta.progressToken as string;
    expect(token).to.not.equal(undefined);
    for (let t = 400; t < 2000; t += 400) {
      clock.advance(400);
      s.progress(token, t);
      await tick();
    }
    // 1600 ms in, past three idle timeouts, still waiting thanks to progress.
    expect(s.seen.some((m) => m.method === 'notifications/cancelled')).to.equal(false);
    clock.advance(400);
    const error = await settled;
    expect(error).to.be.instanceOf(RequestTimeoutError);
    expect((error as RequestTimeoutError).message).to.contain('2000');
    expect(s.seen.find((m) => m.method === 'notifications/cancelled')?.params!.requestId).to.equal(request.id);
    await client.close();
  });
});
