// What a host's user gets after close(): typed errors, in either era, nothing sent.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { createHost, ServerUnavailableError } from '../../lib/entries/host.js';
import { ConnectionClosedError, McpError } from '../../lib/errors.js';
import { tsArgs } from '../helpers/ts-child.js';

const ECHO = fileURLToPath(new URL('../../examples/echo-server.ts', import.meta.url));

describe('host: calls after close()', function () {
  this.timeout(30_000);

  for (const era of ['modern', 'legacy'] as const) {
    it(`the host refuses with ServerUnavailableError, a kept client with ConnectionClosedError (era ${era})`, async () => {
      const host = createHost({ servers: { echo: { command: process.execPath, args: [...tsArgs(ECHO)] } }, clientOptions: { era }, stderr: 'ignore' });
      await host.start();
      await host.whenReady();
      expect(host.state.echo!.era).to.equal(era);
      const client = host.client('echo')!;
      await host.close();
      const viaHost = await host.callTool('echo__echo', { text: 'x' }).then(() => undefined, (e: unknown) => e);
      expect(viaHost).to.be.instanceOf(ServerUnavailableError);
      const viaClient = await client.callTool('echo', { text: 'x' }).then(() => undefined, (e: unknown) => e);
      expect(viaClient).to.be.instanceOf(ConnectionClosedError);
      expect(viaClient).to.be.instanceOf(McpError);
    });
  }
});
