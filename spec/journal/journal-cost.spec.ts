// What keeping a journal costs on the frame path (issue 26: at most 1 µs per entry in memory): a
// redacting journal keeps each entry as it was recorded and writes (and redacts) its text only
// when it is read or saved, once; what it then gives is what it would have given at once.
import { expect } from 'chai';
import { Client } from '../../lib/client.js';
import { ManualClock } from '../../lib/clock.js';
import { Journal } from '../../lib/journal/journal.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';

/** A frame that counts how often it is written as JSON. */
function countedFrame(): { frame: { jsonrpc: '2.0'; id: number; result: { text: string }; toJSON(): unknown }; written: () => number } {
  let n = 0;
  const frame = {
    jsonrpc: '2.0' as const,
    id: 1,
    result: { text: 'hello' },
    toJSON() {
      n++;
      return { jsonrpc: this.jsonrpc, id: this.id, result: this.result };
    },
  };
  return { frame, written: () => n };
}

describe('journal cost: text written when read or saved, not when recorded', () => {
  it('a redacting journal writes nothing as an entry is recorded, then each entry once when saved, redacted', () => {
    const journal = new Journal({ redact: true });
    const { frame, written } = countedFrame();
    journal.push({ kind: 'in', seq: 0, t: 5, frame });
    journal.push({ kind: 'out', seq: 1, t: 6, frame: { jsonrpc: '2.0', id: 2, result: { password: 'hush-1234' } } });
    expect(written(), 'written as it was recorded').to.equal(0);
    expect(journal.size, 'counted without writing').to.equal(2);
    expect(written()).to.equal(0);
    const text = journal.toJSONL();
    expect(written()).to.equal(1);
    expect(text).to.include('"text":"hello"').and.not.include('hush-1234');
    // Read as objects: copies with the secret hidden, not the live frames.
    const entries = journal.entries;
    expect(written()).to.equal(2);
    expect(entries).to.deep.equal([
      { kind: 'in', seq: 0, t: 5, frame: { jsonrpc: '2.0', id: 1, result: { text: 'hello' } } },
      { kind: 'out', seq: 1, t: 6, frame: { jsonrpc: '2.0', id: 2, result: { password: '[REDACTED]' } } },
    ]);
    expect(journal.toJSONL()).to.equal(text);
    expect(written(), 'the read entries are not written from the live frame again').to.equal(2);
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`${era} era: a client journal read part way saves, in order and redacted, what it saves when read only at its end`, async () => {
      const clock = new ManualClock(1_000);
      const mcp = createMcpServer({ info: { name: 'echo', version: '1' }, clock });
      mcp.registerTool('echo', { description: 'echo' }, (args) => JSON.stringify({ text: args.text, apiKey: 'sk-live-9' }));
      const [a, b] = createMemoryPair();
      await mcp.connect(a);
      const client = new Client({ info: { name: 'cost-spec', version: '1' }, era, clock, journal: true, eraCache: false });
      await client.connect(b);
      await client.callTool('echo', { text: 'one' });
      const early = client.journal!.entries.length;
      await client.callTool('echo', { text: 'two', token: 'tok-2' });
      await client.close();
      await mcp.close();
      // Entries read (objects) first, then those recorded since (still as recorded).
      const mixed = client.journal!.toJSONL();
      const all = client.journal!.entries;
      expect(all.length).to.be.greaterThan(early);
      expect(client.journal!.toJSONL()).to.equal(mixed);
      expect(all.map((e) => e.seq)).to.deep.equal(all.map((_, i) => i));
      expect(mixed).to.include('two').and.not.include('sk-live-9').and.not.include('tok-2');
    });
  }
});
