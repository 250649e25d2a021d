/**
 * SlotMap answers as a Map does (the tables of requests in flight use it): the same sizes,
 * lookups and insertion order, whatever the sequence of sets and deletes.
 */
import { expect } from 'chai';
import { SlotMap } from '../../lib/session/slot-map.js';

/** A small deterministic generator (the same sequence every run). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('SlotMap', () => {
  it('agrees with a Map over 5,000 random sets, deletes, lookups and clears (ids numbers and strings)', () => {
    const next = lcg(7);
    const real = new Map<number | string, number>();
    const slot = new SlotMap<number | string, number>();
    for (let step = 0; step < 5_000; step++) {
      const r = next();
      // Few keys, so that sets update, deletes hit, and the table keeps emptying and refilling.
      const n = Math.floor(next() * 6);
      const key = next() < 0.5 ? n : `k${n}`;
      if (r < 0.45) {
        real.set(key, step);
        slot.set(key, step);
      } else if (r < 0.9) {
        expect(slot.delete(key), `delete ${String(key)} at ${step}`).to.equal(real.delete(key));
      } else if (r < 0.995) {
        expect(slot.get(key)).to.equal(real.get(key));
        expect(slot.has(key)).to.equal(real.has(key));
      } else {
        real.clear();
        slot.clear();
      }
      expect(slot.size).to.equal(real.size);
      expect(slot.values(), `values at ${step}`).to.deep.equal([...real.values()]);
    }
  });

  it('keeps insertion order when the oldest entry leaves and new ones come', () => {
    const m = new SlotMap<number, string>();
    m.set(1, 'a').set(2, 'b');
    m.delete(1);
    m.set(3, 'c');
    expect(m.values()).to.deep.equal(['b', 'c']);
    m.delete(2);
    m.delete(3);
    m.set(4, 'd').set(5, 'e');
    expect(m.values()).to.deep.equal(['d', 'e']);
    expect(m.get(4)).to.equal('d');
    expect(m.size).to.equal(2);
  });
});
