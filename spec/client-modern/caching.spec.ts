// Caching hints (2026-07-28) on the client: a fresh result is served without asking again, on a
// simulated clock; `fresh: true`, another params set, a list-change notification or the end of
// ttlMs send the request again; results that took input rounds are not kept.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createMemoryPair } from '../../streams/memory.js';

type Msg = { id?: number; method?: string; params?: Record<string, any> };
const V = '2026-07-28';

function server(ttlMs: number | undefined) {
  const [a, b] = createMemoryPair();
  const seen: Msg[] = [];
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push(m);
    const reply = (result: unknown) => void b.send({ jsonrpc: '2.0', id: m.id!, result } as never);
    if (m.method === 'server/discover') reply({ resultType: 'complete', supportedVersions: [V], capabilities: { tools: { listChanged: true }, resources: {} }, ttlMs, cacheScope: 'public' });
    if (m.method === 'tools/list') reply({ resultType: 'complete', tools: [{ name: 't', inputSchema: { type: 'object' } }], ttlMs, cacheScope: 'public' });
    if (m.method === 'resources/read') {
      if (m.params!.uri === 'asks://me' && m.params!.inputResponses === undefined) reply({ resultType: 'input_required', inputRequests: { r: { method: 'roots/list', params: {} } } });
      else reply({ resultType: 'complete', contents: [{ uri: m.params!.uri, text: 'x' }], ttlMs, cacheScope: 'private' });
    }
  });
  return { transport: a, seen, notify: (method: string) => void b.send({ jsonrpc: '2.0', method } as never) };
}

const count = (seen: Msg[], method: string) => seen.filter((m) => m.method === method).length;

describe('client: caching hints (2026-07-28)', () => {
  it('[CACHE-007] [CACHE-010] [CACHE-014] listTools and readResource are served from the cache while fresh, per params; fresh: true and the end of ttlMs ask again', async () => {
    const clock = new ManualClock(1000);
    const s = server(5000);
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto', clock });
    await client.connect(s.transport);
    await client.listTools();
    await client.listTools();
    expect(count(s.seen, 'tools/list')).to.equal(1);
    await client.readResource('file:///a');
    await client.readResource('file:///a');
    await client.readResource('file:///b');
    expect(count(s.seen, 'resources/read')).to.equal(2);
    await client.listTools({ fresh: true });
    expect(count(s.seen, 'tools/list')).to.equal(2);
    clock.advance(5000);
    await client.listTools();
    expect(count(s.seen, 'tools/list')).to.equal(3);
    await client.close();
  });

  it('[CACHE-008] [CACHE-009] a list-change notification makes the list stale; ttlMs 0 keeps nothing; input-round results are not kept', async () => {
    const clock = new ManualClock(1000);
    const s = server(60_000);
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto', clock });
    client.setRoots([]);
    await client.connect(s.transport);
    await client.listTools();
    s.notify('notifications/tools/list_changed');
    await new Promise((r) => setImmediate(r));
    await client.listTools();
    expect(count(s.seen, 'tools/list')).to.equal(2);
    await client.readResource('asks://me');
    await client.readResource('asks://me');
    expect(count(s.seen, 'resources/read')).to.equal(4);
    await client.close();

    const zero = server(0);
    const other = new Client({ info: { name: 'c', version: '1' }, era: 'auto', clock });
    await other.connect(zero.transport);
    await other.listTools();
    await other.listTools();
    expect(count(zero.seen, 'tools/list')).to.equal(2);
    await other.close();
  });

  it('[CACHE-011] [CACHE-012] a result without ttlMs, or with a negative one, is not served from the cache', async () => {
    for (const ttl of [undefined, -5000]) {
      const s = server(ttl);
      const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto', clock: new ManualClock(1000) });
      await client.connect(s.transport);
      await client.listTools();
      await client.listTools();
      await client.readResource('file:///a');
      await client.readResource('file:///a');
      expect(count(s.seen, 'tools/list'), String(ttl)).to.equal(2);
      expect(count(s.seen, 'resources/read'), String(ttl)).to.equal(2);
      await client.close();
    }
  });
});
