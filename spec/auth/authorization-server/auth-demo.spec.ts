// The demo with --auth needs fixed ports: when one is taken before it binds, its start says so as
// PortTaken (what startOnFreePorts retries on new ports), whichever of its two ports it was.
import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import { freePorts, PortTaken } from '../../helpers/free-port.js';
import { startAuthDemoOn } from './auth-demo.js';

describe('the demo with --auth on a port another process took', function () {
  this.timeout(30_000);
  let thief: Server;
  let taken: number;
  before(async () => {
    thief = createServer();
    await new Promise<void>((resolve) => thief.listen(0, '127.0.0.1', resolve));
    taken = (thief.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => thief.close(() => resolve())));

  for (const which of ['PORT', 'AUTH_PORT'] as const) {
    it(`${which} taken: the start fails as PortTaken (retried on new ports)`, async () => {
      const [other] = await freePorts(1);
      const [port, authPort] = which === 'PORT' ? [taken, other!] : [other!, taken];
      const error = await startAuthDemoOn(port, authPort).then(
        (demo) => {
          demo.child.kill('SIGKILL');
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(PortTaken);
      expect((error as Error).message).to.include(`127.0.0.1:${taken}`);
    });
  }
});
