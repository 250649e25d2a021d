// Who the client is behind reverse proxies (trustProxies): the hops of Forwarded (RFC 7239) or
// X-Forwarded-For walked from the nearest, each trusted proxy handing over to the hop it names.
// Pure: requests are plain objects with a socket peer and headers.
import { expect } from 'chai';
import { remoteResolver, socketPeer } from '../../lib/server-bindings/forwarded-client.js';
import type { HttpRequestIn } from '../../streams/http-shape.js';

const req = (remoteAddress: string, headers: Record<string, string | string[]> = {}, remotePort = 50000): HttpRequestIn =>
  ({ method: 'POST', url: '/mcp', headers, socket: { remoteAddress, remotePort } }) as unknown as HttpRequestIn;

describe('server-bindings: the client behind trusted proxies', () => {
  it('[OTEL-038] [OTEL-039] a chain of trusted proxies hands over to the first untrusted hop, with its port from Forwarded', () => {
    const of = remoteResolver(['10.0.0.1', '10.0.0.2']);
    const forwarded = 'for=198.51.100.9;proto=https, for="203.0.113.7:4711", for=10.0.0.2';
    expect(of(req('10.0.0.1', { forwarded }))).to.deep.equal({ address: '203.0.113.7', port: 4711 });
    // The same chain in X-Forwarded-For: no port there.
    expect(of(req('10.0.0.1', { 'x-forwarded-for': '198.51.100.9, 203.0.113.7, 10.0.0.2' }))).to.deep.equal({ address: '203.0.113.7', port: undefined });
    // Headers sent twice are one list, in order.
    expect(of(req('10.0.0.1', { 'x-forwarded-for': ['198.51.100.9', '203.0.113.8'] })).address).to.equal('203.0.113.8');
  });

  it('IPv6 in brackets, an IPv4-mapped socket address, and Forwarded preferred to X-Forwarded-For', () => {
    const of = remoteResolver(['127.0.0.1', '::1']);
    expect(of(req('::ffff:127.0.0.1', { forwarded: 'for="[2001:DB8::7]:8443"' }))).to.deep.equal({ address: '2001:db8::7', port: 8443 });
    expect(of(req('::1', { forwarded: 'for=192.0.2.1', 'x-forwarded-for': '192.0.2.99' })).address).to.equal('192.0.2.1');
  });

  it('an obfuscated or unknown hop stops the walk at the proxy that wrote it; a trusted proxy with no header is the client', () => {
    const of = remoteResolver(['10.0.0.1']);
    expect(of(req('10.0.0.1', { forwarded: 'for=_hidden' }))).to.deep.equal({ address: '10.0.0.1', port: 50000 });
    expect(of(req('10.0.0.1', { 'x-forwarded-for': '203.0.113.7, unknown' }))).to.deep.equal({ address: '10.0.0.1', port: 50000 });
    expect(of(req('10.0.0.1'))).to.deep.equal({ address: '10.0.0.1', port: 50000 });
  });

  it('never believed from a peer not trusted, nor with no proxy named', () => {
    const spoof = { forwarded: 'for=203.0.113.7', 'x-forwarded-for': '203.0.113.7' };
    expect(remoteResolver(['10.0.0.1'])(req('192.0.2.50', spoof))).to.deep.equal({ address: '192.0.2.50', port: 50000 });
    expect(remoteResolver(undefined)).to.equal(socketPeer);
    expect(remoteResolver([])(req('192.0.2.50', spoof)).address).to.equal('192.0.2.50');
  });

  it('a trustProxies entry that is not an IP address throws, naming it', () => {
    for (const bad of ['proxy.internal', '10.0.0.0/8', '', '999.1.1.1']) expect(() => remoteResolver([bad]), bad).to.throw(/trustProxies: .* is not an IP address/);
  });
});
