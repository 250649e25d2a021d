// Error codes in the JSON-RPC reserved range: what we read into them, and what we send.
// @see https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes
import { expect } from 'chai';
import { ConnectionClosedError, McpError, RequestCancelledError, RequestTimeoutError, ResourceNotFoundError } from '../../lib/errors.js';
import { flush, pair, rejection } from '../client-features/helpers.js';
import { Client } from '../../lib/entries/client.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, makeServer } from '../server-features/helpers.js';

describe('error codes in the reserved range', () => {
  it('[BASE-072] a peer error with a legacy code (-32000..-32019) other than -32002 is a plain McpError: no timeout, no closed connection, the session goes on', async () => {
    const { client } = await pair({
      serverCapabilities: { tools: {}, resources: {} },
      setup: (_client, server) => {
        server.onRequest('tools/call', (params) => {
          throw new McpError(Number((params?.arguments as { code: number }).code), 'the server says no');
        });
        server.onRequest('resources/read', (params) => {
          throw new McpError(params?.uri === 'x://gone' ? -32002 : -32001, 'cannot read');
        });
      },
    });
    for (const code of [-32000, -32001, -32010, -32019]) {
      const e = await rejection(client.request('tools/call', { name: 't', arguments: { code } }));
      expect(e, `code ${code}`).to.be.instanceOf(McpError).and.to.include({ code, message: 'the server says no' });
      for (const local of [RequestTimeoutError, RequestCancelledError, ConnectionClosedError]) expect(e, `code ${code}`).to.not.be.instanceOf(local);
    }
    // Only -32002 means something: the resource does not exist.
    expect(await rejection(client.readResource('x://gone'))).to.be.instanceOf(ResourceNotFoundError);
    const other = await rejection(client.readResource('x://busy'));
    expect(other).to.not.be.instanceOf(ResourceNotFoundError);
    expect(other.code).to.equal(-32001);
    await flush();
    expect(client.currentPhase).to.equal('operating');
    expect((await rejection(client.request('tools/call', { name: 't', arguments: { code: -32005 } }))).code).to.equal(-32005);
  });

  it('[BASE-076] a handler that lets a local error through (a nested request timed out, a connection closed) answers -32603, never a code of the reserved range we made up', async () => {
    const { mcp, clock } = makeServer();
    mcp.registerPrompt('summary', {}, async (_args, ctx) => {
      const r = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'summarize' } }], maxTokens: 50 }, { timeout: 1_000 });
      return JSON.stringify(r.content);
    });
    mcp.registerResource('feed', 'feed://latest', {}, () => {
      throw new ConnectionClosedError('The upstream feed closed');
    });
    mcp.registerTool('t', {}, () => 'x');
    const [a, b] = createMemoryPair();
    const session = await mcp.connect(a);
    // A client whose model never answers.
    const client = new Client({ era: 'legacy', info: CLIENT_INFO }).onSampling(() => new Promise(() => {}));
    await client.connect(b);
    await session.whenOperating();
    const asked = rejection(client.request('prompts/get', { name: 'summary' }));
    await flush();
    clock.advance(1_000);
    const timedOut = await asked;
    expect(timedOut).to.include({ code: -32603 });
    expect(timedOut.message).to.match(/sampling\/createMessage.*timed out/);
    const closed = await rejection(client.request('resources/read', { uri: 'feed://latest' }));
    expect(closed).to.include({ code: -32603 });
    expect(closed.message).to.contain('The upstream feed closed');
  });
});
