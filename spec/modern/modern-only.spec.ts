// A server that speaks only 2026-07-28 (`supportedVersions: ['2026-07-28']`): legacy clients are
// told which versions it speaks; modern clients are served as usual.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { McpError } from '../../lib/errors.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { ErrorCode } from '../../lib/jsonrpc/error-codes.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';

function modernOnly() {
  const mcp = createMcpServer({ info: SERVER_INFO, supportedVersions: ['2026-07-28'] });
  mcp.registerTool('add', { description: 'adds', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }, (args) =>
    String((args.a as number) + (args.b as number)),
  );
  return mcp;
}

describe('modern/modern-only: a server that speaks only 2026-07-28', () => {
  it('[LIFE-114] refuses initialize with -32022 naming the versions it speaks, so a legacy client can say why', async () => {
    const mcp = modernOnly();
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ info: CLIENT_INFO, era: 'legacy' });
    const error = await client.connect(b).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(McpError);
    expect((error as McpError).code).to.equal(ErrorCode.UnsupportedProtocolVersion);
    expect((error as McpError).message).to.contain('2026-07-28');
    expect((error as McpError).data).to.deep.equal({ supported: ['2026-07-28'], requested: '2025-11-25' });
  });

  it('serves a client with default options in the modern era on the same transport kind', async () => {
    const mcp = modernOnly();
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ info: CLIENT_INFO, era: 'auto' });
    await client.connect(b);
    expect(client.era).to.equal('modern');
    const result = await client.callTool('add', { a: 2, b: 3 });
    expect(result.content).to.deep.equal([{ type: 'text', text: '5' }]);
    const discovered = await client.discover();
    expect(discovered.supportedVersions).to.deep.equal(['2026-07-28']);
  });

  it('names an unknown revision in supportedVersions at construction', () => {
    expect(() => createMcpServer({ info: SERVER_INFO, supportedVersions: ['2026-07-28', '2027-01-01'] })).to.throw(/Unsupported protocol revision "2027-01-01"/);
  });

  it('a server that lists session revisions beside 2026-07-28 negotiates only those in initialize', async () => {
    const mcp = createMcpServer({ info: SERVER_INFO, supportedVersions: ['2026-07-28', '2025-06-18'] });
    const [a, b] = createMemoryPair();
    await mcp.connect(a);
    const client = new Client({ info: CLIENT_INFO, era: 'legacy' });
    await client.connect(b);
    expect(client.protocolVersion).to.equal('2025-06-18');
  });
});
