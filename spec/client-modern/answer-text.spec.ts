// A 2026-07-28 client reads the usual result line without parsing the tail every answer repeats
// (`resultType` and `_meta` with the server's info: lib/client-modern/answer-text.ts). What it
// hands on must be what JSON.parse makes of the whole line: the same keys in the same order,
// fresh objects per answer, and any line it cannot vouch for left to JSON.parse.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { AnswerText } from '../../lib/client-modern/answer-text.js';
import type { FrameEvent } from '../../lib/session/session.js';
import { createMemoryPair } from '../../streams/memory.js';

const INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const INFO = '{"name":"srv","version":"1.0.0"}';
const tailOf = (info: string) => `,"resultType":"complete","_meta":{"${INFO_KEY}":${info}}}}`;
const line = (id: string, members: string, info = INFO) => `{"jsonrpc":"2.0","id":${id},"result":{${members}${tailOf(info)}`;

/** Deep equality with key order, own `__proto__` keys and prototypes: what `JSON.stringify` and `Object.keys` would show. */
function sameValue(a: unknown, b: unknown): void {
  if (a === null || typeof a !== 'object') return void expect(a).to.equal(b);
  expect(b !== null && typeof b === 'object').to.equal(true);
  expect(Array.isArray(a)).to.equal(Array.isArray(b));
  expect(Object.getPrototypeOf(a)).to.equal(Object.getPrototypeOf(b));
  expect(Object.keys(a)).to.deep.equal(Object.keys(b as object));
  for (const k of Object.keys(a)) sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]);
}

/** What the link does with a line JSON.parse read. */
const learnt = (r: AnswerText, text: string) => r.learn(text, JSON.parse(text).result);

/** A reader that has seen one answer of the server with `INFO`. */
function reader(info = INFO): AnswerText {
  const r = new AnswerText();
  learnt(r, line('1', '"content":[]', info));
  return r;
}

describe('client: the result tail is read once (2026-07-28, AnswerText)', () => {
  it('a usual line is read as JSON.parse reads it: its id, its members, then resultType and _meta with the server info', () => {
    const r = reader();
    const text = line('42', '"content":[{"type":"text","text":"hi"}],"isError":false');
    const result = r.read(text);
    expect(result).to.not.equal(undefined);
    expect(r.id).to.equal(42);
    sameValue(result, JSON.parse(text).result);
    expect(Object.keys(result!)).to.deep.equal(['content', 'isError', 'resultType', '_meta']);
  });

  it('nothing is read before a tail was learnt, nor a tail with other server info (that one is learnt next)', () => {
    const text = line('7', '"content":[]');
    expect(new AnswerText().read(text)).to.equal(undefined);
    const r = reader('{"name":"other","version":"2"}');
    expect(r.read(text)).to.equal(undefined);
    learnt(r, text);
    sameValue(r.read(text), JSON.parse(text).result);
  });

  it('a tail is learnt only as compact JSON writes the result\'s own server info, and from a copy: the answer that taught it may be changed', () => {
    const r = new AnswerText();
    const spaced = line('1', '"a":1', '{"name": "srv","version":"1.0.0"}');
    learnt(r, spaced);
    expect(r.read(line('2', '"a":1'))).to.equal(undefined);
    const first = JSON.parse(line('3', '"a":1')).result;
    r.learn(line('3', '"a":1'), first);
    first._meta[INFO_KEY].name = 'changed';
    const next = line('4', '"a":1');
    sameValue(r.read(next), JSON.parse(next).result);
  });

  it('members the tail repeats keep their place and take the tail\'s values, as JSON.parse does with a repeated key', () => {
    const r = reader();
    const text = line('3', '"_meta":{"mine":1},"resultType":"input_required","content":[],"__proto__":{"x":1}');
    const result = r.read(text)!;
    sameValue(result, JSON.parse(text).result);
    expect(Object.keys(result)).to.deep.equal(['_meta', 'resultType', 'content', '__proto__']);
    expect(result.resultType).to.equal('complete');
    expect(result._meta).to.deep.equal({ [INFO_KEY]: { name: 'srv', version: '1.0.0' } });
    expect(Object.getPrototypeOf(result)).to.equal(Object.prototype);
  });

  it('each answer gets its own objects: changing one result\'s server info leaves the next one as sent', () => {
    const r = reader('{"name":"srv","icons":[{"src":"a.png"}],"__proto__":{"p":1}}');
    const text = line('5', '"content":[]', '{"name":"srv","icons":[{"src":"a.png"}],"__proto__":{"p":1}}');
    const first = r.read(text)!;
    const info = (first._meta as Record<string, any>)[INFO_KEY];
    sameValue(first, JSON.parse(text).result);
    info.name = 'changed';
    info.icons[0].src = 'changed';
    info.__proto__.p = 2;
    const second = r.read(text)!;
    sameValue(second, JSON.parse(text).result);
    expect((second._meta as Record<string, any>)[INFO_KEY].icons[0].src).to.equal('a.png');
  });

  it('lines it cannot vouch for are left to JSON.parse: an empty result (not JSON whole), other ids, spacing, an error, broken members', () => {
    const r = reader();
    const refused = [
      line('1', ''), // `"result":{,"resultType"...`: JSON.parse refuses the whole line
      line('1', '"a":1 '),
      line('01', '"a":1'),
      line('-1', '"a":1'),
      line('"s"', '"a":1'),
      line('1234567890123456', '"a":1'),
      line('1', '"a":1').replace('{"jsonrpc":"2.0",', '{"jsonrpc": "2.0",'),
      line('1', '"a":[1'),
      line('1', '"a":"x'),
      `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":{${tailOf(INFO).slice(1)}`,
      `{"jsonrpc":"2.0","id":1,"result":{"a":1},"x":{"b":2${tailOf(INFO)}`,
      `{"jsonrpc":"2.0","id":1}`,
    ];
    for (const text of refused) expect(r.read(text), text).to.equal(undefined);
    expect(r.read(line('0', '"a":1'))).to.deep.include({ a: 1 });
    expect(r.id).to.equal(0);
    expect(r.read(line('123456789012345', '"a":1'))).to.not.equal(undefined);
    expect(r.id).to.equal(123456789012345);
  });

  it('generated lines, some broken: whatever it reads is what JSON.parse reads, and it reads nothing JSON.parse refuses', () => {
    // A small deterministic generator (no dependency): the same lines on every run.
    let seed = 0x2607;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 16) % n;
    };
    const values = ['1', '"s"', '"\\"}"', 'null', 'true', '[]', '[1,{"a":"}"}]', '{}', '{"resultType":"x"}', '{"_meta":{"k":1}}', '"x,\\"_meta\\":{"'];
    const keys = ['"a"', '"content"', '"_meta"', '"resultType"', '"__proto__"', '"1"', '"}"'];
    const r = reader();
    let read = 0;
    for (let i = 0; i < 3000; i++) {
      const members: string[] = [];
      for (let m = 1 + next(4); m > 0; m--) members.push(`${keys[next(keys.length)]}:${values[next(values.length)]}`);
      let text = line(String(next(1000)), members.join(','));
      const cut = next(6);
      // Some lines broken: a character dropped or doubled somewhere.
      if (cut === 0) {
        const at = next(text.length);
        text = text.slice(0, at) + text.slice(at + 1);
      } else if (cut === 1) {
        const at = next(text.length);
        text = text.slice(0, at) + text[at] + text.slice(at);
      }
      let parsed: { id: number; result: unknown } | undefined;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const result = r.read(text);
      if (result === undefined) continue;
      read++;
      expect(parsed, text).to.not.equal(undefined);
      expect(r.id, text).to.equal(parsed!.id);
      sameValue(result, parsed!.result);
    }
    expect(read).to.be.greaterThan(1500);
  });

  it('a client over JSON text: tool results as sent, frames$ shows the parsed frames, and a server that changes its info is believed', async () => {
    const [a, b] = createMemoryPair({ serialize: true });
    let info: Record<string, unknown> = { name: 'srv', version: '1' };
    b.inbound$.subscribe((raw) => {
      const m = JSON.parse(raw as string) as { id?: number; method?: string; params?: { arguments?: { text?: string } } };
      if (m.id === undefined) return;
      const result: Record<string, unknown> =
        m.method === 'server/discover'
          ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }
          : { content: [{ type: 'text', text: String(m.params?.arguments?.text) }] };
      b.send({ jsonrpc: '2.0', id: m.id, result: { ...result, resultType: 'complete', _meta: { [INFO_KEY]: info } } } as never);
    });
    const client = new Client({ era: 'modern', info: { name: 'spec', version: '1' } });
    await client.connect(a);
    const frames: FrameEvent[] = [];
    const sub = client.frames$.subscribe((f) => frames.push(f));
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await client.callTool('echo', { text: `t${i}` }));
    info = { name: 'srv', version: '2' };
    results.push(await client.callTool('echo', { text: 't3' }), await client.callTool('echo', { text: 't4' }));
    sub.unsubscribe();
    await client.close();
    const versions = results.map((r) => ((r._meta as Record<string, any>)[INFO_KEY] as { version: string }).version);
    expect(versions).to.deep.equal(['1', '1', '1', '2', '2']);
    expect(results.map((r) => (r.content[0] as { text: string }).text)).to.deep.equal(['t0', 't1', 't2', 't3', 't4']);
    expect(results[1]!._meta).to.not.equal(results[2]!._meta);
    const inbound = frames.filter((f) => f.direction === 'in').map((f) => f.frame as { id: number; result: Record<string, unknown> });
    expect(inbound).to.have.length(5);
    for (const [i, f] of inbound.entries()) {
      expect(Object.keys(f)).to.deep.equal(['jsonrpc', 'id', 'result']);
      expect(f.result).to.equal(results[i]);
    }
  });

  it('the depth limit holds as for a line parsed whole: a result at the limit is handed on, one level more is refused; long lines are read too', async () => {
    const [a, b] = createMemoryPair({ serialize: true });
    b.inbound$.subscribe((raw) => {
      const m = JSON.parse(raw as string) as { id?: number; method?: string; params?: { arguments?: { depth?: number; text?: string } } };
      if (m.id === undefined) return;
      const info = { [INFO_KEY]: { name: 'srv', version: '1' } };
      if (m.method === 'server/discover') return void b.send({ jsonrpc: '2.0', id: m.id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, resultType: 'complete', _meta: info } } as never);
      // The line: 1, its result 2, structuredContent 3, then `depth` arrays.
      const depth = m.params?.arguments?.depth ?? 0;
      const nested = depth === 0 ? null : (JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown);
      b.send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: m.params?.arguments?.text ?? '' }], structuredContent: { v: nested }, resultType: 'complete', _meta: info } } as never);
    });
    const client = new Client({ era: 'modern', info: { name: 'spec', version: '1' } });
    const kinds: string[] = [];
    client.diagnostics$.subscribe((d) => kinds.push(d.kind));
    await client.connect(a);
    const atLimit = await client.callTool('echo', { depth: 125 });
    let v: unknown = (atLimit.structuredContent as { v: unknown }).v;
    for (let level = 0; level < 124; level++) v = (v as unknown[])[0];
    expect(v).to.deep.equal([]);
    const long = 'x'.repeat(2_000);
    expect((await client.callTool('echo', { text: long })).content).to.deep.equal([{ type: 'text', text: long }]);
    expect(kinds).to.not.include('invalid-frame');
    const abort = new AbortController();
    const over = client.callTool('echo', { depth: 126 }, { signal: abort.signal }).then(() => 'answered', () => 'failed');
    await new Promise((r) => setImmediate(r));
    expect(kinds).to.include('invalid-frame');
    abort.abort();
    expect(await over).to.equal('failed');
    await client.close();
  });
});
