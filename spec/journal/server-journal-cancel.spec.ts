// A 2026-07-28 server's request journal records the client going away (stdio and memory: its
// `notifications/cancelled`) when it happens, not when the request's handler at last returns: a
// handler that ignores its signal may run on for a while, and `inspect` shows the entry's time.
import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const turn = () => new Promise((r) => setImmediate(r));

describe("a 2026-07-28 server's journal of a request cancelled on a session's transport", () => {
  it('records the cancel at the time the client went away, before the request ends later', async () => {
    const clock = new ManualClock(1_000);
    const mcp = createMcpServer({ info: { name: 'slow', version: '1' }, clock, journal: true });
    // Ignores its signal: answers only once the clock reaches 1,500.
    mcp.registerTool('slow', { description: 'slow' }, () => new Promise<string>((resolve) => clock.setTimeout(() => resolve('done'), 500)));
    const [server, client] = createMemoryPair();
    await mcp.connect(server);
    await client.start();
    client.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', _meta: meta } });
    await turn();
    clock.advance(100);
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'enough' } });
    await turn();
    clock.advance(400);
    for (let i = 0; i < 5; i++) await turn();
    const entries = mcp.journal!.entries.filter((e) => e.kind !== 'in');
    expect(entries.map((e) => [e.kind, e.t, (e as { reason?: string }).reason ?? (e as { state?: string }).state])).to.deep.equal([
      ['cancel', 1_100, 'enough'],
      ['state', 1_500, 'cancelled'],
    ]);
    await client.close();
    await mcp.close();
  });
});
