// The era probe on stdio (2026-07-28): a modern-only client probes too, and a client probes its
// server process once, against a real child: a legacy server that serves tools/call without
// initialize and says on stderr what it read.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/entries/client.js';
import { LegacyServerError } from '../../lib/client-modern/modern-client-errors.js';
import { createStdioClientTransport, type StdioClientTransport } from '../../streams/stdio-client.js';

const LAX = fileURLToPath(new URL('../fixtures/client-modern/lax-legacy-server.mjs', import.meta.url));

function lax(): { transport: StdioClientTransport; got: string[] } {
  const transport = createStdioClientTransport({ command: process.execPath, args: [LAX], stderr: 'pipe' });
  const got: string[] = [];
  transport.stderr$.subscribe((line) => got.push(line.replace(/^got /, '')));
  return { transport, got };
}

/** Wait (bounded) until the child has exited, so every stderr line it wrote has been read. */
async function exited(transport: StdioClientTransport): Promise<void> {
  const deadline = Date.now() + 10_000;
  let phase = '';
  const sub = transport.state$.subscribe((s) => (phase = s.phase));
  try {
    while (phase !== 'closed' && phase !== 'failed' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  } finally {
    sub.unsubscribe();
  }
  expect(phase).to.be.oneOf(['closed', 'failed']);
}

describe('client: the era probe on stdio (2026-07-28)', function () {
  this.timeout(30_000);

  it('[STDIO-024] a modern-only client probes first: a legacy server that would run tools/call without initialize fails connect deterministically, and gets no tools/call', async () => {
    const { transport, got } = lax();
    const client = new Client({ info: { name: 'modern-only', version: '1' }, era: 'modern' });
    const error = await client.connect(transport).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).to.be.instanceOf(LegacyServerError);
    // It says what to do about it.
    expect(error!.message).to.contain("era: 'auto'");
    const call = await client.callTool('delete-everything', {}).then(
      () => 'ran',
      (e: unknown) => e as Error,
    );
    expect(call).to.be.instanceOf(Error);
    await exited(transport);
    expect(got[0]).to.equal('server/discover');
    expect(got).to.not.include('tools/call');
    expect(got).to.not.include('initialize');
  });

  it('[LIFE-113] the era is found once for the server process: requests and discover() after it probe no more', async () => {
    const { transport, got } = lax();
    const client = new Client({ info: { name: 'auto', version: '1' } });
    await client.connect(transport);
    try {
      expect(client.era).to.equal('legacy');
      await client.listTools();
      await client.callTool('delete-everything', {});
      expect((await client.discover()).era).to.equal('legacy');
      await client.ping();
    } finally {
      await client.close();
    }
    await exited(transport);
    expect(got.filter((m) => m === 'server/discover')).to.deep.equal(['server/discover']);
    expect(got.indexOf('server/discover')).to.be.lessThan(got.indexOf('initialize'));
    expect(got).to.include('tools/call');
  });
});
