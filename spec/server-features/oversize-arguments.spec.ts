import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO } from './helpers.js';

describe('server features: arguments far over the size limit', () => {
  it('a tools/call over maxFrameBytes gets a clear -32600, the tool never runs, and the session stays up', async () => {
    // Frames cross as text, as on stdio or HTTP, so the size check applies.
    const [a, b] = createMemoryPair({ serialize: true });
    const mcp = createMcpServer({ info: SERVER_INFO, maxFrameBytes: 64 * 1024 });
    let runs = 0;
    mcp.registerTool('store', { description: 'Stores a blob', inputSchema: { type: 'object', properties: { data: { type: 'string' } } } }, () => {
      runs++;
      return { content: [{ type: 'text', text: 'stored' }] };
    });
    await mcp.connect(a);
    const client = new Client({ era: 'legacy', info: CLIENT_INFO });
    await client.connect(b);
    const err = await client.callTool('store', { data: 'x'.repeat(1024 * 1024) }).then(() => null, (e) => e);
    expect(err, 'the oversized call should fail').to.be.an('error');
    expect(err.code).to.equal(-32600);
    expect(err.message).to.contain(String(64 * 1024));
    expect(runs).to.equal(0);
    const ok = await client.callTool('store', { data: 'small' });
    expect(ok.content).to.deep.equal([{ type: 'text', text: 'stored' }]);
    await client.close();
  });
});
