// The real parts that must pick their port before they start (redis-server, HAProxy): a port
// another process takes between the pick and the bind costs a retry on a new port, not a red run;
// a port asked for (a restart on the same address) is kept, and a taken one is named in the error.
// Real redis-server and haproxy processes; a node listener plays the process that took the port.
import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import { freePorts, PortTaken } from '../../scripts/real-parts/free-port.js';
import { startHaproxy } from '../../scripts/real-parts/haproxy.js';
import { listensOn } from '../../scripts/real-parts/listens-on.js';
import { startRedis } from '../../scripts/real-parts/redis-server.js';
import { startEverything } from '../../scripts/real-parts/server-process.js';

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const close = (server: Server) => new Promise<void>((r) => server.close(() => r()));

/** What a start that must fail rejects with; a start that succeeds is stopped and fails the spec. */
function failureOf(start: Promise<{ stop(): Promise<void> }>, what: string): Promise<unknown> {
  return start.then(
    (running) => running.stop().then(() => expect.fail(what)),
    (e: unknown) => e,
  );
}

/** A port picker whose first pick is `taken`, then free ports; it records what it handed out. */
function pickerHanding(taken: number) {
  const picked: number[] = [];
  const pick = async (count: number) => {
    const ports = picked.length === 0 ? [taken] : await freePorts(count);
    picked.push(...ports);
    return ports;
  };
  return { pick, picked };
}

describe('real parts on a taken port: retried on a new one, or named when it was asked for', function () {
  this.timeout(20_000);
  let thief: Server;
  let taken: number;

  beforeEach(async () => {
    thief = await listenOn(0);
    taken = (thief.address() as { port: number }).port;
  });
  afterEach(() => close(thief));

  it('redis-server: a picked port that is taken costs a retry on another port', async () => {
    const { pick, picked } = pickerHanding(taken);
    const redis = await startRedis({ pickPorts: pick });
    try {
      expect(picked).to.have.length(2);
      expect(picked[0]).to.equal(taken);
      expect(redis.port).to.equal(picked[1]).and.not.equal(taken);
      expect(listensOn(redis.pid, redis.port), 'redis-server holds its port').to.not.equal(false);
    } finally {
      await redis.stop();
    }
  });

  it('redis-server: a given port that is taken fails with PortTaken naming it, without trying another', async () => {
    const error = await failureOf(startRedis({ port: taken }), 'started on a taken port');
    expect(error).to.be.instanceOf(PortTaken);
    expect((error as PortTaken).port).to.equal(taken);
    expect((error as PortTaken).given).to.equal(true);
    expect((error as Error).message).to.contain(`port ${taken} was asked for but is taken`).and.match(/Address already in use/);
  });

  it('redis-server: a start that never gets a port gives up after its tries, listing each', async () => {
    let picks = 0;
    const error = await failureOf(startRedis({ tries: 2, pickPorts: async () => (picks++, [taken]) }), 'started on a taken port');
    expect(picks).to.equal(2);
    expect((error as Error).message).to.match(/no start bound its ports in 2 tries/).and.contain(`${taken}: port ${taken} was taken`);
  });

  it('haproxy: a picked front port that is taken costs a retry on another port', async () => {
    const { pick, picked } = pickerHanding(taken);
    const haproxy = await startHaproxy({ backends: [taken], pickPorts: pick });
    try {
      expect(picked).to.have.length(2);
      expect(haproxy.port).to.equal(picked[1]).and.not.equal(taken);
      expect(listensOn(haproxy.pid, haproxy.port), 'haproxy holds its front port').to.not.equal(false);
    } finally {
      await haproxy.stop();
    }
  });

  it('haproxy: a given port held by another process, even another haproxy, fails with PortTaken naming it', async () => {
    const error = await failureOf(startHaproxy({ backends: [taken], port: taken }), 'started on a taken port');
    expect(error).to.be.instanceOf(PortTaken);
    expect((error as Error).message).to.contain(`port ${taken} was asked for but is taken`).and.match(/cannot bind socket \(Address already in use\)/);

    // HAProxy's default SO_REUSEPORT would let a second one share the first one's port silently.
    const first = await startHaproxy({ backends: [taken] });
    try {
      const second = await failureOf(startHaproxy({ backends: [taken], port: first.port }), 'a second haproxy shared the port');
      expect(second).to.be.instanceOf(PortTaken);
      expect((second as PortTaken).port).to.equal(first.port);
    } finally {
      await first.stop();
    }
  });

  it('a server process restarted on a given port that is taken fails with PortTaken naming it', async () => {
    const error = await failureOf(startEverything({ port: taken }), 'started on a taken port');
    expect(error).to.be.instanceOf(PortTaken);
    expect((error as Error).message).to.contain(`port ${taken} was asked for but is taken`).and.match(/EADDRINUSE/);
  });
});
