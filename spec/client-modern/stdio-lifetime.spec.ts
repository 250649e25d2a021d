// The stdio server's process lives as long as the client's connection, not as long as one piece of
// work: calls that finish, calls the user cancels and several conversations at once all run in the
// same process, which ends only when the client closes (BASE-082).
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { Client } from '../../lib/entries/client.js';
import { createStdioClientTransport } from '../../streams/stdio-client.js';
import { tsArgs } from '../helpers/ts-child.js';

const SERVER = fileURLToPath(new URL('../fixtures/client-modern/lifetime-server.ts', import.meta.url));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const text = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text;

describe('client: the lifetime of a stdio server process', function () {
  this.timeout(30_000);

  for (const era of ['modern', 'legacy'] as const) {
    it(`[BASE-082] (${era}) outlives every call, cancelled ones and concurrent conversations included, and ends with the client`, async () => {
      const client = new Client({ info: { name: 'spec', version: '1' }, era });
      const transport = createStdioClientTransport({ command: process.execPath, args: [...tsArgs(SERVER)], stderr: 'pipe' });
      await client.connect(transport);
      expect(client.era).to.equal(era);
      const pid = transport.pid!;
      expect(text(await client.callTool('pid'))).to.equal(String(pid));

      // A conversation the user gives up on: its call is cancelled, the process stays.
      const ac = new AbortController();
      const waiting = client.callTool('wait', {}, { signal: ac.signal });
      ac.abort('the user moved on');
      await waiting.then(
        () => expect.fail('a cancelled call must not resolve'),
        () => undefined,
      );
      // Three conversations at once, each with calls of its own, in the same process.
      const conversations = await Promise.all([0, 1, 2].map(async () => [text(await client.callTool('pid')), text(await client.callTool('pid'))]));
      expect(conversations.flat()).to.deep.equal(Array(6).fill(String(pid)));
      expect(alive(pid)).to.equal(true);

      await client.close();
      const deadline = Date.now() + 5_000;
      while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(alive(pid), 'the server process ends with the client').to.equal(false);
    });
  }
});
