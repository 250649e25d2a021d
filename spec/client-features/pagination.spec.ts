import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';

/** Our client against an McpServer paging by 2 with session-bound cursors, recording what the client sends. */
async function setup() {
  const mcp = createMcpServer({ info: SERVER_INFO, pageSize: 2, cursorScope: 'session' });
  for (const n of ['a', 'b', 'c', 'd', 'e']) mcp.registerTool(n, {}, () => n);
  const open = async () => {
    const [s, c] = createMemoryPair();
    await mcp.connect(s);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    const cursors: (string | undefined)[] = [];
    client.frames$.subscribe((f) => {
      const frame = f.frame as any;
      if (f.direction === 'out' && frame?.method === 'tools/list') cursors.push(frame.params?.cursor);
    });
    await client.connect(c);
    return { client, cursors };
  };
  return { mcp, open };
}

describe('client features: pagination keeps no cursor past one listing', () => {
  it('[PAGE-008] every listing starts without a cursor, also after one was abandoned halfway', async () => {
    const { open } = await setup();
    const { client, cursors } = await open();
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    // Abandon a listing after its first page.
    for await (const page of client.pagesOfTools()) {
      expect(page.tools.map((t) => t.name)).to.deep.equal(['a', 'b']);
      break;
    }
    expect((await client.listTools()).map((t) => t.name)).to.deep.equal(names);
    const [c1, c2] = cursors.slice(1, 3);
    expect(cursors).to.deep.equal([undefined, c1, c2, undefined, undefined, c1, c2]);
    await client.close();
  });

  it('[PAGE-008] a new session lists from the start; the server (cursorScope "session") would refuse a kept cursor', async () => {
    const { open } = await setup();
    const first = await open();
    await first.client.listTools();
    const kept = first.cursors[1];
    await first.client.close();
    const second = await open();
    expect((await second.client.listTools()).map((t) => t.name)).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    expect(second.cursors[0]).to.equal(undefined);
    expect(second.cursors).not.to.include(kept);
    const err = await second.client.request('tools/list', { cursor: kept! }).then(
      () => null,
      (e: any) => e,
    );
    expect(err?.code).to.equal(-32602);
  });
});
