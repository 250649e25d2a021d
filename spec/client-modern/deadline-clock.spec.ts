// Request timeouts over the system clock are deadlines in a queue with one real timer
// (lib/client-era/deadline-clock.ts): a Node timer per request cost about a microsecond per call.
// The queue must keep what Node timers give: each deadline fires at its time, in due order,
// never once cleared, and only a pending deadline keeps the process alive.
import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { DeadlineClock, type BaseTimers } from '../../lib/client-era/deadline-clock.js';
import { Client } from '../../lib/entries/client.js';
import { RequestTimeoutError } from '../../lib/errors.js';
import { createMemoryPair } from '../../streams/memory.js';

/** A DeadlineClock over a simulated clock, recording what it does to the timers below. */
function overManual() {
  const manual = new ManualClock(0);
  const refs: string[] = [];
  const base: BaseTimers = {
    now: () => manual.now(),
    setTimeout: (fn, ms) => manual.setTimeout(fn, ms),
    clearTimeout: (h) => manual.clearTimeout(h as number),
    ref: () => void refs.push('ref'),
    unref: () => void refs.push('unref'),
  };
  return { manual, refs, clock: new DeadlineClock(base) };
}

describe('client: request timeouts as deadlines (system clock)', () => {
  it('a deadline fires at its time and not before; a cleared one never fires; a thousand set and cleared in turn hold one timer below', () => {
    const { manual, clock } = overManual();
    const fired: string[] = [];
    for (let i = 0; i < 1000; i++) clock.clearTimeout(clock.setTimeout(() => fired.push(`early${i}`), 500));
    expect(manual.pending).to.equal(1);
    const kept = clock.setTimeout(() => fired.push('kept'), 500);
    const cleared = clock.setTimeout(() => fired.push('cleared'), 500);
    clock.clearTimeout(cleared);
    manual.advance(499);
    expect(fired).to.deep.equal([]);
    manual.advance(1);
    expect(fired).to.deep.equal(['kept']);
    clock.clearTimeout(kept); // already fired: nothing to do
    manual.advance(10_000);
    expect(fired).to.deep.equal(['kept']);
    expect(clock.pending).to.equal(0);
    expect(manual.pending).to.equal(0);
  });

  it('deadlines of different lengths fire in due order (a shorter one set later first), ties in the order set', () => {
    const { manual, clock } = overManual();
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('long'), 1000);
    manual.advance(100);
    clock.setTimeout(() => fired.push('short'), 100); // due at 200, before the long one's 1000
    clock.setTimeout(() => fired.push('tie-a'), 900); // due at 1000 as the long one, set after it
    manual.advance(100);
    expect(fired).to.deep.equal(['short']);
    manual.advance(800);
    expect(fired).to.deep.equal(['short', 'long', 'tie-a']);
  });

  it('answers out of order behind a long-lived deadline: the others still fire on time, the cleared never', () => {
    const { manual, clock } = overManual();
    const fired: number[] = [];
    const ids = Array.from({ length: 3000 }, (_, i) => clock.setTimeout(() => fired.push(i), 1000));
    // The first stays; every other one is answered (cleared), past the lane's compaction.
    for (let i = 1; i < ids.length; i += 2) clock.clearTimeout(ids[i]);
    expect(clock.pending).to.equal(1500);
    manual.advance(1000);
    expect(fired).to.have.length(1500);
    expect(fired.every((i) => i % 2 === 0)).to.equal(true);
    expect(fired).to.deep.equal([...fired].sort((a, b) => a - b));
  });

  it('a throwing callback does not hold back the deadlines after it (its error surfaces uncaught, as a timer\'s would)', async () => {
    const { manual, clock } = overManual();
    const fired: string[] = [];
    const uncaught: unknown[] = [];
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (e) => uncaught.push(e));
    try {
      clock.setTimeout(() => {
        throw new Error('boom');
      }, 10);
      clock.setTimeout(() => fired.push('after'), 10);
      clock.setTimeout(() => fired.push('later'), 20);
      manual.advance(10);
      expect(fired).to.deep.equal(['after']);
      await new Promise((r) => setImmediate(r));
      expect(uncaught.map((e) => (e as Error).message)).to.deep.equal(['boom']);
      manual.advance(10);
      expect(fired).to.deep.equal(['after', 'later']);
    } finally {
      process.removeAllListeners('uncaughtException');
      for (const l of listeners) process.on('uncaughtException', l);
    }
  });

  it('the timer below keeps the process alive only while a deadline is pending', () => {
    const { manual, refs, clock } = overManual();
    const a = clock.setTimeout(() => {}, 100);
    const b = clock.setTimeout(() => {}, 100);
    clock.clearTimeout(a);
    expect(refs).to.deep.equal([]);
    clock.clearTimeout(b);
    expect(refs).to.deep.equal(['unref']);
    clock.setTimeout(() => {}, 100);
    expect(refs).to.deep.equal(['unref', 'ref']);
    manual.advance(100);
    expect(clock.pending).to.equal(0);
  });

  it('a client on the system clock: 200 calls waiting hold at most one more Node timer; answered, none; a timeout still ends a call', async () => {
    const [a, b] = createMemoryPair();
    const held: { id: number | string }[] = [];
    b.inbound$.subscribe((raw) => {
      const m = raw as { id?: number | string; method?: string };
      if (m.method === 'server/discover') void b.send({ jsonrpc: '2.0', id: m.id!, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } } as never);
      if (m.method === 'tools/call') held.push({ id: m.id! });
    });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const client = new Client({ info: { name: 'spec', version: '1' }, era: 'modern' });
    await client.connect(a);
    const before = timers();
    const calls = Array.from({ length: 200 }, () => client.callTool('echo', {}, { timeout: 60_000 }));
    await new Promise((r) => setImmediate(r));
    expect(held).to.have.length(200);
    expect(timers()).to.be.at.most(before + 1);
    for (const { id } of held) void b.send({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [] } } as never);
    await Promise.all(calls);
    expect(timers()).to.equal(before);
    // A short timeout on the real clock (20 ms) still fires through the queue.
    const late = await client.callTool('echo', {}, { timeout: 20 }).then(() => undefined, (e: unknown) => e);
    expect(late).to.be.instanceOf(RequestTimeoutError);
    await client.close();
  });
});
