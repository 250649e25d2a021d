// Process faults of a stdio server. Already covered elsewhere, not repeated here: a crash with
// requests in flight (spec/session/stdio.spec.ts), a server that ignores stdin's end and SIGTERM,
// one that floods stderr, one that prints garbage on stdout (spec/transports/stdio-client.spec.ts).
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/client.js';
import { ConnectionClosedError } from '../../lib/errors.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { CLIENT_INFO } from '../helpers/raw-peer.js';

const crashy = fileURLToPath(new URL('../fixtures/session/crashy-server.ts', import.meta.url));

describe('robustness: process faults of a stdio server', function () {
  this.timeout(30_000);

  it('killed (SIGKILL) with requests in flight: they fail at once, naming the signal, not after their timeout', async () => {
    const transport = createStdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', crashy], stderr: 'pipe' });
    // A ten-minute request timeout: only the process's end can settle these within the test.
    const client = new Client({ info: CLIENT_INFO, timeout: 600_000 });
    await client.connect(transport);
    const inFlight = Array.from({ length: 5 }, () => client.request('tools/call', { name: 'slow' }).then(() => null, (e: unknown) => e as Error));
    // Answered after the five were written, so they reached the server (in either era).
    await client.request('tools/call', { name: 'echo' });
    process.kill(transport.pid!, 'SIGKILL');
    const errors = await Promise.all(inFlight);
    for (const err of errors) {
      expect(err).to.be.instanceOf(ConnectionClosedError);
      expect(err!.message).to.match(/SIGKILL/);
    }
    expect(client.currentPhase).to.equal('failed');
    // A later call fails at once too, with the same story.
    const later = await client.request('ping').then(() => null, (e: unknown) => e as Error);
    expect(later).to.be.instanceOf(Error);
  });
});
