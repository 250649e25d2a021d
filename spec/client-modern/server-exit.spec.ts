// A 2026-07-28 stdio server that exits while the client keeps a subscriptions/listen open: the
// client tears down (the listen is aborted) without an exception escaping, and says why it ended.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom } from 'rxjs';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { tsArgs } from '../helpers/ts-child.js';

const GROWING = fileURLToPath(new URL('../fixtures/host/growing-server.ts', import.meta.url));

describe('client: a modern stdio server that exits with a listen open', function () {
  this.timeout(30_000);

  it('ends the client with the exit as its error; aborting the listen on a dead transport throws nothing', async () => {
    const client = new Client({ info: { name: 'spec', version: '1' }, listChangedDebounceMs: 0 });
    const sent: string[] = [];
    client.frames$.subscribe((f) => {
      const method = (f.frame as { method?: string }).method;
      if (f.direction === 'out' && method !== undefined) sent.push(method);
    });
    await client.connect(createStdioClientTransport({ command: process.execPath, args: [...tsArgs(GROWING)], stderr: 'pipe' }));
    expect(client.era).to.equal('modern');
    client.tools$.subscribe({ error: () => {} });
    await firstValueFrom(client.tools$.pipe(filter((t) => t.length === 2)));
    expect(sent).to.include('subscriptions/listen');

    // An exception thrown while tearing down would be uncaught: mocha fails the test for it.
    await client.callTool('crash').catch(() => {});
    await client.ended();
    await new Promise((r) => setTimeout(r, 20));
    expect(client.error?.message).to.match(/exited with code 3/);
  });
});
