import { expect } from 'chai';
import { sealCursor, unsealCursor } from '../../lib/server-features/session-cursors.js';
import { connect, makeServer, rejection } from './helpers.js';

function populate(mcp: ReturnType<typeof makeServer>['mcp']): void {
  for (const n of ['a', 'b', 'c']) {
    mcp.registerTool(n, {}, () => n);
    mcp.registerPrompt(n, {}, () => n);
    mcp.registerResource(n, `file:///${n}.txt`, {}, () => ({ contents: [{ uri: `file:///${n}.txt`, text: n }] }));
  }
}

const LISTS = [
  ['tools/list', 'tools'],
  ['prompts/list', 'prompts'],
  ['resources/list', 'resources'],
] as const;

describe('server features: cursors bound to their session (cursorScope)', () => {
  it('[PAGE-008] with cursorScope "session", a cursor kept from another session is -32602 saying to list again', async () => {
    const { mcp } = makeServer({ pageSize: 1, cursorScope: 'session' });
    populate(mcp);
    const a = await connect(mcp);
    const b = await connect(mcp);
    for (const [method, key] of LISTS) {
      const first = (await a.client.request(method)) as any;
      expect(first.nextCursor, method).to.be.a('string');
      // Another session presenting it: refused, with what to do.
      const err = await rejection(b.client.request(method, { cursor: first.nextCursor }));
      expect(err.code, method).to.equal(-32602);
      expect(err.message).to.contain('issued in another session').and.to.contain('Start the listing again without a cursor');
      // The session that received it goes on to the end.
      const names = [first[key][0].name];
      let cursor: string | undefined = first.nextCursor;
      while (cursor !== undefined) {
        const page = (await a.client.request(method, { cursor })) as any;
        names.push(...page[key].map((x: any) => x.name));
        cursor = page.nextCursor;
      }
      expect(names, method).to.deep.equal(['a', 'b', 'c']);
    }
  });

  it('[PAGE-008] a cursor of a closed session is refused in the next one; the new session lists from the start', async () => {
    const { mcp } = makeServer({ pageSize: 2, cursorScope: 'session' });
    populate(mcp);
    const old = await connect(mcp);
    const kept = ((await old.client.request('tools/list')) as any).nextCursor as string;
    await old.client.close();
    const fresh = await connect(mcp);
    expect((await rejection(fresh.client.request('tools/list', { cursor: kept }))).code).to.equal(-32602);
    const page = (await fresh.client.request('tools/list')) as any;
    expect(page.tools.map((t: any) => t.name)).to.deep.equal(['a', 'b']);
    expect(((await fresh.client.request('tools/list', { cursor: page.nextCursor })) as any).tools.map((t: any) => t.name)).to.deep.equal(['c']);
  });

  it('anything not sealed by this server is -32602 too', async () => {
    const { mcp } = makeServer({ pageSize: 1, cursorScope: 'session' });
    populate(mcp);
    const { client, session } = await connect(mcp);
    const inner = await makeServerCursor();
    expect(inner).to.be.a('string');
    for (const cursor of ['garbage!', '', inner, Buffer.from('{"s":1,"c":"x"}').toString('base64url'), 7]) {
      const err = await rejection(client.request('tools/list', { cursor } as any));
      expect(err.code, String(cursor)).to.equal(-32602);
      expect(err.message).to.match(/^Invalid cursor/);
    }
    expect(unsealCursor(session, sealCursor(session, 'inner'))).to.equal('inner');
  });

  it('by default (cursorScope "server", what stateless HTTP needs) a cursor works in any session of the server', async () => {
    const { mcp } = makeServer({ pageSize: 2 });
    populate(mcp);
    const a = await connect(mcp);
    const b = await connect(mcp);
    const cursor = ((await a.client.request('tools/list')) as any).nextCursor;
    expect(((await b.client.request('tools/list', { cursor })) as any).tools.map((t: any) => t.name)).to.deep.equal(['c']);
  });

  it('refuses an unknown cursorScope', () => {
    expect(() => makeServer({ cursorScope: 'client' as never })).to.throw(TypeError, /cursorScope/);
  });
});

/** An unsealed cursor, as a server without session binding hands it out. */
async function makeServerCursor(): Promise<string | undefined> {
  const { mcp } = makeServer({ pageSize: 1 });
  populate(mcp);
  const { client } = await connect(mcp);
  return ((await client.request('tools/list')) as any).nextCursor;
}
