// ManualClock, the simulated clock of specs and replay: timers fire in due order (ties in the
// order they were set) however they were set and cleared; it keeps its earliest timer known so
// replay can ask at every input without scanning every timer.
import { expect } from 'chai';
import { ManualClock } from '../../lib/clock.js';

describe('ManualClock', () => {
  it('fires timers in due order, ties in the order they were set, across sets and clears of the earliest', () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    const at = (name: string, ms: number) => clock.setTimeout(() => fired.push(name), ms, name);
    const a = at('a', 50);
    at('b', 30);
    const c = at('c', 10);
    at('d', 30);
    expect(clock.nextDue()).to.equal(10);
    clock.clearTimeout(c); // the earliest goes: the next one is found again
    expect(clock.nextDue()).to.equal(30);
    at('e', 5);
    expect(clock.nextDue()).to.equal(5);
    clock.advanceTo(30);
    expect(fired).to.deep.equal(['e', 'b', 'd']);
    clock.clearTimeout(a);
    expect(clock.nextDue()).to.equal(Infinity);
    at('f', 1);
    expect(clock.fireNamed('f')).to.equal(true);
    expect(clock.nextDue()).to.equal(Infinity);
    expect(fired).to.deep.equal(['e', 'b', 'd', 'f']);
  });

  it('a timer set while others fire joins the order by its due time', () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(10);
      clock.setTimeout(() => fired.push(15), 5);
    }, 10);
    clock.setTimeout(() => fired.push(20), 20);
    clock.advanceTo(100);
    expect(fired).to.deep.equal([10, 15, 20]);
    expect(clock.now()).to.equal(100);
  });

  it('a held timer is passed by as time moves and fires only by its name (replay fires it at its journal entry)', () => {
    const clock = new ManualClock(0, { hold: (name) => name.startsWith('progress:') });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('flush'), 10, 'progress:1');
    const cleared = clock.setTimeout(() => fired.push('cleared'), 10, 'progress:2');
    clock.setTimeout(() => fired.push('ttl'), 20, 'task:t:ttl');
    expect(clock.nextDue()).to.equal(20);
    expect(clock.pending).to.equal(3);
    clock.clearTimeout(cleared);
    clock.advanceTo(30);
    expect(fired).to.deep.equal(['ttl']);
    expect(clock.fireNamed('progress:2')).to.equal(false);
    expect(clock.fireNamed('progress:1')).to.equal(true);
    expect(fired).to.deep.equal(['ttl', 'flush']);
    expect(clock.now()).to.equal(30);
    expect(clock.pending).to.equal(0);
  });
});
