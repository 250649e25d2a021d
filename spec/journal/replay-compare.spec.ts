// replay({ keepFrames: false }), what `replay --check` runs: frames compared as they come, none
// kept, the same verdict and the same first difference as comparing the kept lists; and the
// wait between inputs that runs an immediate the session queued (a response held back one turn
// after progress) before the next input.
import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { Journal } from '../../lib/journal/journal.js';
import { replay, sameJson } from '../../lib/journal/replay.js';
import { Server } from '../../lib/server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO, settle } from '../helpers/raw-peer.js';

async function clientJournal(): Promise<string> {
  const [a, b] = createMemoryPair();
  const server = new Server({ info: SERVER_INFO, capabilities: { tools: {} } });
  server.onRequest('tools/call', (p: any) => ({ content: [{ type: 'text', text: String(p.arguments.n * 2) }] }));
  await server.connect(a);
  const client = new Client({ info: CLIENT_INFO, journal: true, era: 'legacy' });
  await client.connect(b);
  // Several in flight at once, answered in order.
  await Promise.all([1, 2, 3, 4, 5].map((n) => client.request('tools/call', { name: 'twice', arguments: { n } })));
  await client.close();
  await settle();
  return client.journal!.toJSONL();
}

describe('replay without keeping frames', () => {
  it('gives the verdict, count and first difference of the kept comparison', async () => {
    const text = await clientJournal();
    const kept = await replay(text);
    const streamed = await replay(text, { keepFrames: false });
    expect(streamed.matches).to.equal(true);
    expect(streamed.compared).to.equal(kept.recorded.length);
    expect(streamed.outbound).to.deep.equal([]);
    expect(streamed.recorded).to.deep.equal([]);

    const journal = Journal.parse(text);
    const out = journal.entries.filter((e) => e.kind === 'out');
    (out[3] as any).frame.params.arguments.n = 33;
    const tampered = journal.toJSONL();
    const a = await replay(tampered);
    const b = await replay(tampered, { keepFrames: false });
    expect(b.matches).to.equal(false);
    expect(b.firstDifference).to.deep.equal(a.firstDifference);
    expect(b.firstDifference!.index).to.equal(3);
  });

  it('a frame the replay did not send, or sent beyond the recording, is the difference', async () => {
    const journal = Journal.parse(await clientJournal());
    const last = journal.entries.map((e) => e.kind).lastIndexOf('out');
    const dropped = journal.entries[last] as { frame: unknown };
    journal.entries.splice(last, 1);
    const result = await replay(journal, { keepFrames: false });
    expect(result.matches).to.equal(false);
    expect(result.firstDifference!.recorded).to.equal(undefined);
    expect(result.firstDifference!.replayed).to.deep.equal(dropped.frame);
  });

  it('sameJson agrees with comparing JSON texts', () => {
    const cases: [unknown, unknown][] = [
      [{ a: 1, b: [1, 2] }, { a: 1, b: [1, 2] }],
      [{ a: 1, b: 2 }, { b: 2, a: 1 }],
      [{ a: 1, b: undefined }, { a: 1 }],
      [[1, undefined], [1, null]],
      [{ a: NaN }, { a: null }],
      [{ a: '1' }, { a: 1 }],
      [[], {}],
      [{ a: { b: [{ c: 'x' }] } }, { a: { b: [{ c: 'y' }] } }],
      [undefined, undefined],
      [undefined, null],
    ];
    for (const [x, y] of cases) expect(sameJson(x, y), JSON.stringify([x, y])).to.equal(JSON.stringify(x) === JSON.stringify(y));
  });
});
