// client.ping() in the 2026-07-28 era (issue 32, finding 8): that revision removed `ping` (its
// changelog), and the SDK v2 server answers it -32601. Before, ping() sent it anyway and failed;
// now it asks `server/discover`, past the cache, so it still tells whether the server answers.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '../../lib/entries/client.js';
import { createStreamableHttpClientTransport } from '../../streams/streamable-http-client.js';
import { tsArgs } from '../helpers/ts-child.js';

const FIXTURE = 'spec/fixtures/client-modern/sdk-v2-server.ts';

describe('client-modern: ping() against an SDK v2 (2.4.0) server over Streamable HTTP', function () {
  this.timeout(60_000);
  let child: ChildProcess;
  let url: string;
  before(async () => {
    child = spawn(process.execPath, [...tsArgs(FIXTURE)], { stdio: ['ignore', 'pipe', 'ignore'] });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => {
        out += chunk;
        const m = /URL (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', () => reject(new Error(`the fixture exited early: ${out}`)));
    });
  });
  after(() => {
    child?.kill('SIGTERM');
  });

  it('resolves while the server answers (server/discover, not the removed ping), and rejects once it is gone', async () => {
    const client = new Client({ info: { name: 'mcp-actors', version: '1.0.0' } });
    await client.connect(createStreamableHttpClientTransport(url, { openStandaloneStream: false }));
    try {
      expect(client.era).to.equal('modern');
      await client.ping();
      await client.ping();
      // Not answered from a cache: with the server gone, the check fails.
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      const error = await client.ping().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error, 'ping() after the server exited').to.be.instanceOf(Error);
    } finally {
      await client.close();
    }
  });
});
