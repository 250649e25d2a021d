// A 2026-07-28 request on a session's transport whose handler answers, or throws, at once: it is
// served with no async step, and still answered, recorded and survived as before.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { McpError } from '../../lib/errors.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import type { RequestRecord } from '../../lib/session/server-request.js';
import { createMemoryPair } from '../../streams/memory.js';

async function setup() {
  const mcp = createMcpServer({ info: { name: 'at-once', version: '1' } });
  mcp.server.onRequest('x/ok', () => ({ done: true }));
  mcp.server.onRequest('x/boom', () => {
    throw new Error('boom at once');
  });
  mcp.server.onRequest('x/refuse', () => {
    throw new McpError(-32042, 'refused at once', { why: 'spec' });
  });
  const records: RequestRecord[] = [];
  mcp.requests$.subscribe((r) => records.push(r));
  const [a, b] = createMemoryPair();
  await mcp.server.connect(a);
  const client = new Client({ era: 'modern', info: { name: 'spec', version: '1' } });
  await client.connect(b);
  return { client, records };
}

describe('2026-07-28 on a session: a handler that answers at once', () => {
  it('answers, refuses with its code, fails with -32603 and keeps serving; each request recorded', async () => {
    const { client, records } = await setup();
    expect(await client.request('x/ok')).to.deep.include({ done: true });
    const boom = await client.request('x/boom').then(() => undefined, (e: McpError) => e);
    expect(boom?.code).to.equal(-32603);
    const refused = await client.request('x/refuse').then(() => undefined, (e: McpError) => e);
    expect([refused?.code, refused?.message, refused?.data]).to.deep.equal([-32042, 'refused at once', { why: 'spec' }]);
    expect(await client.request('x/ok')).to.deep.include({ done: true });
    const mine = records.filter((r) => r.method.startsWith('x/'));
    expect(mine.map((r) => [r.method, r.era, r.outcome])).to.deep.equal([
      ['x/ok', 'modern', 'answered'],
      ['x/boom', 'modern', 'failed'],
      ['x/refuse', 'modern', 'failed'],
      ['x/ok', 'modern', 'answered'],
    ]);
    await client.close();
  });
});
