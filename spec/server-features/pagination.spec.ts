import { expect } from 'chai';
import { checkPageSize, decodeCursor, encodeCursor, paginate } from '../../lib/server-features/pagination.js';
import { connect, makeServer, rejection } from './helpers.js';

async function listAll(client: any, method: string, key: string): Promise<{ pages: string[][]; cursors: string[] }> {
  const pages: string[][] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  do {
    const r = (await client.request(method, cursor === undefined ? {} : { cursor })) as any;
    pages.push(r[key].map((x: any) => x.name));
    cursor = r.nextCursor;
    if (cursor !== undefined) cursors.push(cursor);
  } while (cursor !== undefined);
  return { pages, cursors };
}

describe('server features: pagination', () => {
  it('[PAGE-001] [PAGE-004] pages tools and prompts by the configured size; the last page has no nextCursor', async () => {
    const { mcp } = makeServer({ pageSize: 2 });
    for (const n of ['a', 'b', 'c', 'd', 'e']) {
      mcp.registerTool(n, {}, () => n);
      mcp.registerPrompt(n, {}, () => n);
    }
    const { client } = await connect(mcp);
    const tools = await listAll(client, 'tools/list', 'tools');
    expect(tools.pages).to.deep.equal([['a', 'b'], ['c', 'd'], ['e']]);
    expect(tools.cursors.every((c) => /^[A-Za-z0-9_-]+$/.test(c))).to.equal(true);
    expect((await listAll(client, 'prompts/list', 'prompts')).pages).to.deep.equal([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('[PAGE-009] [PAGE-003] a bad cursor is -32602', async () => {
    const { mcp } = makeServer({ pageSize: 1 });
    mcp.registerTool('a', {}, () => 'a');
    mcp.registerTool('b', {}, () => 'b');
    mcp.registerPrompt('p', {}, () => 'p');
    mcp.registerPrompt('q', {}, () => 'q');
    const { client } = await connect(mcp);
    const promptCursor = ((await client.request('prompts/list')) as any).nextCursor as string;
    const bad = [
      'garbage!',
      'eyJub3QiOiJhIGN1cnNvciJ9', // {"not":"a cursor"}
      Buffer.from('not json').toString('base64url'),
      encodeCursor({ l: 'tools', o: -1, v: 0, k: '' }),
      promptCursor, // another list's cursor
      42,
      '',
    ];
    for (const cursor of bad) {
      const err = await rejection(client.request('tools/list', { cursor } as any));
      expect(err.code, String(cursor)).to.equal(-32602);
      expect(err.message).to.match(/^Invalid cursor/);
    }
  });

  it('[PAGE-002] cursors stay stable when the list changes between pages', async () => {
    const { mcp } = makeServer({ pageSize: 2 });
    const handles = ['a', 'b', 'c', 'd', 'e'].map((n) => mcp.registerTool(n, {}, () => n));
    const { client } = await connect(mcp);
    const first = (await client.request('tools/list')) as any;
    expect(first.tools.map((t: any) => t.name)).to.deep.equal(['a', 'b']);
    // An item before the cursor goes away: the next page still starts right after "b".
    handles[0]!.remove();
    const second = (await client.request('tools/list', { cursor: first.nextCursor })) as any;
    expect(second.tools.map((t: any) => t.name)).to.deep.equal(['c', 'd']);
    // The same cursor again gives the same page.
    const again = (await client.request('tools/list', { cursor: first.nextCursor })) as any;
    expect(again.tools.map((t: any) => t.name)).to.deep.equal(['c', 'd']);
  });

  it('paginate(): the offset is used while the version is unchanged, falls back to it when the last item is gone', () => {
    const items = ['a', 'b', 'c', 'd'];
    const p1 = paginate('x', items, (s) => s, undefined, 3, 7);
    expect(p1.items).to.deep.equal(['a', 'b', 'c']);
    expect(decodeCursor(p1.nextCursor, 'x')).to.deep.equal({ l: 'x', o: 3, v: 7, k: 'c' });
    expect(paginate('x', items, (s) => s, p1.nextCursor, 3, 7)).to.deep.equal({ items: ['d'] });
    expect(paginate('x', ['a', 'd'], (s) => s, p1.nextCursor, 3, 8)).to.deep.equal({ items: [] });
    expect(paginate('x', ['z', 'y', 'x', 'w', 'v'], (s) => s, p1.nextCursor, 3, 8)).to.deep.equal({ items: ['w', 'v'] });
  });

  it('pageSize Infinity gives one page; a page size that is not a positive integer is refused', async () => {
    const { mcp } = makeServer({ pageSize: Infinity });
    for (let i = 0; i < 250; i++) mcp.registerTool(`t${i}`, {}, () => 'x');
    const { client } = await connect(mcp);
    const r = (await client.request('tools/list')) as any;
    expect(r.tools).to.have.length(250);
    expect(r).to.not.have.property('nextCursor');
    expect(checkPageSize(undefined)).to.equal(100);
    expect(() => checkPageSize(0)).to.throw(TypeError);
    expect(() => checkPageSize(1.5)).to.throw(TypeError);
  });
});
