/**
 * `spreadCopy` stands in for `{ ...source }` where a key is then added (a spread copy is slow to
 * grow on Node 20): it must copy exactly what a spread copies, and a tool's result made with it
 * must reach the client as before.
 */
import { expect } from 'chai';
import { copyBySpread, copyJsonObject, copyKeyByKey, mergeBySpread, mergeKeyByKey, spreadCopy, spreadMerge } from '../../lib/jsonrpc/spread-copy.js';
import { connect, makeServer } from '../server-features/helpers.js';

describe('jsonrpc/spread-copy', () => {
  it('copyJsonObject: a parsed object copied as a spread copies it (own __proto__ as data, key order), a new key not on the source', () => {
    const parsed = JSON.parse('{"b":1,"2":"two","__proto__":{"polluted":true},"a":[3],"1":"one"}') as Record<string, unknown>;
    const copy = copyJsonObject(parsed);
    expect(Reflect.ownKeys(copy)).to.deep.equal(Reflect.ownKeys({ ...parsed }));
    expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).to.equal(undefined);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')).to.deep.include({ value: { polluted: true }, enumerable: true });
    expect(copy.a).to.equal(parsed.a);
    copy.added = true;
    expect(parsed).to.not.have.property('added');
    expect(JSON.stringify(copy)).to.equal(JSON.stringify(parsed).slice(0, -1) + ',"added":true}');
  });

  for (const [name, copyOf] of [['key by key', copyKeyByKey], ['by spread', copyBySpread], ['on this runtime', spreadCopy]] as const) {
    it(`${name}: copies own enumerable keys in a spread order, own __proto__ as data, enumerable symbols; not inherited or hidden ones`, () => {
      const tag = Symbol('tag');
      const hidden = Symbol('hidden');
      const parsed = JSON.parse('{"b":1,"2":"two","__proto__":{"polluted":true},"a":[3],"1":"one"}') as Record<string, unknown>;
      const source = Object.create({ inherited: 1 }) as Record<PropertyKey, unknown>;
      // (Defined, not assigned: an assigned `__proto__` would set the prototype.)
      for (const key of Object.keys(parsed)) Object.defineProperty(source, key, { value: parsed[key], enumerable: true, writable: true, configurable: true });
      source[tag] = 'yes';
      Object.defineProperty(source, hidden, { value: 'no', enumerable: false });
      Object.defineProperty(source, 'secret', { value: 'no', enumerable: false });
      let reads = 0;
      Object.defineProperty(source, 'got', { get: () => ++reads, enumerable: true });

      const copy = copyOf(source);
      const spread = { ...source };
      expect(Reflect.ownKeys(copy)).to.deep.equal(Reflect.ownKeys(spread));
      expect(Reflect.ownKeys(copy)).to.deep.equal(['1', '2', 'b', '__proto__', 'a', 'got', tag]);
      expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
      expect((copy as { polluted?: unknown }).polluted).to.equal(undefined);
      expect(Object.getOwnPropertyDescriptor(copy, '__proto__')).to.deep.include({ value: { polluted: true }, enumerable: true });
      expect(copy[tag]).to.equal('yes');
      expect(copy.a).to.equal(source.a);
      // A getter is read once, its value copied as data.
      expect(Object.getOwnPropertyDescriptor(copy, 'got')).to.deep.include({ value: 1, writable: true });
      copy.added = true;
      expect(source).to.not.have.property('added');
    });
  }

  for (const [name, mergeOf] of [['key by key', mergeKeyByKey], ['by spread', mergeBySpread], ['on this runtime', spreadMerge]] as const) {
    it(`${name}: merges as { ...first, ...second }: later keys win in place, new ones follow, own __proto__ and symbols kept`, () => {
      const tag = Symbol('tag');
      const first = JSON.parse('{"a":1,"b":2}') as Record<PropertyKey, unknown>;
      first[tag] = 'first';
      const second = JSON.parse('{"c":3,"a":"A","__proto__":{"q":2}}') as Record<PropertyKey, unknown>;
      second[tag] = 'second';
      const merged = mergeOf(first, second);
      expect(Reflect.ownKeys(merged)).to.deep.equal(Reflect.ownKeys({ ...first, ...second }));
      expect(Reflect.ownKeys(merged)).to.deep.equal(['a', 'b', 'c', '__proto__', tag]);
      expect(merged.a).to.equal('A');
      expect(Object.getOwnPropertyDescriptor(merged, '__proto__')!.value).to.deep.equal({ q: 2 });
      expect(Object.getPrototypeOf(merged)).to.equal(Object.prototype);
      expect(merged[tag]).to.equal('second');
      expect(first.a).to.equal(1);
    });
  }

  it('[TOOL-009] a tool answering structuredContent only gets its content and keeps its keys in order', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('w', {}, () => JSON.parse('{"structuredContent":{"t":22.5},"__proto__":{"x":1},"_meta":{"k":"v"}}') as { structuredContent: Record<string, unknown> });
    const { client } = await connect(mcp);
    const r = (await client.callTool('w', {})) as Record<string, any>;
    expect(Object.keys(r)).to.deep.equal(['structuredContent', '__proto__', '_meta', 'content']);
    expect(JSON.parse(r.content[0].text)).to.deep.equal({ t: 22.5 });
    expect(Object.getPrototypeOf(r)).to.equal(Object.prototype);
    expect(r._meta).to.deep.equal({ k: 'v' });
  });
});
