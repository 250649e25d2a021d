// Who the client is behind reverse proxies (trustProxies): the hops of Forwarded (RFC 7239) or
// X-Forwarded-For walked from the nearest, each trusted proxy handing over to the hop it names.
// Pure: requests are plain objects with a socket peer and headers.
import { expect } from 'chai';
import { InvalidTrustProxiesError, remoteResolver, socketPeer } from '../../lib/server-bindings/forwarded-client.js';
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
    for (const bad of ['proxy.internal', '', '999.1.1.1', '010.0.0.1', '1:2:3', '1::2::3', '::ffff:1.2.3']) {
      expect(() => remoteResolver([bad]), bad).to.throw(InvalidTrustProxiesError, /trustProxies: .* is not an IP address or CIDR range/);
    }
  });

  describe('trustProxies ranges (CIDR)', () => {
    const forwarded = { forwarded: 'for=203.0.113.7' };
    /** Whether `of` believed the header of a request from `peer`. */
    const believes = (of: ReturnType<typeof remoteResolver>, peer: string) => of(req(peer, forwarded)).address === '203.0.113.7';

    it('an IPv4 range trusts its peers and no others, and matches their IPv4-mapped form', () => {
      const of = remoteResolver(['10.0.0.0/8', '192.168.4.0/22']);
      for (const peer of ['10.0.0.0', '10.1.2.3', '10.255.255.255', '::ffff:10.1.2.3', '::FFFF:0a01:0203', '192.168.4.1', '192.168.7.254']) expect(believes(of, peer), peer).to.equal(true);
      for (const peer of ['11.0.0.1', '9.255.255.255', '192.168.8.1', '192.168.3.255', '::10.1.2.3', '2001:db8::a01:203', '::ffff:11.0.0.1']) expect(believes(of, peer), peer).to.equal(false);
    });

    it('an IPv6 range trusts its peers and no others; an IPv4 peer is not in an IPv6 unique-local range', () => {
      const of = remoteResolver(['fd00::/8', '2001:db8:abcd:12::/64']);
      for (const peer of ['fd00::1', 'FD12:3456::9', '2001:db8:abcd:12:ffff:ffff:ffff:ffff', 'fd00::1%eth0']) expect(believes(of, peer), peer).to.equal(true);
      for (const peer of ['fe00::1', 'fc00::1', '2001:db8:abcd:13::1', '::1', '10.0.0.1', '::ffff:10.0.0.1']) expect(believes(of, peer), peer).to.equal(false);
    });

    it('prefix length 0 trusts its whole family; 32 and 128 trust one address, as an exact entry does', () => {
      const anyV4 = remoteResolver(['0.0.0.0/0']);
      expect(['1.2.3.4', '255.255.255.255', '::ffff:8.8.8.8'].every((p) => believes(anyV4, p))).to.equal(true);
      expect(believes(anyV4, '2001:db8::1'), 'an IPv6 peer is not in an IPv4 range').to.equal(false);
      const anyV6 = remoteResolver(['::/0']);
      expect(['2001:db8::1', '::1', 'fd00::1'].every((p) => believes(anyV6, p))).to.equal(true);
      // The IPv4-mapped addresses are inside ::/0 and ::/64 as bits, but an IPv6 range is not a way to trust every IPv4 peer.
      for (const peer of ['10.0.0.1', '::ffff:10.0.0.1']) {
        expect(believes(anyV6, peer), `::/0 ${peer}`).to.equal(false);
        expect(believes(remoteResolver(['::/64']), peer), `::/64 ${peer}`).to.equal(false);
      }
      // An IPv4 range may be written in its mapped form.
      const mapped = remoteResolver(['::ffff:10.0.0.0/104']);
      expect([believes(mapped, '10.1.2.3'), believes(mapped, '::ffff:10.1.2.3'), believes(mapped, '11.1.2.3')]).to.deep.equal([true, true, false]);

      const one = remoteResolver(['10.0.0.7/32', '2001:db8::7/128']);
      for (const peer of ['10.0.0.7', '::ffff:10.0.0.7', '2001:db8::7', '2001:DB8:0:0:0:0:0:7']) expect(believes(one, peer), peer).to.equal(true);
      for (const peer of ['10.0.0.6', '10.0.0.8', '2001:db8::6', '2001:db8::8']) expect(believes(one, peer), peer).to.equal(false);
      // Exact entries keep working, with or without the mapped prefix.
      expect(believes(remoteResolver(['::ffff:10.0.0.7']), '10.0.0.7')).to.equal(true);
      expect(believes(remoteResolver(['10.0.0.7']), '::ffff:10.0.0.7')).to.equal(true);
    });

    it('a chain of proxies in trusted ranges hands over to the first hop outside them', () => {
      const of = remoteResolver(['10.0.0.0/8', 'fd00::/8']);
      expect(of(req('10.3.0.1', { forwarded: 'for=198.51.100.9, for="[fd00::5]:80", for=10.9.9.9' }))).to.deep.equal({ address: '198.51.100.9', port: undefined });
      expect(of(req('10.3.0.1', { 'x-forwarded-for': '198.51.100.9, 203.0.113.1, 10.9.9.9' })).address).to.equal('203.0.113.1');
    });

    it('a malformed range is refused when the resolver is made, with a typed error saying which entry and why', () => {
      const refusal = (entry: unknown) => {
        try {
          remoteResolver(['10.0.0.1', entry as string]);
        } catch (e) {
          expect(e).to.be.instanceOf(InvalidTrustProxiesError);
          expect((e as InvalidTrustProxiesError).entry).to.equal(entry);
          return (e as Error).message;
        }
        return expect.fail(`${String(entry)} was accepted`);
      };
      expect(refusal('10.0.0.0/33')).to.equal('trustProxies: "10.0.0.0/33" has prefix length "33": it must be a whole number from 0 to 32');
      expect(refusal('fd00::/129')).to.match(/"fd00::\/129" has prefix length "129": it must be a whole number from 0 to 128/);
      for (const bad of ['10.0.0.0/', '10.0.0.0/-1', '10.0.0.0/08', '10.0.0.0/8/8', '10.0.0.0/ 8']) expect(refusal(bad), bad).to.match(/has prefix length ".*": it must be a whole number from 0 to 32/);
      expect(refusal('10.1.2.3/8')).to.equal('trustProxies: "10.1.2.3/8" has bits set past its /8 prefix (the range starts at 10.0.0.0)');
      expect(refusal('fd00::1/8')).to.match(/has bits set past its \/8 prefix \(the range starts at fd00:0:0:0:0:0:0:0\)/);
      expect(refusal('10.0.0/8')).to.match(/"10.0.0\/8" is not an IP address or CIDR range/);
      expect(refusal('fe80::1%eth0/128')).to.equal('trustProxies: "fe80::1%eth0/128" has a zone index (%...), which a range cannot have');
      expect(refusal(42)).to.match(/trustProxies: 42 is not a string/);
    });
  });
});
