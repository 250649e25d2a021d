// A 2026-07-28 server puts the same server info in every result's `_meta`: it seals a copy of
// it once (sealedCopy), and a response carrying it is written by hand around its text. What goes
// on the wire must be JSON.stringify's bytes whatever the result holds, and the copy must be the
// info's data, unchangeable, and made only of plain JSON data.
import { expect } from 'chai';
import { encodeJson, sealJson, sealedCopy } from '../../lib/jsonrpc/sealed-json.js';

const INFO_KEY = 'io.modelcontextprotocol/serverInfo';

describe('jsonrpc: a response carrying a sealed server info is written as JSON.stringify writes it', () => {
  it('generated responses, sealed info or not: byte for byte JSON.stringify (ids, key orders, left-out values, toJSON at each level, other _meta keys, replaced info)', () => {
    // A small deterministic generator (no dependency): the same frames on every run.
    let seed = 0x0728;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 16) % n;
    };
    const pick = <T>(xs: readonly T[]): T => xs[next(xs.length)]!;
    const strings = ['', 'complete', 'a"b', 'back\\slash', 'line\nbreak', '\u0000nul', '\u2028\u2029', 'é😀', '\ud800 lone', '\u0000sealed-json:x:1', '</script>'];
    const keys = ['content', 'resultType', 'structuredContent', 'isError', '', '"', '1', '10', 'é', 'ttlMs', 'cacheScope', '__proto__', 'toJSONx'];
    const metaKeys = ['mine', 'io.modelcontextprotocol/related', 'traceparent', '2', 'é"'];
    const infos = [
      sealedCopy({ name: 'server"1', version: '1\n0', icons: [{ src: 'data:,x', sizes: ['16x16'] }] })!,
      sealedCopy({ name: 'two', version: '2', title: '\u2028' })!,
      sealJson({ name: 'sealed by hand', nested: sealJson({ deep: [null, 'x'] }) }),
    ];
    const values: (() => unknown)[] = [
      () => pick(strings),
      () => next(1000) - 500,
      () => next(1000) / 7,
      () => Number.NaN,
      () => -0,
      () => false,
      () => null,
      () => undefined,
      () => () => 1,
      () => Symbol('s'),
      () => [{ type: 'text', text: pick(strings) }, undefined, null],
      () => ({ text: pick(strings), n: next(10), skip: undefined }),
      () => pick(infos),
      () => new Date(Date.UTC(2026, 6, 28)),
      () => ({ toJSON: (key: string) => `key:${key}` }),
      () => ({ inner: pick(infos) }),
    ];
    const ids: (() => unknown)[] = [() => next(100_000), () => pick(strings), () => 1.5, () => -7, () => -0, () => null, () => Number.NaN, () => undefined];
    let handWritten = 0;
    for (let n = 0; n < 4000; n++) {
      const meta: Record<string, unknown> = {};
      const metaCount = next(3);
      for (let k = 0; k < metaCount; k++) meta[pick(metaKeys)] = pick(values)();
      const info = next(6);
      if (info <= 3) meta[INFO_KEY] = pick(infos);
      else if (info === 4) meta[INFO_KEY] = { name: 'replaced', version: '9' };
      if (next(6) === 0) meta.after = pick(values)();
      if (next(40) === 0) meta.toJSON = () => ({ swapped: true });
      const result: Record<string, unknown> = {};
      const count = next(4);
      const metaAt = next(count + 2);
      for (let k = 0; k <= count; k++) {
        if (k === metaAt) result._meta = next(30) === 0 ? pick(infos) : meta;
        const key = pick(keys);
        if (key === '__proto__') Object.defineProperty(result, key, { value: pick(values)(), enumerable: true, writable: true, configurable: true });
        else result[key] = pick(values)();
      }
      if (next(40) === 0) result.toJSON = (key: string) => ({ key });
      const frame: Record<string, unknown> = {};
      const shape = next(12);
      const body = shape === 0 ? [meta] : shape === 1 ? null : result;
      if (shape === 2) Object.assign(frame, { id: pick(ids)(), jsonrpc: '2.0', result: body });
      else if (shape === 3) Object.assign(frame, { jsonrpc: '2.0', result: body });
      else if (shape === 4) Object.assign(frame, { jsonrpc: '2.0', id: pick(ids)(), result: body, extra: 1 });
      else if (shape === 5) Object.assign(frame, { jsonrpc: '1.0', id: pick(ids)(), result: body });
      else if (shape === 6) Object.assign(frame, { jsonrpc: '2.0', id: pick(ids)(), error: { code: -32603, message: pick(strings), data: meta } });
      else if (shape === 7) Object.assign(Object.setPrototypeOf(frame, { inherited: 1 }) as object, { jsonrpc: '2.0', id: next(9), result: body });
      else Object.assign(frame, { jsonrpc: '2.0', id: pick(ids)(), result: body });
      if (next(50) === 0) frame.toJSON = () => 'frame';
      const expected = JSON.stringify(frame);
      expect(encodeJson(frame), expected).to.equal(expected);
      if (shape >= 8 && infos.includes(meta[INFO_KEY] as never) && result._meta === meta && typeof frame.id === 'number') handWritten++;
    }
    // Many frames have the modern answer's shape (the hand-written path).
    expect(handWritten).to.be.greaterThan(300);
  });

  it('the result the server makes: info, resultType and the handler\'s own _meta keys, every answer as JSON.stringify writes it', () => {
    const source = { name: 'srv', version: '1.0.0', title: 'Server "one"' };
    const info = sealedCopy(source)!;
    for (let id = 1; id <= 50; id++) {
      const frame = { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `t${id}` }], resultType: 'complete', _meta: { mine: id, [INFO_KEY]: info } } };
      expect(encodeJson(frame)).to.equal(JSON.stringify(frame));
      expect(JSON.parse(encodeJson(frame)).result._meta[INFO_KEY]).to.deep.equal(source);
    }
  });
});

describe('jsonrpc: sealedCopy', () => {
  it('copies plain JSON data deeply: equal, not the same objects, frozen all through, blind to later changes of the source', () => {
    const source = { name: 'srv', version: '1', icons: [{ src: 'https://x/i.png', sizes: ['16x16', '32x32'] }], extra: { n: 1.5, ok: true, none: null } };
    const copy = sealedCopy(source)!;
    expect(copy).to.deep.equal(source);
    expect(copy).to.not.equal(source);
    expect(copy.icons).to.not.equal(source.icons);
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.icons) && Object.isFrozen(copy.icons[0]) && Object.isFrozen(copy.icons[0]!.sizes) && Object.isFrozen(copy.extra)).to.equal(true);
    expect(() => {
      (copy as { name: string }).name = 'changed';
    }).to.throw(TypeError);
    source.name = 'renamed';
    source.icons[0]!.sizes.push('64x64');
    expect(copy.name).to.equal('srv');
    expect(encodeJson({ jsonrpc: '2.0', id: 1, result: { _meta: { info: copy } } })).to.equal('{"jsonrpc":"2.0","id":1,"result":{"_meta":{"info":{"name":"srv","version":"1","icons":[{"src":"https://x/i.png","sizes":["16x16","32x32"]}],"extra":{"n":1.5,"ok":true,"none":null}}}}}');
    expect(Object.keys(copy)).to.deep.equal(['name', 'version', 'icons', 'extra']);
  });

  it('copies nothing that is not plain JSON data (the caller then sends the value itself)', () => {
    class Info {
      name = 'x';
    }
    const cyclic: Record<string, unknown> = { name: 'x' };
    cyclic.self = cyclic;
    const sparse = ['a'];
    sparse[2] = 'c';
    const refused: object[] = [
      new Info(),
      { name: 'x', when: new Date(0) },
      {
        get name() {
          return 'x';
        },
      },
      { name: 'x', toJSON: () => ({}) },
      { name: 'x', version: undefined },
      { name: 'x', n: Number.NaN },
      { name: 'x', n: Number.POSITIVE_INFINITY },
      { name: 'x', f: () => 1 },
      { name: 'x', [Symbol('s')]: 1 },
      { name: 'x', list: sparse },
      Object.defineProperty({ name: 'x' }, 'hidden', { value: 1, enumerable: false }),
      JSON.parse('{"__proto__":{"x":1}}') as object,
      cyclic,
    ];
    for (const value of refused) expect(sealedCopy(value), JSON.stringify(Object.keys(value))).to.equal(undefined);
    expect(sealedCopy(Object.assign(Object.create(null) as object, { name: 'no prototype' }))).to.deep.equal({ name: 'no prototype' });
  });
});
