import { expect } from 'chai';
import { lastValueFrom, toArray } from 'rxjs';
import { TransportError } from '../../lib/errors.js';
import type { JsonRpcNotification } from '../../lib/jsonrpc/message.js';
import { createMemoryPair } from '../../streams/memory.js';
import type { RawFrame } from '../../streams/transport.js';

const note = (n: number): JsonRpcNotification => ({ jsonrpc: '2.0', method: 'n', params: { n } });

describe('memory transport pair', () => {
  it('delivers frames to the other side asynchronously, in order, as the same objects', async () => {
    const [a, b] = createMemoryPair();
    await Promise.all([a.start(), b.start()]);
    const got: RawFrame[] = [];
    b.inbound$.subscribe((f) => got.push(f));
    const frames = [note(1), note(2), note(3)];
    for (const f of frames) a.send(f);
    expect(got).to.have.length(0);
    await Promise.resolve();
    expect(got).to.have.length(3);
    got.forEach((f, i) => expect(f).to.equal(frames[i]));
  });

  it('works both ways', async () => {
    const [a, b] = createMemoryPair();
    const atA: RawFrame[] = [];
    a.inbound$.subscribe((f) => atA.push(f));
    b.send(note(9));
    await Promise.resolve();
    expect(atA).to.deep.equal([note(9)]);
  });

  it('delivers JSON text with serialize: true', async () => {
    const [a, b] = createMemoryPair({ serialize: true });
    const got: RawFrame[] = [];
    b.inbound$.subscribe((f) => got.push(f));
    a.send(note(1));
    await Promise.resolve();
    expect(got).to.deep.equal([JSON.stringify(note(1))]);
  });

  it('buffers frames that arrive before the first subscriber', async () => {
    const [a, b] = createMemoryPair();
    a.send(note(1));
    a.send(note(2));
    await Promise.resolve();
    const first: RawFrame[] = [];
    b.inbound$.subscribe((f) => first.push(f));
    expect(first).to.deep.equal([note(1), note(2)]);
    a.send(note(3));
    await Promise.resolve();
    expect(first).to.deep.equal([note(1), note(2), note(3)]);
  });

  it('close() on one side closes both: state closed, in-flight frames delivered, inbound completes', async () => {
    const [a, b] = createMemoryPair();
    const atB = lastValueFrom(b.inbound$.pipe(toArray()));
    const atA = lastValueFrom(a.inbound$.pipe(toArray()));
    a.send(note(1));
    await b.close();
    expect(await atB).to.deep.equal([note(1)]);
    expect(await atA).to.deep.equal([]);
    for (const t of [a, b]) {
      const states: string[] = [];
      t.state$.subscribe((s) => states.push(s.phase));
      expect(states).to.deep.equal(['closed']);
      expect(() => t.send(note(2))).to.throw(TransportError, /closed/);
    }
    await a.close(); // idempotent
  });

  it('replays the current state to new subscribers', () => {
    const [a] = createMemoryPair();
    const phases: string[] = [];
    a.state$.subscribe((s) => phases.push(s.phase));
    expect(phases).to.deep.equal(['open']);
  });
});

describe('transport streams (HotInbound, StateCell): unsubscribing', () => {
  it('an observer that unsubscribed gets no more frames or states; the others still do, and complete', async () => {
    const [a, b] = createMemoryPair();
    await Promise.all([a.start(), b.start()]);
    const first: unknown[] = [];
    const second: unknown[] = [];
    const firstFrames = b.inbound$.subscribe((f) => first.push(f));
    b.inbound$.subscribe({ next: (f) => second.push(f), complete: () => second.push('complete') });
    const firstStates = b.state$.subscribe((s) => first.push(s.phase));
    const secondStates: string[] = [];
    b.state$.subscribe((s) => secondStates.push(s.phase));
    a.send(note(1));
    await Promise.resolve();
    firstFrames.unsubscribe();
    firstStates.unsubscribe();
    a.send(note(2));
    await Promise.resolve();
    // A subscriber that comes and goes after the first left is not called either.
    b.inbound$.subscribe((f) => first.push(f)).unsubscribe();
    a.send(note(3));
    await Promise.resolve();
    await a.close();
    expect(first).to.deep.equal(['open', note(1)]);
    expect(second).to.deep.equal([note(1), note(2), note(3), 'complete']);
    expect(secondStates).to.deep.equal(['open', 'closed']);
  });
});
