/**
 * SlotMap answers as a Map does (the tables of requests in flight use it): the same sizes,
 * lookups and insertion order, whatever the sequence of sets and deletes.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { SlotMap } from '../../lib/session/slot-map.js';
import { tsArgs } from '../helpers/ts-child.js';

/** Bytes a request leaves in old space, measured in a fresh process (spec/fixtures/session/table-promotion.ts). */
function promotion(kind: 'slot' | 'map' | 'registry'): Promise<{ perRequest: number; gcs: number }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', ...tsArgs('spec/fixtures/session/table-promotion.ts'), kind], (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as { perRequest: number; gcs: number });
    });
  });
}

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

  it('agrees with a Map under steady load: 64 in flight, 20,000 requests, answered oldest first or out of order', () => {
    const next = lcg(11);
    const real = new Map<number, number>();
    const slot = new SlotMap<number, number>();
    const inFlight: number[] = [];
    // Plain comparisons in the loop (an assertion per step would make this spec slow).
    const wrong: string[] = [];
    for (let id = 0; id < 20_000; id++) {
      real.set(id, id);
      slot.set(id, id);
      inFlight.push(id);
      if (inFlight.length > 64) {
        // Mostly the oldest (a pipelined peer), now and then another one.
        const at = next() < 0.8 ? 0 : Math.floor(next() * inFlight.length);
        const done = inFlight.splice(at, 1)[0]!;
        if (slot.delete(done) !== real.delete(done) || slot.has(done)) wrong.push(`delete ${done}`);
      }
      if (slot.size !== real.size || slot.get(id) !== real.get(id)) wrong.push(`size or get at ${id}`);
      if (id % 997 === 0) expect(slot.values(), `values at ${id}`).to.deep.equal([...real.values()]);
    }
    expect(wrong).to.deep.equal([]);
    for (const id of inFlight) expect(slot.get(id)).to.equal(id);
    expect(slot.values()).to.deep.equal([...real.values()]);
  });

  it('keeps what its entries hold out of old space under steady load, where a Map promotes it all (a child process each)', async () => {
    // V8's hazard (bench/README.md, 2026-11-29): once a full GC found a Map's table in use, its
    // later tables are made in old space, and a table left behind keeps its entries alive through
    // scavenges until the next full GC: every request's objects were promoted.
    const slot = await promotion('slot');
    const map = await promotion('map');
    expect(map.perRequest, 'a plain Map (the hazard this guards against, ~200 B a request)').to.be.above(50);
    expect(slot.perRequest, `SlotMap (${slot.gcs} GCs)`).to.be.below(10);
  });

  it('keeps a request registry whose requests carry progress tokens out of old space under steady load (its token table too)', async () => {
    const registry = await promotion('registry');
    // With its token table a plain Map: ~520 B a request.
    expect(registry.perRequest, `RequestRegistry (${registry.gcs} GCs)`).to.be.below(60);
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
