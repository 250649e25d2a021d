// Reopening subscriptions/listen (2026-07-28) on the client clock: a listen the server keeps ending
// is opened again after a growing, jittered wait (not a fixed second), the wait starts short again
// once a listen is acknowledged, and a server that tears a listen down with notifications/cancelled
// gets it reopened the same way.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createMemoryPair } from '../../streams/memory.js';

type Msg = { id?: number; method?: string; params?: Record<string, any> };
const V = '2026-07-28';
const tick = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

/** A server that ends every listen at once (or acks it, when `ack` says so). */
function endingServer(ack: () => boolean) {
  const [a, b] = createMemoryPair();
  const seen: Msg[] = [];
  const send = (frame: unknown) => void b.send(frame as never);
  b.inbound$.subscribe((raw) => {
    const m = raw as Msg;
    seen.push(m);
    if (m.method === 'server/discover') {
      send({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', supportedVersions: [V], capabilities: { resources: { subscribe: true } }, ttlMs: 0, cacheScope: 'public' } });
    }
    if (m.method === 'subscriptions/listen') {
      if (ack()) send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: m.params!.notifications, _meta: { 'io.modelcontextprotocol/subscriptionId': m.id } } });
      else send({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': m.id } } });
    }
  });
  return { transport: a, send, listens: () => seen.filter((m) => m.method === 'subscriptions/listen') };
}

describe('client: reopening subscriptions/listen (2026-07-28)', () => {
  it('[CANCEL-041] a listen the server keeps ending is reopened after 1 s, 2 s, 4 s... (capped), less up to half of each at random', async () => {
    const clock = new ManualClock(0);
    const s = endingServer(() => false);
    // random() = 0: no jitter taken off, so each wait is the full backoff step.
    const client = new Client({ info: { name: 'c', version: '1' }, clock, random: () => 0, listenBackoff: { maxDelayMs: 4000 } });
    await client.connect(s.transport);
    const sub = client.subscribe('file:///watched').subscribe();
    await tick();
    expect(s.listens()).to.have.length(1);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = s.listens().length;
      let waited = 0;
      while (s.listens().length === before && waited < 10_000) {
        clock.advance(100);
        waited += 100;
        await tick();
      }
      waits.push(waited);
    }
    expect(waits).to.deep.equal([1000, 2000, 4000, 4000]);
    sub.unsubscribe();
    await client.close();
  });

  it('the jitter takes up to half of a wait off (random() close to 1: the first reopening after ~500 ms)', async () => {
    const clock = new ManualClock(0);
    const s = endingServer(() => false);
    const client = new Client({ info: { name: 'c', version: '1' }, clock, random: () => 0.99 });
    await client.connect(s.transport);
    const sub = client.subscribe('file:///watched').subscribe();
    await tick();
    clock.advance(490);
    await tick();
    expect(s.listens()).to.have.length(1);
    clock.advance(20);
    await tick();
    expect(s.listens()).to.have.length(2);
    sub.unsubscribe();
    await client.close();
  });

  it('[CANCEL-044] [CANCEL-054] an acknowledged listen resets the wait; a listen the server tears down with notifications/cancelled is reopened too', async () => {
    const clock = new ManualClock(0);
    let acking = false;
    const s = endingServer(() => acking);
    const client = new Client({ info: { name: 'c', version: '1' }, clock, random: () => 0 });
    await client.connect(s.transport);
    const sub = client.subscribe('file:///watched').subscribe();
    await tick();
    // Two endings: the next wait would be 4 s.
    clock.advance(1000);
    await tick();
    clock.advance(2000);
    await tick();
    expect(s.listens()).to.have.length(3);
    // The next one is acknowledged and stays open...
    acking = true;
    clock.advance(4000);
    await tick();
    expect(s.listens()).to.have.length(4);
    const open = s.listens()[3]!;
    // ...until the server tears it down: back to the first step (1 s).
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: open.id, reason: 'server shutting the stream' } });
    await tick();
    clock.advance(999);
    await tick();
    expect(s.listens()).to.have.length(4);
    clock.advance(1);
    await tick();
    expect(s.listens()).to.have.length(5);
    expect(s.listens()[4]!.params!.notifications).to.deep.equal({ resourceSubscriptions: ['file:///watched'] });
    sub.unsubscribe();
    await client.close();
  });
});
