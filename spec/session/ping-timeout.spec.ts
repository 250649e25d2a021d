// PING-004: timeouts appropriate for the network. The keep-alive's timeout is set apart from its
// interval: a peer that answers a ping in 800 ms (a slow link) fails a client whose timeout is
// 500 ms and keeps one whose timeout is 2 s operating; without a timeout given, it is the
// interval. On the simulated clock.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { ManualClock } from '../../lib/clock.js';
import { RawPeer, CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';

/** A client pinging every second, connected to a peer that answers each ping `lag` ms late. */
async function slowLink(keepAlive: { interval: number; timeout?: number }, lag: number) {
  const clock = new ManualClock();
  const peer = new RawPeer();
  const client = new Client({ era: 'legacy', info: CLIENT_INFO, clock, keepAlive });
  const connecting = client.connect(peer.transport);
  const init = await peer.next((f) => f.method === 'initialize');
  peer.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: SERVER_INFO } });
  await connecting;
  clock.advance(keepAlive.interval);
  const ping = await peer.next((f) => f.method === 'ping');
  clock.advance(lag);
  await settle();
  if (client.currentPhase === 'operating') peer.send({ jsonrpc: '2.0', id: ping.id, result: {} });
  await settle();
  return client;
}

describe('keep-alive: a ping timeout chosen for the network', () => {
  it('[PING-004] an answer 800 ms late fails the session with timeout 500, not with timeout 2000; the default timeout is the interval', async () => {
    const strict = await slowLink({ interval: 1000, timeout: 500 }, 800);
    expect(strict.currentPhase).to.equal('failed');
    const patient = await slowLink({ interval: 1000, timeout: 2000 }, 800);
    expect(patient.currentPhase).to.equal('operating');
    await patient.close();
    const byDefault = await slowLink({ interval: 1000 }, 800);
    expect(byDefault.currentPhase).to.equal('operating');
    await byDefault.close();
    const tooSlowForDefault = await slowLink({ interval: 1000 }, 1000);
    expect(tooSlowForDefault.currentPhase).to.equal('failed');
  });
});
