import { expect } from 'chai';
import { createUndiciFetch, undiciFetch } from '../../streams/http-fetch.js';
import { startRawServer, type RawServer } from '../fixtures/http-client/raw-server.js';
import { rejectionOf } from './http-client-helpers.js';

describe('http client: undiciFetch (the default fetch)', () => {
  let server: RawServer;
  beforeEach(async () => {
    server = await startRawServer((r) => {
      if (r.path === '/redirect-same') {
        r.res.writeHead(307, { location: '/target' }).end();
      } else if (r.path === '/redirect-other') {
        r.res.writeHead(307, { location: 'http://localhost:1/target' }).end();
      } else if (r.path === '/empty') {
        r.res.writeHead(204).end();
      } else if (r.path === '/hang') {
        r.res.writeHead(200, { 'content-type': 'text/event-stream' });
        r.res.write(': open\n\n');
      } else {
        r.res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], 'x-method': r.method });
        r.res.end(JSON.stringify({ method: r.method, body: r.body, header: r.headers['x-test'] ?? null }));
      }
    });
  });
  afterEach(() => server.close());

  it('sends method, headers and body, and answers a standard Response', async () => {
    const res = await undiciFetch(`${server.origin}/echo`, { method: 'POST', headers: { 'x-test': 'yes' }, body: '{"a":1}' });
    expect(res).to.be.instanceOf(Response);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json');
    expect(res.headers.get('set-cookie')).to.include('a=1');
    expect(await res.json()).to.deep.equal({ method: 'POST', body: '{"a":1}', header: 'yes' });
  });

  it("falls back to Node's fetch when undici cannot be loaded (e.g. inside an ESM bundle)", async () => {
    const withoutUndici = createUndiciFetch(undefined, () => Promise.resolve(undefined));
    const res = await withoutUndici(`${server.origin}/echo`, { method: 'POST', headers: { 'x-test': 'fallback' }, body: '{"b":2}' });
    expect(await res.json()).to.deep.equal({ method: 'POST', body: '{"b":2}', header: 'fallback' });
  });

  it('follows a same-origin 307 with method and body, not a cross-origin one', async () => {
    const res = await undiciFetch(new URL(`${server.origin}/redirect-same`), { method: 'POST', body: 'x' });
    expect(await res.json()).to.deep.include({ method: 'POST', body: 'x' });
    expect(server.requests.map((r) => r.path)).to.deep.equal(['/redirect-same', '/target']);
    const other = await undiciFetch(`${server.origin}/redirect-other`, { method: 'POST', body: 'x' });
    expect(other.status).to.equal(307);
    expect(other.headers.get('location')).to.equal('http://localhost:1/target');
  });

  it('gives null bodies for 204', async () => {
    const res = await undiciFetch(`${server.origin}/empty`, { method: 'DELETE' });
    expect(res.status).to.equal(204);
    expect(res.body).to.equal(null);
  });

  it('aborts a streaming body with the signal, and cancelling a body releases it quietly', async () => {
    const controller = new AbortController();
    const res = await undiciFetch(`${server.origin}/hang`, { signal: controller.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).to.equal(': open\n\n');
    const pending = reader.read();
    controller.abort();
    expect(await rejectionOf(pending)).to.be.instanceOf(Error);
    const again = await undiciFetch(`${server.origin}/hang`);
    await again.body!.cancel();
  });
});
