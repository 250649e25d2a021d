// The 2026-07-28 `_meta` envelope is serialized once per client (lib/jsonrpc/sealed-json.ts):
// stdio and HTTP splice its text into each request instead of encoding it again (about half of a
// small request's encoding). What goes on the wire must not change, nor what anyone else sees of
// the object (its keys, copies, its JSON anywhere but in a frame's encoding).
import { expect } from 'chai';
import { encodeJson, sealJson } from '../../lib/jsonrpc/sealed-json.js';
import { encodeFrame } from '../../lib/jsonrpc/codec.js';
import { Client } from '../../lib/entries/client.js';
import { createMemoryPair } from '../../streams/memory.js';

describe('client: the request envelope is serialized once (2026-07-28)', () => {
  it('a sealed object is read once: a hundred frames carrying it never read it again, and their text is JSON.stringify\'s', () => {
    let reads = 0;
    const caps = { roots: {}, sampling: { tools: {} } };
    const envelope = sealJson({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      get 'io.modelcontextprotocol/clientCapabilities'() {
        reads++;
        return caps;
      },
    });
    expect(reads).to.equal(1);
    for (let id = 1; id <= 100; id++) {
      const frame = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `t${id}` }, _meta: envelope } };
      const text = encodeJson(frame);
      expect(JSON.parse(text)).to.deep.equal({ ...frame, params: { ...frame.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': caps } } });
    }
    expect(reads).to.equal(1);
  });

  it('elsewhere a sealed object is as before: its keys, spread and structuredClone, JSON.stringify of it (read afresh)', () => {
    const inner = { a: 1 };
    const sealed = sealJson({ inner, list: [1, 2] });
    expect(Object.keys(sealed)).to.deep.equal(['inner', 'list']);
    expect({ ...sealed }).to.deep.equal({ inner, list: [1, 2] });
    expect(structuredClone(sealed)).to.deep.equal({ inner: { a: 1 }, list: [1, 2] });
    expect(JSON.stringify({ x: sealed })).to.equal('{"x":{"inner":{"a":1},"list":[1,2]}}');
  });

  it('the same sealed object twice in a frame, two sealed objects, a string that looks like a placeholder: each in its place', () => {
    const a = sealJson({ a: 'x' });
    const b = sealJson({ b: ['y'] });
    const frame = { jsonrpc: '2.0', method: 'm', params: { first: a, second: b, third: a, text: '\u0000sealed-json:not-ours:1', _meta: a } };
    expect(encodeFrame(frame as never)).to.equal(JSON.stringify(frame));
  });

  it('a frame that cannot be encoded throws as before, and the next one is encoded right', () => {
    const a = sealJson({ a: 1 });
    const cyclic: Record<string, unknown> = { _meta: a };
    cyclic.self = cyclic;
    expect(() => encodeJson({ params: cyclic })).to.throw(TypeError);
    expect(encodeJson({ params: { n: 1 } })).to.equal('{"params":{"n":1}}');
    expect(encodeJson({ params: { _meta: a } })).to.equal('{"params":{"_meta":{"a":1}}}');
  });

  it('generated requests, their _meta sealed or not: the text is byte for byte JSON.stringify\'s (odd methods, string ids, escapes, key orders, left-out values, nested sealed objects)', () => {
    // A small deterministic generator (no dependency): the same frames on every run.
    let seed = 0x2026;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 16) % n;
    };
    const pick = <T>(xs: readonly T[]): T => xs[next(xs.length)]!;
    const strings = ['', 'tools/call', 'a"b', 'back\\slash', 'line\nbreak', '\u0000nul', 'tab\t', '\u2028\u2029', 'é😀', '\ud800 lone', '\u0000sealed-json:x:1', '</script>'];
    const keys = ['name', 'arguments', '', '"', '1', '10', 'é', 'a b', '_meta2', 'toJSONx'];
    const sealedInfo = sealJson({ name: 'c"lient', version: '1\n0', nested: sealJson({ deep: ['x', { y: null }] }) });
    const envelopes = [
      sealJson({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': sealedInfo }),
      sealJson({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/logLevel': 'debug', 'é"': '\u2028' }),
    ];
    const values: (() => unknown)[] = [
      () => pick(strings),
      () => next(1000) - 500,
      () => next(1000) / 7,
      () => Number.NaN,
      () => -0,
      () => true,
      () => null,
      () => undefined,
      () => () => 1,
      () => Symbol('s'),
      () => [pick(strings), undefined, null, { k: pick(strings) }],
      () => ({ text: pick(strings), n: next(10), skip: undefined }),
      () => sealedInfo,
      () => new Date(Date.UTC(2026, 10, 29)),
      () => ({ toJSON: (key: string) => `key:${key}` }),
      () => ({ inner: sealJson({ a: pick(strings) }) }),
    ];
    const ids: (() => unknown)[] = [() => next(100_000), () => pick(strings), () => 1.5, () => -7, () => null, () => Number.POSITIVE_INFINITY];
    let fast = 0;
    for (let n = 0; n < 2000; n++) {
      const params: Record<string, unknown> = {};
      const count = next(4);
      const metaAt = next(count + 2);
      for (let k = 0; k <= count; k++) {
        if (k === metaAt) params._meta = pick(envelopes);
        params[pick(keys)] = pick(values)();
      }
      if (next(8) === 0) params._meta = { plain: 'not sealed' };
      const frame: Record<string, unknown> = {};
      const shape = next(10);
      if (shape === 0) Object.assign(frame, { id: pick(ids)(), jsonrpc: '2.0', method: pick(strings), params });
      else if (shape === 1) Object.assign(frame, { jsonrpc: '2.0', method: pick(strings), params });
      else if (shape === 2) Object.assign(frame, { jsonrpc: '2.0', id: pick(ids)(), method: pick(strings), params, extra: 1 });
      else if (shape === 3) Object.assign(frame, { jsonrpc: '1.0', id: pick(ids)(), method: pick(strings), params });
      else Object.assign(frame, { jsonrpc: '2.0', id: pick(ids)(), method: pick(strings), params });
      const expected = JSON.stringify(frame);
      expect(encodeJson(frame), expected).to.equal(expected);
      if (shape >= 4 && (typeof frame.id === 'number' || typeof frame.id === 'string') && envelopes.includes(params._meta as never)) fast++;
    }
    // Most frames have the request shape with a sealed envelope (the hand-written path).
    expect(fast).to.be.greaterThan(500);
  });

  it('over a serializing transport each request carries the whole envelope, with a trace where asked', async () => {
    const [a, b] = createMemoryPair({ serialize: true });
    const seen: { method?: string; params?: { _meta?: Record<string, unknown> } }[] = [];
    b.inbound$.subscribe((raw) => {
      const m = JSON.parse(raw as string) as { id?: number; method?: string; params?: { _meta?: Record<string, unknown> } };
      seen.push(m);
      if (m.method === 'server/discover') void b.send({ jsonrpc: '2.0', id: m.id!, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } } as never);
      if (m.method === 'tools/call') void b.send({ jsonrpc: '2.0', id: m.id!, result: { resultType: 'complete', content: [] } } as never);
    });
    const info = { name: 'spec', version: '1.0.0' };
    const client = new Client({ info, era: 'modern' });
    client.onSampling(async () => ({ role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }));
    await client.connect(a);
    await client.callTool('echo', { text: 'one' });
    await client.callTool('echo', { text: 'two' }, { trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
    const calls = seen.filter((m) => m.method === 'tools/call');
    expect(calls).to.have.length(2);
    for (const call of calls) {
      expect(call.params!._meta!['io.modelcontextprotocol/protocolVersion']).to.equal('2026-07-28');
      expect(call.params!._meta!['io.modelcontextprotocol/clientCapabilities']).to.have.keys('sampling');
      expect(call.params!._meta!['io.modelcontextprotocol/clientInfo']).to.deep.equal({ name: 'spec', version: '1.0.0' });
    }
    expect(calls[1]!.params!._meta!.traceparent).to.equal('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    await client.close();
  });
});
