// A request line that ends with the same `_meta` envelope as an earlier one is parsed without
// it, and a copy of the envelope's value put in its place. The value must be exactly what
// JSON.parse makes of the whole line (or the text handed on as it was, when it is not JSON), for
// any line, however it was made to look like one of ours; and each request gets its own envelope.
import { expect } from 'chai';
import { parseFrame } from '../../streams/parse-json.js';
import { forgetKnownMeta, knownMetaServed } from '../../streams/known-meta.js';
import { DeepFrame } from '../../streams/transport.js';
import { listen } from '../../lib/http/listen-port.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { post } from '../fixtures/http-server/raw.js';

const LIMIT = 4 * 1024 * 1024;
const ENVELOPE = JSON.stringify({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: { tools: {} }, list: [1, { a: null }] },
  'io.modelcontextprotocol/clientInfo': { name: 'spec "client"', version: '1.0.0', title: 'é\u2028' },
});
const TAIL = `,"_meta":${ENVELOPE}}}`;
const line = (id: number | string, members = '"name":"echo","arguments":{"text":"hi"}'): string =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{${members}${TAIL}`;

/** What parseFrame made of `text` before: the parsed object or array, else the text itself. */
function reference(text: string): unknown {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' ? value : text;
  } catch {
    return text;
  }
}

/** The same value, keys in the same order (JSON.stringify writes them in order; own `__proto__` keys too). */
function expectSame(actual: unknown, expected: unknown, text: string): void {
  expect(actual, text).to.deep.equal(expected);
  expect(JSON.stringify(actual), text).to.equal(JSON.stringify(expected));
}

describe('streams: a request line ending with a known _meta envelope', () => {
  beforeEach(() => forgetKnownMeta());

  it('is parsed to the value JSON.parse makes, each request with an envelope of its own', () => {
    const first = parseFrame(line(1), LIMIT) as { params: { _meta: Record<string, unknown> } };
    const second = parseFrame(line(2), LIMIT) as { params: { _meta: Record<string, { name?: string }> } };
    const third = parseFrame(line('three'), LIMIT) as { params: { _meta: Record<string, unknown> } };
    expect(knownMetaServed()).to.equal(2);
    expectSame(second, JSON.parse(line(2)), line(2));
    expectSame(third, JSON.parse(line('three')), line('three'));
    // A handler that changes its request's envelope changes no other request's.
    second.params._meta['io.modelcontextprotocol/clientInfo']!.name = 'changed';
    (second.params._meta as { added?: number }).added = 1;
    expect(first.params._meta).to.not.equal(second.params._meta);
    expect(third.params._meta['io.modelcontextprotocol/clientInfo']).to.not.equal(second.params._meta['io.modelcontextprotocol/clientInfo']);
    expectSame(parseFrame(line(4), LIMIT), JSON.parse(line(4)), line(4));
  });

  it('lines made to look like ours (repeated keys, another last member, the cut inside a string, an empty params, broken JSON) are what JSON.parse makes of them', () => {
    parseFrame(line(0), LIMIT);
    const head = '{"jsonrpc":"2.0","id":1,"method":"m","params":';
    const prefixes = [
      `${head}{"a":1`,
      `${head}{"a":1},"x":{"b":2`,
      `{"q":1,"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1},"q":{"b":2`,
      `{"method":"m","jsonrpc":"2.0","id":1,"params":{"a":1},"method":{"b":2`,
      `{"jsonrpc":"2.0","id":{"n":1},"method":"m","params":{"a":1},"id":{"b":2`,
      `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1},"params":{"b":2`,
      `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1},"jsonrpc":{"b":2`,
      `${head}{`,
      `${head}{"_meta":5,"a":1`,
      `${head}{"_meta":{"mine":true}`,
      `${head}{"a":"x`,
      `${head}{"a":"\\`,
      `${head}{"a":tru`,
      `${head}{"a":1.`,
      `${head}{"a":{"b":1`,
      `${head}[1`,
      `${head}{"a":[1`,
      `${head}{"__proto__":{"polluted":1},"a":1`,
      `{"__proto__":{"x":1},"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1`,
      `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1},"__proto__":{"b":1`,
      `{ "jsonrpc" : "2.0" , "id" : 7 , "method" : "m" , "params" : { "a" : [ 1 , 2 ] `,
      `{"jsonrpc":"2.0","id":1.5e3,"method":"m","params":{"a":-0`,
      `{"jsonrpc":"1.0","id":1,"method":"m","params":{"a":1`,
      `{"jsonrpc":"2.0","id":null,"method":"m","params":{"a":1`,
      `{"jsonrpc":"2.0","id":1,"method":2,"params":{"a":1`,
      `{"jsonrpc":"2.0","method":"m","params":{"a":1`,
      `{"jsonrpc":"2.0","id":1,"method":"m","extra":0,"params":{"a":1`,
      `${head}{"a":${JSON.stringify(TAIL)}`,
      `${head}{"a":1}}`,
      `"${head}`,
      '',
    ];
    for (const prefix of prefixes) {
      const text = prefix + TAIL;
      expectSame(parseFrame(text, LIMIT), reference(text), text);
    }
    // Those with a request's shape took the short path (the others were parsed whole).
    expect(knownMetaServed()).to.be.greaterThan(7);
  });

  it('thousands of lines mutated a character at a time: always what JSON.parse makes of them, most valid ones without parsing their envelope', () => {
    parseFrame(line(0), LIMIT);
    let seed = 0x2607;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 16) % n;
    };
    const alphabet = ['{', '}', '[', ']', '"', ',', ':', '\\', 'a', '1', ' ', '_meta', '"params":', '"_meta":{}', 'null'];
    const members = ['"name":"echo"', '"arguments":{"text":"a,\\"b"}', '"x":[1,{"y":[]}]', '"n":-1.5e-3', '"s":"\\u2028\\n"', '"t":true', '"_meta":{"a":1}'];
    let valid = 0;
    const before = knownMetaServed();
    for (let n = 0; n < 3000; n++) {
      const count = 1 + next(3);
      const chosen: string[] = [];
      for (let k = 0; k < count; k++) chosen.push(members[next(members.length)]!);
      let text = line(next(2) === 0 ? next(1000) : `id-${next(1000)}`, chosen.join(','));
      const edits = next(3);
      for (let e = 0; e < edits; e++) {
        // Only in the part before the envelope: the tail must stay for the short path to be tried.
        const at = next(text.length - TAIL.length);
        text = next(2) === 0 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + alphabet[next(alphabet.length)]! + text.slice(at);
      }
      const expected = reference(text);
      if (typeof expected !== 'string') valid++;
      expectSame(parseFrame(text, LIMIT), expected, text);
    }
    expect(valid).to.be.greaterThan(1000);
    expect(knownMetaServed() - before).to.be.greaterThan(valid / 2);
  });

  it('a request nested deeper than the limit is still refused (the depth is checked on the whole line)', () => {
    parseFrame(line(0), LIMIT);
    const deep = line(9, `"a":${'['.repeat(40)}${']'.repeat(40)}`);
    expect(parseFrame(deep, LIMIT, 32)).to.be.instanceOf(DeepFrame);
    expectSame(parseFrame(deep, LIMIT, 64), JSON.parse(deep), deep);
  });

  it('a client whose envelope changes is served right, and its new envelope learnt', () => {
    parseFrame(line(0), LIMIT);
    const other = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","traceparent":"00-${id}"}}}`;
    const stable = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"two","version":"2"}}}}`;
    for (let id = 1; id <= 100; id++) expectSame(parseFrame(other(id), LIMIT), JSON.parse(other(id)), other(id));
    expect(knownMetaServed()).to.equal(0);
    for (let id = 1; id <= 200; id++) expectSame(parseFrame(stable(id), LIMIT), JSON.parse(stable(id)), stable(id));
    expect(knownMetaServed()).to.be.greaterThan(100);
  });

  it('over HTTP: 2026-07-28 POSTs with the same envelope are each served with an envelope of their own', async () => {
    const mcp = createMcpServer({ info: { name: 'known-meta', version: '1' } });
    const seen: unknown[] = [];
    mcp.registerTool('meta', { description: 'reports and then changes its request _meta' }, (_a, ctx) => {
      const meta = (ctx.meta ?? {}) as Record<string, unknown>;
      seen.push(JSON.parse(JSON.stringify(meta)));
      meta.changedByHandler = true;
      return 'ok';
    });
    const http = await listen(createStreamableHttpHandler(mcp.server), { logger: false });
    try {
      const _meta = JSON.parse(ENVELOPE) as Record<string, unknown>;
      const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'meta' };
      for (let id = 1; id <= 4; id++) {
        const res = await post(http.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'meta', arguments: {}, _meta } }, headers);
        expect(res.status, res.body).to.equal(200);
        expect((res.json as { result: { content: { text: string }[] } }).result.content[0]!.text).to.equal('ok');
      }
      expect(knownMetaServed()).to.equal(3);
      expect(seen).to.have.length(4);
      for (const m of seen) expect(m).to.deep.equal(_meta);
    } finally {
      await http.close();
    }
  });
});
