// Caching hints and pagination on the client (2026-07-28), on a simulated clock: each page is
// kept for its own ttlMs and re-fetched alone by its cursor; nothing is refetched in the
// background; a cursor the server refuses drops the kept pages and the listing starts over.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createMemoryPair } from '../../streams/memory.js';

type Msg = { id?: number; method?: string; params?: Record<string, any> };
const V = '2026-07-28';

/** A server whose tools/list has pages keyed by cursor ('' is the first page after the start). */
type Pages = Record<string, { tools: string[]; nextCursor?: string; ttlMs: number } | 'refuse'>;

function server(pagesByCursor: () => Pages) {
  const [a, b] = createMemoryPair();
  const seen: Msg[] = [];
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push(m);
    const reply = (body: Record<string, unknown>) => void b.send({ jsonrpc: '2.0', id: m.id!, ...body } as never);
    if (m.method === 'server/discover') reply({ result: { resultType: 'complete', supportedVersions: [V], capabilities: { tools: { listChanged: true } }, ttlMs: 0, cacheScope: 'public' } });
    if (m.method === 'tools/list') {
      const cursor = m.params?.cursor as string | undefined;
      const page = pagesByCursor()[cursor === undefined ? 'start' : `c:${cursor}`];
      if (page === undefined || page === 'refuse') return reply({ error: { code: -32602, message: 'Invalid cursor' } });
      const result: Record<string, unknown> = { resultType: 'complete', tools: page.tools.map((name) => ({ name, inputSchema: { type: 'object' } })), ttlMs: page.ttlMs, cacheScope: 'public' };
      if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
      reply({ result });
    }
  });
  return { transport: a, seen };
}

const lists = (seen: Msg[]) => seen.filter((m) => m.method === 'tools/list').map((m) => (m.params?.cursor === undefined ? 'start' : `c:${String(m.params.cursor)}`));
const names = async (client: Client) => (await client.listTools()).map((t) => t.name);

describe('client: cached pages (2026-07-28)', () => {
  it('[CACHE-018] [PAGE-026] re-fetches only the page whose ttlMs ran out, by its cursor (an empty string is a cursor too)', async () => {
    const clock = new ManualClock(1000);
    const s = server(() => ({ start: { tools: ['a', 'b'], nextCursor: '', ttlMs: 10_000 }, 'c:': { tools: ['c'], ttlMs: 1000 } }));
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto', clock });
    await client.connect(s.transport);
    try {
      expect(await names(client)).to.deep.equal(['a', 'b', 'c']);
      expect(lists(s.seen)).to.deep.equal(['start', 'c:']);
      clock.advance(1000);
      expect(await names(client)).to.deep.equal(['a', 'b', 'c']);
      expect(lists(s.seen)).to.deep.equal(['start', 'c:', 'c:']);
    } finally {
      await client.close();
    }
  });

  it('[CACHE-015] refetches nothing in the background when ttlMs runs out, with tools$ watched', async () => {
    const clock = new ManualClock(1000);
    const s = server(() => ({ start: { tools: ['a'], ttlMs: 1000 } }));
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto', clock });
    await client.connect(s.transport);
    try {
      const seen: string[][] = [];
      const sub = client.tools$.subscribe((tools) => seen.push(tools.map((t) => t.name)));
      for (let i = 0; i < 50 && lists(s.seen).length === 0; i++) await new Promise((r) => setImmediate(r));
      expect(lists(s.seen)).to.deep.equal(['start']);
      for (let i = 0; i < 20; i++) {
        clock.advance(1000);
        await new Promise((r) => setImmediate(r));
      }
      expect(lists(s.seen)).to.deep.equal(['start']);
      // Asked again once stale, it is fetched on that access.
      expect(await names(client)).to.deep.equal(['a']);
      expect(lists(s.seen)).to.deep.equal(['start', 'start']);
      sub.unsubscribe();
    } finally {
      await client.close();
    }
  });

  it('[CACHE-020] a cursor the server now refuses drops every kept page and the listing starts over from the beginning', async () => {
    const clock = new ManualClock(1000);
    let changed = false;
    const s = server((): Pages =>
      changed
        ? { start: { tools: ['x', 'y'], nextCursor: 'v2', ttlMs: 10_000 }, 'c:v1': 'refuse', 'c:v2': { tools: ['z'], ttlMs: 1000 } }
        : { start: { tools: ['a', 'b'], nextCursor: 'v1', ttlMs: 10_000 }, 'c:v1': { tools: ['c'], ttlMs: 1000 } },
    );
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto', clock });
    await client.connect(s.transport);
    try {
      expect(await names(client)).to.deep.equal(['a', 'b', 'c']);
      changed = true;
      clock.advance(1000);
      // The first page is still fresh, but the cursor it holds is refused: everything is asked again.
      expect(await names(client)).to.deep.equal(['x', 'y', 'z']);
      expect(lists(s.seen)).to.deep.equal(['start', 'c:v1', 'c:v1', 'start', 'c:v2']);
    } finally {
      await client.close();
    }
  });

  it('[CACHE-019] listTools({ fresh: true }) gets a consistent snapshot: every page again, from the beginning', async () => {
    const clock = new ManualClock(1000);
    const s = server(() => ({ start: { tools: ['a', 'b'], nextCursor: 'n', ttlMs: 10_000 }, 'c:n': { tools: ['c'], ttlMs: 10_000 } }));
    const client = new Client({ info: { name: 'c', version: '1' }, era: 'auto', clock });
    await client.connect(s.transport);
    try {
      await names(client);
      expect(await names(client)).to.deep.equal(['a', 'b', 'c']);
      expect(lists(s.seen)).to.deep.equal(['start', 'c:n']);
      expect((await client.listTools({ fresh: true })).map((t) => t.name)).to.deep.equal(['a', 'b', 'c']);
      expect(lists(s.seen)).to.deep.equal(['start', 'c:n', 'start', 'c:n']);
    } finally {
      await client.close();
    }
  });
});
