/**
 * The registry remembers the last 1,024 requests that finished, so an answer that comes after a
 * request ended (a timeout, a cancel) is told from one for an id it never sent.
 */
import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';
import { RequestRegistry } from '../../lib/session/request-registry.js';

function registry() {
  const clock = new ManualClock(0);
  const reg = new RequestRegistry(clock, { sendCancelled: () => {}, timerFired: () => {} }, 1000);
  return { clock, reg };
}

describe('request registry: recently finished requests', () => {
  it('[CANCEL-008] an answer to a request that timed out is late, and says how it ended; an id never sent is unknown', async () => {
    const { clock, reg } = registry();
    const timedOut = reg.register(1, 'tools/call', { timeout: 10 }, undefined).catch((e: Error) => e.name);
    const answered = reg.register(2, 'tools/call', undefined, undefined);
    clock.advance(10);
    expect(await timedOut).to.equal('RequestTimeoutError');
    expect(reg.settle(2, { ok: true }, undefined)).to.equal('settled');
    expect(await answered).to.deep.equal({ ok: true });
    expect(reg.stateOf(1)).to.equal('timedOut');
    expect(reg.stateOf(2)).to.equal('settled');
    expect(reg.settle(1, {}, undefined)).to.equal('late');
    expect(reg.settle(2, {}, undefined)).to.equal('late');
    expect(reg.settle(3, {}, undefined)).to.equal('unknown');
    expect(reg.stateOf(3)).to.equal(undefined);
  });

  it('[CANCEL-008] forgets the oldest past 1,024 finished requests, and a repeated id reads as its latest end', async () => {
    const { reg } = registry();
    // Id 0 is aborted first; 1,100 more are answered after it, so it falls out of the ring.
    const aborted = reg.register(0, 'tools/call', undefined, undefined).catch(() => 'aborted');
    reg.abort(0);
    expect(await aborted).to.equal('aborted');
    for (let id = 1; id <= 1100; id++) {
      const p = reg.register(id, 'tools/call', undefined, undefined);
      reg.settle(id, {}, undefined);
      await p;
    }
    expect(reg.settle(0, {}, undefined)).to.equal('unknown');
    // 1100 - 1024 = 76: ids 1..76 are forgotten, 77..1100 remembered.
    expect(reg.stateOf(76)).to.equal(undefined);
    expect(reg.stateOf(77)).to.equal('settled');
    expect(reg.stateOf(1100)).to.equal('settled');
    // An id used again (a peer that numbers its own): the latest end is what counts.
    const again = reg.register(1100, 'tools/call', undefined, undefined).catch(() => 'aborted');
    reg.abort(1100);
    expect(await again).to.equal('aborted');
    expect(reg.stateOf(1100)).to.equal('cancelled');
    expect(reg.size).to.equal(0);
  });

  it('a request given a mapping resolves with the mapped result, and fails with its error should it throw (no hang)', async () => {
    const { reg } = registry();
    const mapped = reg.register(1, 'tools/call', undefined, undefined, undefined, { mapResult: (r) => ({ ...r, seen: true }) });
    const later = reg.register(2, 'tools/call', undefined, undefined, undefined, { mapResult: (r) => Promise.resolve({ later: r.n as number }) });
    const thrown = reg.register(3, 'tools/call', undefined, undefined, undefined, {
      mapResult: () => {
        throw new TypeError('bad result');
      },
    });
    reg.settle(1, { n: 1 }, undefined);
    reg.settle(2, { n: 2 }, undefined);
    reg.settle(3, { n: 3 }, undefined);
    expect(await mapped).to.deep.equal({ n: 1, seen: true });
    expect(await later).to.deep.equal({ later: 2 });
    expect(await thrown.catch((e: Error) => `${e.name}: ${e.message}`)).to.equal('TypeError: bad result');
    expect(reg.stateOf(3)).to.equal('settled');
  });
});
