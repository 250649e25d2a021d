// The shared start-on-a-free-port helper: a port stolen between the pick and the bind costs a
// retry, not a failed spec; anything else fails at once; a start that never binds gives up.
import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import { freePorts, listensOn, PortTaken, startOnFreePort, startOnFreePorts } from './free-port.js';

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const closeAll = (servers: Server[]) => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));

describe('spec helpers: starting on a free port', () => {
  it('gives different ports that can be bound', async () => {
    const ports = await freePorts(3);
    expect(new Set(ports).size).to.equal(3);
    await closeAll(await Promise.all(ports.map(listenOn)));
  });

  it('a port taken between the pick and the bind (EADDRINUSE) costs a retry on other ports', async () => {
    const thieves: Server[] = [];
    const tried: number[] = [];
    try {
      const server = await startOnFreePort(async (port) => {
        tried.push(port);
        // The first two picks are stolen before the start binds them, as another worker would.
        if (tried.length <= 2) thieves.push(await listenOn(port));
        return await listenOn(port);
      });
      thieves.push(server);
      expect(tried).to.have.length(3);
      expect(new Set(tried).size, 'each try on a new port').to.equal(3);
    } finally {
      await closeAll(thieves);
    }
  });

  it('a child that reports the bind failure (PortTaken) is retried; two ports are chosen together', async () => {
    let calls = 0;
    const ports = await startOnFreePorts(2, async (pair) => {
      if (++calls === 1) throw new PortTaken(pair[0]!, 'Address already in use');
      return pair;
    });
    expect(calls).to.equal(2);
    expect(ports[0]).to.not.equal(ports[1]);
  });

  it('any other failure is thrown at once; a start that never binds gives up after 5 tries', async () => {
    let calls = 0;
    const other = await startOnFreePort(async () => {
      calls++;
      throw new Error('config is wrong');
    }).catch((e: Error) => e);
    expect((other as Error).message).to.equal('config is wrong');
    expect(calls).to.equal(1);
    calls = 0;
    const never = await startOnFreePort(async (port) => {
      calls++;
      throw new PortTaken(port);
    }).catch((e: Error) => e);
    expect(calls).to.equal(5);
    expect((never as Error).message).to.match(/no start bound its ports in 5 tries/);
  });

  it('tells whether a process holds the listener on a loopback port (a child that claims to listen may not)', async function () {
    if (process.platform !== 'linux') this.skip();
    const server = await listenOn(0);
    const port = (server.address() as { port: number }).port;
    try {
      expect(listensOn(process.pid, port)).to.equal(true);
      expect(listensOn(process.ppid, port), 'another process: not its listener').to.equal(false);
    } finally {
      await closeAll([server]);
    }
    expect(listensOn(process.pid, port), 'closed: nobody listens').to.equal(false);
  });
});
