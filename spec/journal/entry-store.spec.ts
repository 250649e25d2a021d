// A journal kept in memory keeps the entries of the shapes recorded on every call as their
// values, without their entry objects (issue 26: fewer objects for the collector to copy and
// mark); what it gives back, reads and saves is what it was given: the same keys in the same
// order, the same JSON text, the frames by reference; any other shape kept as it is.
import { expect } from 'chai';
import { EntryStore } from '../../lib/journal/entry-store.js';
import type { JournalEntry } from '../../lib/journal/entry.js';
import { Journal } from '../../lib/journal/journal.js';
import { Client } from '../../lib/client.js';
import { ManualClock } from '../../lib/clock.js';
import { createMcpServer } from '../../lib/mcp-server.js';
import { createMemoryPair } from '../../streams/memory.js';

const frame = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'héllo' }] } };
const entries = [
  { kind: 'in', frame, seq: 0, t: 1_795_961_815_055.5 },
  { kind: 'out', rq: 3, frame: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } }, seq: 1, t: 1_795_961_815_056 },
  { kind: 'state', rq: 3, state: 'answered', seq: 2, t: -0 },
  { kind: 'result', call: 'c1', result: { content: [] }, seq: 3, t: 4 },
  { kind: 'call', op: 'request', id: 'c2', method: 'tools/list', seq: 4, t: 5 },
  { kind: 'call', op: 'request', id: 9, method: 'tools/call', params: { name: 'x' }, seq: 5, t: 6 },
  { kind: 'call', op: 'request', id: 9, method: 'tools/call', params: { name: 'x' }, options: { timeout: 5 }, seq: 6, t: 7 },
  { kind: 'call', op: 'request', id: 9, method: 'tools/call', params: undefined, seq: 7, t: 8 },
  // Kept as they are: another key, another order, a stamp that is not a number, another kind.
  { kind: 'in', frame, extra: 1, seq: 8, t: 9 },
  { seq: 9, t: 10, kind: 'out', frame },
  { kind: 'in', frame, seq: 10, t: '11' },
  { kind: 'state', rq: 3, state: 'answered', stages: ['a'], seq: 11, t: 12 },
  { kind: 'result', call: 'c1', error: { message: 'no' }, seq: 12, t: 13 },
  { kind: 'timer', name: 'progress:1', seq: 13, t: 14 },
  { kind: 'in', text: 'junk', seq: 14, t: 15 },
  { kind: 'in', rq: 4, frame: null, seq: 15, t: 16 },
] as unknown as JournalEntry[];

describe('journal entries kept in memory as their values', () => {
  it('gives back each entry with the same keys in the same order (the same JSON text), other shapes as they are', () => {
    const store = new EntryStore();
    for (const e of entries) store.push(e);
    expect(store.size).to.equal(entries.length);
    for (let i = 0; i < entries.length; i++) {
      expect(Object.keys(store.at(i)), `entry ${i}`).to.deep.equal(Object.keys(entries[i]!));
      expect(JSON.stringify(store.at(i)), `entry ${i}`).to.equal(JSON.stringify(entries[i]));
    }
    // Frames are kept by reference (never copied); entries of another shape are the very objects given.
    expect((store.at(0) as { frame: unknown }).frame).to.equal(frame);
    expect(store.at(0)).not.to.equal(entries[0]);
    for (const i of [8, 9, 10, 11, 12, 13, 14]) expect(store.at(i), `entry ${i}`).to.equal(entries[i]);
  });

  it('gives back thousands of entries of every shape in order, across its chunks (the first grown, then full ones)', () => {
    const store = new EntryStore();
    const given: JournalEntry[] = [];
    for (let n = 0; n < 2_600; n++) {
      const e = { ...entries[n % entries.length]!, seq: n, t: 1_000 + n / 3 } as JournalEntry;
      // An rq of a request journal counts from 1; any other is kept too, as given.
      if ('rq' in e) (e as { rq: unknown }).rq = n % 7 === 0 ? 'not a number' : n % 11 === 0 ? 1.5 : n % 13 === 0 ? -3 : n % 17 === 0 ? 2 ** 50 : n;
      given.push(e);
      // Kept unstamped as a recorder does: one that stamps last.
      if (n % 3 === 0 && Object.keys(e).slice(-2).join() === 'seq,t') store.keep(Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'seq' && k !== 't')) as never, e.seq, e.t);
      else store.push(e);
    }
    expect(store.size).to.equal(given.length);
    for (let n = 0; n < given.length; n++) expect(JSON.stringify(store.at(n)), `entry ${n}`).to.equal(JSON.stringify(given[n]));
    // Read in any order too.
    for (let n = given.length - 1; n >= 0; n -= 97) expect(JSON.stringify(store.at(n)), `entry ${n}`).to.equal(JSON.stringify(given[n]));
    store.pushRequestEntry('state', 2 ** 50, 'answered', 1, 2);
    expect(store.at(store.size - 1)).to.deep.equal({ kind: 'state', rq: 2 ** 50, state: 'answered', seq: 1, t: 2 });
    store.clear();
    expect(store.size).to.equal(0);
    store.push(given[1]!);
    expect(store.at(0)).to.deep.equal(given[1]);
  });

  it('a redacting journal saves and reads them as it did when it kept the objects', () => {
    const secret = { kind: 'out', frame: { jsonrpc: '2.0', id: 2, result: { password: 'hush-1234' } }, seq: 99, t: 1 } as unknown as JournalEntry;
    const all = [...entries, secret];
    const journal = new Journal({ redact: true });
    for (const e of all) journal.push(e);
    const text = journal.toJSONL();
    const lines = text.split('\n').slice(1, -1);
    expect(lines.slice(0, -1)).to.deep.equal(entries.map((e) => JSON.stringify(e)));
    expect(JSON.parse(lines.at(-1)!)).to.deep.equal({ kind: 'out', frame: { jsonrpc: '2.0', id: 2, result: { password: '[REDACTED]' } }, seq: 99, t: 1 });
    expect(journal.entries.map((e) => JSON.stringify(e))).to.deep.equal(lines);
    expect(journal.toJSONL()).to.equal(text);
    // Growing past its first arrays, then read part way and pushed again: order kept.
    const many = new Journal({ redact: true });
    for (let i = 0; i < 200; i++) many.push({ kind: 'in', frame: { jsonrpc: '2.0', id: i, result: {} }, seq: i, t: i } as JournalEntry);
    expect(many.entries.length).to.equal(200);
    for (let i = 200; i < 220; i++) many.push({ kind: 'in', frame: { jsonrpc: '2.0', id: i, result: {} }, seq: i, t: i } as JournalEntry);
    expect(many.entries.map((e) => e.seq)).to.deep.equal([...Array(220).keys()]);
  });

  it("a request journal's entries kept from their values save and read as the same entries pushed as objects, redacted or not", () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'login', arguments: { password: 'hush-1234' } } };
    const answer = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } };
    const steps: ['in' | 'out' | 'state', number, unknown, number][] = [['in', 1, request, 10], ['out', 1, answer, 12.5], ['state', 1, 'answered', 12.5], ['in', 2, frame, 13]];
    for (const redact of [true, false]) {
      const asObjects = new Journal({ redact });
      const asValues = new Journal({ redact });
      steps.forEach(([kind, rq, value, t], seq) => {
        asObjects.push((kind === 'state' ? { kind, rq, state: value, seq, t } : { kind, rq, frame: value, seq, t }) as JournalEntry);
        asValues.keepRequestEntry(kind, rq, value, seq, t);
      });
      expect(asValues.size, `redact ${redact}`).to.equal(4);
      expect(asValues.toJSONL(), `redact ${redact}`).to.equal(asObjects.toJSONL());
      expect(asValues.toJSONL().includes('hush-1234'), `redact ${redact}`).to.equal(!redact);
      expect(asValues.entries.map((e) => Object.keys(e)), `redact ${redact}`).to.deep.equal([['kind', 'rq', 'frame', 'seq', 't'], ['kind', 'rq', 'frame', 'seq', 't'], ['kind', 'rq', 'state', 'seq', 't'], ['kind', 'rq', 'frame', 'seq', 't']]);
    }
  });
});

describe('journal entries kept unstamped (issue 26: no properties added to an entry nobody watches)', () => {
  it('keeps an entry with its seq and t without stamping it: saved and read as the same entry pushed stamped', () => {
    for (const redact of [true, false]) {
      const stamped = new Journal({ redact });
      const kept = new Journal({ redact });
      const given = entries.map((e) => {
        const { seq: _seq, t: _t, ...rest } = e as unknown as Record<string, unknown>;
        return rest;
      });
      entries.forEach((e, i) => {
        // A recorder stamps last, with two numbers: entries stamped otherwise are left out here.
        if (typeof e.seq !== 'number' || typeof e.t !== 'number' || Object.keys(e).slice(-2).join() !== 'seq,t') return;
        stamped.push({ ...e });
        kept.keep(given[i] as never, e.seq, e.t);
      });
      expect(kept.toJSONL(), `redact ${redact}`).to.equal(stamped.toJSONL());
      expect(kept.entries.map((e) => Object.keys(e)), `redact ${redact}`).to.deep.equal(stamped.entries.map((e) => Object.keys(e)));
    }
    // A redacting journal keeps an entry of a known shape from its values: the object is left as it was.
    const journal = new Journal({ redact: true });
    const call = { kind: 'call', op: 'request', id: 'c1', method: 'tools/call', params: { name: 'echo' } } as const;
    const other = { kind: 'timer', name: 'progress:1' } as const;
    journal.keep(call, 0, 5);
    journal.keep(other, 1, 6);
    expect(Object.keys(call)).to.deep.equal(['kind', 'op', 'id', 'method', 'params']);
    // One of another shape is kept as it is, so it is stamped.
    expect(other).to.deep.equal({ kind: 'timer', name: 'progress:1', seq: 1, t: 6 });
    expect(journal.toJSONL().split('\n').slice(1, 3).map((l) => JSON.parse(l) as unknown)).to.deep.equal([{ ...call, seq: 0, t: 5 }, { kind: 'timer', name: 'progress:1', seq: 1, t: 6 }]);
  });

  it('a client whose journal nobody watches records the same text as one whose journal$ is watched, in both eras', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const texts: string[] = [];
      for (const watched of [false, true]) {
        const clock = new ManualClock(1_795_961_815_000);
        const mcp = createMcpServer({ info: { name: 'echo', version: '1' }, clock });
        mcp.registerTool('echo', { description: 'echo' }, (args) => String(args.text));
        const [a, b] = createMemoryPair();
        await mcp.connect(a);
        const client = new Client({ info: { name: 't', version: '1' }, era, journal: true, eraCache: false, clock });
        const seen: unknown[] = [];
        const sub = watched ? client.journal$.subscribe((e) => seen.push(e)) : undefined;
        await client.connect(b);
        for (let i = 0; i < 3; i++) {
          clock.advance(7);
          await client.request('tools/call', { name: 'echo', arguments: { text: `hi ${i}` } }, i === 2 ? { timeout: 5000 } : undefined);
        }
        await client.request('tools/list', undefined);
        sub?.unsubscribe();
        // (The era probe's id counts probes in this process.)
        texts.push(client.journal!.toJSONL().replace(/mcp-actors-probe-\d+/g, 'probe'));
        if (watched) expect(seen.length, era).to.equal(client.journal!.size);
        await client.close();
        await mcp.close();
      }
      expect(texts[0], era).to.equal(texts[1]);
      expect(texts[0], era).to.include('"op":"request"').and.include('"options":{"timeout":5000}');
    }
  });
});
