// The HTTP headers our client puts on a modern (2026-07-28) POST: Mcp-Method / Mcp-Name from the
// body, one Mcp-Param-{Name} per x-mcp-header argument with a value, values encoded when they are
// not plain ASCII; and the x-mcp-header annotations that make a tool unusable.
import { expect } from 'chai';
import { encodeHeaderValue, modernHeaders, paramHeadersOf, type ParamHeaderSpec } from '../../lib/client-modern/wire-headers.js';

const V = '2026-07-28';
const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': V } } });
const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;

describe('client-modern/wire-headers', () => {
  const specs: ParamHeaderSpec[] = [
    { param: 'region', header: 'Region' },
    { param: 'count', header: 'Count' },
    { param: 'dry', header: 'Dry' },
  ];
  const source = (tool: string) => (tool === 'routed' ? specs : undefined);

  it('[HTTP-137] [HTTP-138] [HTTP-159] [HTTP-161] [HTTP-167] [HTTP-169] [HTTP-171] mirrors each annotated argument with a value into Mcp-Param-{Name}; null and absent ones get no header', () => {
    const h = new Map(modernHeaders(call('routed', { region: 'eu-west', count: 42, dry: false, other: 'x' }), source));
    expect(h.get('mcp-protocol-version')).to.equal(V);
    expect(h.get('mcp-method')).to.equal('tools/call');
    expect(h.get('mcp-name')).to.equal('routed');
    expect(h.get('mcp-param-region')).to.equal('eu-west');
    expect(h.get('mcp-param-count')).to.equal('42');
    expect(h.get('mcp-param-dry')).to.equal('false');
    expect([...h.keys()].filter((k) => k.startsWith('mcp-param-'))).to.have.length(3);

    const sparse = new Map(modernHeaders(call('routed', { region: null, dry: true }), source));
    expect(sparse.has('mcp-param-region')).to.equal(false);
    expect(sparse.has('mcp-param-count')).to.equal(false);
    expect(sparse.get('mcp-param-dry')).to.equal('true');
  });

  it('[HTTP-136] [HTTP-150] [HTTP-151] [HTTP-153] [HTTP-156] [HTTP-160] encodes values that are not plain visible ASCII, and plain ones that look like the sentinel, as =?base64?…?=', () => {
    expect(encodeHeaderValue('eu-west')).to.equal('eu-west');
    expect(encodeHeaderValue('Zürich')).to.equal(b64('Zürich'));
    expect(encodeHeaderValue(' padded')).to.equal(b64(' padded'));
    expect(encodeHeaderValue('trailing ')).to.equal(b64('trailing '));
    expect(encodeHeaderValue('a\r\nX-Injected: 1')).to.equal(b64('a\r\nX-Injected: 1'));
    expect(encodeHeaderValue('=?base64?abc?=')).to.equal(b64('=?base64?abc?='));
    expect(encodeHeaderValue('')).to.equal(b64(''));
    const h = new Map(modernHeaders(call('日本語', {}), source));
    expect(h.get('mcp-name')).to.equal(b64('日本語'));
    const routed = new Map(modernHeaders(call('routed', { region: 'naïve\n' }), source));
    expect(routed.get('mcp-param-region')).to.equal(b64('naïve\n'));
    for (const v of [...h.values(), ...routed.values()]) expect(v).to.match(/^[\x21-\x7e]+$/);
  });

  it('[HTTP-139] [HTTP-140] [HTTP-141] [HTTP-142] [HTTP-147] [TOOL-054] [TOOL-055] [TOOL-056] [TOOL-057] [TOOL-058] [TOOL-061] refuses a tool whose x-mcp-header is empty, not a token, has CR/LF, repeats case-insensitively or sits on a non-primitive', () => {
    const schema = (props: Record<string, unknown>) => ({ type: 'object', properties: props });
    expect(paramHeadersOf(schema({ a: { type: 'string', 'x-mcp-header': 'Tenant' } }))).to.deep.equal({ specs: [{ param: 'a', header: 'Tenant' }] });
    for (const bad of [
      schema({ a: { type: 'string', 'x-mcp-header': '' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 'Has Space' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 'Bad:Colon' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 'Evil\r\nX-Other' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 'Line\n' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 'Tenant' }, b: { type: 'string', 'x-mcp-header': 'tenant' } }),
      schema({ a: { type: 'object', 'x-mcp-header': 'Obj' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 42 } }),
    ]) {
      expect(paramHeadersOf(bad), JSON.stringify(bad)).to.have.property('invalid').that.is.a('string');
    }
  });

  it('[TOOL-060] mirrors a nested argument reached through properties alone, and refuses an annotation reached any other way', () => {
    const h = { 'x-mcp-header': 'Tenant' };
    const nested = { type: 'object', properties: { target: { type: 'object', properties: { tenant: { type: 'string', ...h } } }, note: { type: 'string', default: { 'x-mcp-header': 'data' } } } };
    expect(paramHeadersOf(nested)).to.deep.equal({ specs: [{ param: 'target.tenant', header: 'Tenant', path: ['target', 'tenant'] }] });
    const frame = call('nested', { target: { tenant: 'acme' } });
    const sent = new Map(modernHeaders(frame, () => (paramHeadersOf(nested) as { specs: ParamHeaderSpec[] }).specs));
    expect(sent.get('mcp-param-tenant')).to.equal('acme');
    const str = { type: 'string', ...h };
    for (const bad of [
      { type: 'object', properties: { list: { type: 'array', items: str } } },
      { type: 'object', properties: { list: { type: 'array', prefixItems: [str] } } },
      { type: 'object', properties: { a: { anyOf: [str, { type: 'integer' }] } } },
      { type: 'object', oneOf: [{ properties: { a: str } }] },
      { type: 'object', allOf: [{ properties: { a: str } }] },
      { type: 'object', properties: { a: { not: str } } },
      { type: 'object', if: { properties: { a: str } }, then: {}, else: {} },
      { type: 'object', properties: { a: { $ref: '#/$defs/t' } }, $defs: { t: str } },
      { type: 'object', additionalProperties: str },
      { type: 'object', patternProperties: { '^a': str } },
      { type: 'string', ...h },
    ]) {
      const r = paramHeadersOf(bad);
      expect(r, JSON.stringify(bad)).to.have.property('invalid').that.matches(/reachable through "properties"/);
    }
  });
});
