// Era 'auto' against servers of the legacy era only: the reference server-everything (stdio and
// Streamable HTTP) and a server built with the SDK 1.32.2 (stdio). Each refuses the
// server/discover probe in its own way; the client falls back to initialize and works as before.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { everythingEntry, startHttpEverything, type HttpEverything } from '../fixtures/interop-everything/everything.js';
import { fixtureCommand, SDK_SERVER } from '../interop/helpers.js';

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).map((b) => b.text).join('\n');
const autoClient = () => new Client({ info: { name: 'auto', version: '1.0.0' }, era: 'auto' });

describe('client: era auto against legacy-only servers (fallback to initialize)', function () {
  this.timeout(60_000);

  it('server-everything over stdio', async () => {
    const client = autoClient();
    await client.connect(createStdioClientTransport({ command: process.execPath, args: [everythingEntry(), 'stdio'], stderr: 'ignore' }));
    try {
      expect(client.era).to.equal('legacy');
      expect(textOf(await client.callTool('echo', { message: 'hello' }))).to.contain('hello');
    } finally {
      await client.close();
    }
  });

  describe('server-everything over Streamable HTTP', () => {
    let server: HttpEverything;
    before(async () => {
      server = await startHttpEverything();
    });
    after(async () => {
      await server?.stop();
    });
    it('falls back to initialize and a session', async () => {
      const client = autoClient();
      const transport = createStreamableHttpClientTransport(server.url);
      await client.connect(transport);
      try {
        expect(client.era).to.equal('legacy');
        expect(transport.sessionId).to.be.a('string');
        expect(textOf(await client.callTool('echo', { message: 'over http' }))).to.contain('over http');
      } finally {
        await client.close();
      }
    });
  });

  it('an SDK 1.32.2 server over stdio', async () => {
    const client = autoClient();
    await client.connect(createStdioClientTransport({ ...fixtureCommand(SDK_SERVER), stderr: 'ignore' }));
    try {
      expect(client.era).to.equal('legacy');
      expect(client.serverInfo?.name).to.equal('sdk-interop-server');
      expect(textOf(await client.callTool('echo', { text: 'one' }))).to.contain('one');
    } finally {
      await client.close();
    }
  });
});
