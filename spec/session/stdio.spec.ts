import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/client.js';
import { ConnectionClosedError } from '../../lib/errors.js';
import type { Diagnostic } from '../../lib/session/session.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { CLIENT_INFO } from '../helpers/raw-peer.js';

const crashy = fileURLToPath(new URL('../fixtures/session/crashy-server.ts', import.meta.url));

describe('sessions over stdio', () => {
  it('a crash with requests in flight rejects them all, naming the exit code and the last stderr lines', async function () {
    this.timeout(20_000);
    const transport = createStdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', crashy], stderr: 'pipe' });
    const client = new Client({ info: CLIENT_INFO });
    const diags: Diagnostic[] = [];
    client.diagnostics$.subscribe((d) => diags.push(d));
    await client.connect(transport);
    // The banner line was not JSON: noted, not answered, and the session is up.
    expect(diags.some((d) => d.kind === 'invalid-frame')).to.equal(true);
    expect((await client.request('tools/call', { name: 'echo' })).content).to.deep.equal([{ type: 'text', text: 'ok' }]);

    const inFlight = [
      client.request('tools/call', { name: 'slow' }),
      client.request('tools/call', { name: 'slow' }),
      client.request('tools/call', { name: 'crash' }),
    ].map((p) => p.then(() => null, (e) => e));
    const errors = await Promise.all(inFlight);
    for (const err of errors) {
      expect(err).to.be.instanceOf(ConnectionClosedError);
      expect(err.message).to.match(/code 3/);
      expect(err.message).to.contain('flux capacitor');
    }
    expect(client.currentPhase).to.equal('failed');
    expect(client.error?.message).to.match(/code 3/);
  });

  it('a missing command fails connect() with a message that says so', async () => {
    const transport = createStdioClientTransport({ command: 'definitely-not-a-command-mcp-actors' });
    const client = new Client({ info: CLIENT_INFO });
    const err = await client.connect(transport).then(() => null, (e) => e);
    expect(err).to.be.an('error');
    expect(err.message).to.contain('definitely-not-a-command-mcp-actors');
    expect(err.message).to.match(/not found|ENOENT/);
  });
});
