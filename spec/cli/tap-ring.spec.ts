// `record --in-process` (and the stdio proxy) copy what the server reads and writes into a ring
// of shared memory that the recorder's thread reads on its own clock (lib/cli/tap-ring.ts):
// whatever the chunking and wherever a record wraps around the ring's end, the journal must hold
// every frame whole, in order, stamped when it crossed the server's stdio, with the server's own
// events among them.
import { expect } from 'chai';
import { Prng } from '../robustness/fuzz/prng.js';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalOut } from '../../lib/cli/journal-out.js';
import { RecordingWriter, stampText } from '../../lib/cli/recording.js';
import { Redactor } from '../../lib/shared/redactor.js';
import { Tap, type TapJournal } from '../../lib/cli/tap-handover.js';
import { journalRing, TapRing } from '../../lib/cli/tap-ring.js';

const enc = (s: string) => new TextEncoder().encode(s);
const never = () => false;

/** A seeded generator (tests must be repeatable): the fuzzers' PRNG, as a function. */
function random(seed: number): () => number {
  const prng = new Prng(seed);
  return () => prng.next();
}

describe('record --in-process: the ring from the server thread to the journal', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tap-ring-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const journal = (file: string) =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l));
  const writerFor = (file: string, redact: string[] = []) => new RecordingWriter(file, { transport: 'stdio', target: 't' }, new Redactor(redact), { startedAt: Date.now() });

  it('keeps frames whole when chunks and reads cut them anywhere, even inside a character, and stamps each when it was captured', () => {
    const file = join(dir, 'j.jsonl');
    const writer = writerFor(file);
    const ring = TapRing.ofSize(4096);
    const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'é✓日🎉' } } }) + '\n';
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'é✓日🎉 back' }] } }) + '\n';
    const bytes = enc(request);
    const cut = bytes.indexOf(0x9f); // inside 🎉's four bytes
    ring.event({ kind: 'transport', phase: 'open' }, 0, never);
    ring.capture(0, bytes.subarray(0, cut), 3, never);
    journalRing(writer, ring); // a read ends mid-character
    ring.capture(0, bytes.subarray(cut), 5, never);
    ring.capture(1, answer.slice(0, 10), 9, never);
    ring.capture(1, answer.slice(10), 10, never);
    ring.event({ kind: 'end', side: 'client' }, 10, never);
    ring.event({ kind: 'note', detail: { event: 'client closed stdin' } }, 10, never);
    journalRing(writer, ring);
    expect(ring.used).to.equal(0);
    writer.close();
    const entries = journal(file);
    expect(entries.map((e) => e.kind)).to.deep.equal(['transport', 'in', 'out', 'note']);
    expect(entries[1].frame.params.arguments.text).to.equal('é✓日🎉');
    expect(entries[2].frame.result.content[0].text).to.equal('é✓日🎉 back');
    expect(entries[3].detail).to.deep.equal({ event: 'client closed stdin' });
    // A frame is stamped when its last piece arrived (the line was complete then).
    expect(entries.map((e) => e.t)).to.deep.equal([0, 5, 10, 10]);
    expect(entries.map((e) => e.seq)).to.deep.equal([0, 1, 2, 3]);
  });

  it('journals every frame whole and in order while records wrap around the end of a small ring at every offset', () => {
    const file = join(dir, 'wrap.jsonl');
    const writer = writerFor(file);
    const ring = TapRing.ofSize(1024);
    const rnd = random(7);
    const sent: string[] = [];
    for (let i = 0; i < 2000; i++) {
      // Frames of varied length, some multi-byte, as bytes or as text, cut into 1-3 chunks.
      const frame = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'x', params: { s: 'ü日'.repeat(Math.floor(rnd() * 40)) + 'a'.repeat(Math.floor(rnd() * 90)) } }) + '\n';
      sent.push(frame);
      const b = enc(frame);
      const cut = Math.floor(rnd() * b.length);
      const asText = rnd() < 0.5;
      for (const part of cut > 0 && rnd() < 0.5 ? [b.subarray(0, cut), b.subarray(cut)] : [b]) {
        const ok = ring.capture(i % 2 === 0 ? 0 : 1, asText && part === b ? frame : part, i, () => {
          journalRing(writer, ring); // the reader makes room
          return true;
        });
        expect(ok).to.equal(true);
      }
      if (rnd() < 0.3) journalRing(writer, ring);
    }
    journalRing(writer, ring);
    writer.close();
    const entries = journal(file);
    expect(entries.map((e) => JSON.stringify(e.frame) + '\n')).to.deep.equal(sent);
    expect(entries.map((e) => e.kind)).to.deep.equal(sent.map((_f, i) => (i % 2 === 0 ? 'in' : 'out')));
  });

  it('splits a chunk bigger than the ring and journals it whole once the reader makes room; the bytes a caller reuses after capture are not the ones journaled', () => {
    const file = join(dir, 'big.jsonl');
    const writer = writerFor(file);
    const ring = TapRing.ofSize(64 * 1024);
    const text = '日'.repeat(500_000); // 1.5 MB of UTF-8
    let waits = 0;
    const drain = () => {
      waits++;
      journalRing(writer, ring);
      return true;
    };
    expect(ring.capture(1, JSON.stringify({ jsonrpc: '2.0', id: 7, result: { text } }) + '\n', 1, drain)).to.equal(true);
    expect(waits).to.be.greaterThan(20);
    const reused = enc(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }) + '\n');
    ring.capture(0, reused, 2, drain);
    reused.fill(0x20); // the caller's buffer changes after the capture
    journalRing(writer, ring);
    writer.close();
    const entries = journal(file);
    expect(entries[0].frame.result.text).to.equal(text);
    expect(entries[1].frame).to.deep.equal({ jsonrpc: '2.0', id: 8, method: 'ping' });
  });

  it('says so when a full ring gets no room (the capture is refused, nothing half-written is visible)', () => {
    const ring = TapRing.ofSize(1024);
    const frame = enc(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(300) } }) + '\n');
    expect(ring.capture(0, frame, 0, never)).to.equal(true);
    expect(ring.capture(0, frame, 0, never)).to.equal(true);
    const before = ring.used;
    let asked = 0;
    expect(ring.event({ kind: 'note', detail: { big: 'y'.repeat(400) } }, 0, () => (asked++, false))).to.equal(false);
    expect(asked).to.equal(1);
    expect(ring.used).to.equal(before);
  });

  it('prints time stamps exactly as JSON does (the fast way is checked against String on 200,000 values)', () => {
    const rnd = random(99);
    for (let i = 0; i < 200_000; i++) {
      const scale = 10 ** Math.floor(rnd() * 10); // from a few microseconds to days
      const t = Math.round(rnd() * scale * 1000) / 1000;
      if (stampText(t) !== String(t)) expect.fail(`stampText(${t}) is ${stampText(t)}`);
    }
    for (const t of [0, 0.001, 0.01, 0.1, 0.5, 1, 10.05, 999.999, 1e12 + 0.5, -1.25, 2 ** 53]) expect(stampText(t), String(t)).to.equal(String(t));
  });

  it("writes an entry's sequence number and time stamp digit by digit exactly as JSON.stringify does (200,000 values)", () => {
    const rnd = random(7);
    const out = new JournalOut();
    const check = (seq: number, t: number) => {
      out.prefix(seq, t, ',"kind":"in","frame":');
      const written = out.take().toString('latin1');
      const expected = `{"seq":${seq},"t":${JSON.stringify(Math.round(t * 1000) / 1000)},"kind":"in","frame":`;
      if (written !== expected) expect.fail(`prefix(${seq}, ${t}) wrote ${written}, not ${expected}`);
    };
    for (let i = 0; i < 200_000; i++) {
      const scale = 10 ** Math.floor(rnd() * 12);
      check(Math.floor(rnd() * scale), rnd() * scale);
    }
    for (const [seq, t] of [[0, 0], [9, 0.0004], [10, 0.0005], [99, 9.9995], [100, 1e3], [12345, 0.05], [7, 1e14 + 0.25], [1, 2 ** 53], [3, -1.25], [4, -1.23456]] as const) check(seq, t);
  });

  it('hides secrets in frames as the proxy does, and journals a line that is not JSON as text', () => {
    const file = join(dir, 's.jsonl');
    const writer = writerFor(file, ['city']);
    const ring = TapRing.ofSize(4096);
    ring.capture(0, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { password: 'hunter2', city: 'Paris', ok: 1 } } }) + '\n', 0, never);
    ring.capture(1, 'Server started on stdio\n', 1, never);
    ring.capture(1, Buffer.concat([enc('{"jsonrpc":"2.0","id":2,"result":{"bad":"'), Uint8Array.of(0xff), enc('"}}\n')]), 2, never); // not UTF-8
    journalRing(writer, ring);
    writer.close();
    const raw = readFileSync(file, 'utf8');
    expect(raw).to.not.include('hunter2');
    expect(raw).to.not.include('Paris');
    const entries = journal(file);
    expect(entries[0].frame.params.arguments).to.deep.equal({ password: '[REDACTED]', city: '[REDACTED]', ok: 1 });
    expect(entries[1]).to.deep.include({ kind: 'note', note: 'ignored', detail: { from: 'server', text: 'Server started on stdio' } });
    expect(entries[2].frame.result.bad).to.equal('\ufffd'); // decoded as the proxy decodes it: the journal stays valid UTF-8
  });

  it('journals a frame nested 100,000 deep with a secret in it (the secret hidden, the depth cut) and goes on recording', () => {
    const file = join(dir, 'deep.jsonl');
    const writer = writerFor(file);
    const ring = TapRing.ofSize(1 << 20);
    const deep = `{"jsonrpc":"2.0","id":1,"result":{"token":"hunter2","a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}\n`;
    ring.capture(1, deep, 1, never);
    ring.capture(0, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '\n', 2, never);
    journalRing(writer, ring); // the redaction used to exhaust the stack here, which ended the recording
    writer.close();
    const raw = readFileSync(file, 'utf8');
    expect(raw).to.not.include('hunter2');
    const entries = journal(file);
    expect(entries.map((e) => e.kind)).to.deep.equal(['out', 'in']);
    expect(entries[0].frame.result.token).to.equal('[REDACTED]');
    expect(raw).to.include('[REDACTED]: nested deeper than 1000 levels');
    expect(entries[1].frame.method).to.equal('ping');
  });
});

describe('record --in-process: the worker thread that reads the ring', function () {
  this.timeout(20000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tap-handover-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const config = (out: string): TapJournal => ({ out, redact: [], target: 'node server.js', startedAt: performance.timeOrigin + performance.now(), inProcess: true });
  const frame = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { n: id } } }) + '\n';
  const read = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

  it('journals on the worker thread, and at exit waits until the worker has written every frame and closed the journal', async () => {
    const out = join(dir, 'w.jsonl');
    const tap = new Tap(config(out), openSync(out, 'wx'));
    tap.event({ kind: 'transport', phase: 'open' });
    expect(await tap.settled).to.equal('worker');
    for (let i = 0; i < 500; i++) tap.capture(i % 2 === 0 ? 0 : 1, frame(i));
    tap.close(); // as the process's 'exit' listener does: synchronously, nothing scheduled runs after it
    const [header, ...entries] = read(out);
    expect(header.recorder).to.include({ transport: 'stdio', inProcess: true });
    expect(entries).to.have.length(501);
    expect(entries.slice(1).map((e) => e.frame.id)).to.deep.equal(Array.from({ length: 500 }, (_v, i) => i));
    expect(entries.slice(1).map((e) => e.kind)).to.deep.equal(Array.from({ length: 500 }, (_v, i) => (i % 2 === 0 ? 'in' : 'out')));
  });

  it('a process that exits before its worker runs journals on its own thread: one header, every frame', () => {
    const out = join(dir, 'early.jsonl');
    const tap = new Tap(config(out), openSync(out, 'wx'));
    tap.event({ kind: 'transport', phase: 'open' });
    tap.capture(0, frame(1));
    tap.close();
    const [header, ...entries] = read(out);
    expect(header.format).to.equal('mcp-actors/journal');
    expect(entries.map((e) => e.kind)).to.deep.equal(['transport', 'in']);
  });

  it('a worker that cannot start: the frames are journaled on the server thread instead', async () => {
    const out = join(dir, 'nowork.jsonl');
    const tap = new Tap(config(out), openSync(out, 'wx'), new URL('./no-such-worker.js', import.meta.url));
    tap.event({ kind: 'transport', phase: 'open' });
    tap.capture(0, frame(1));
    expect(await tap.settled).to.equal('here');
    tap.capture(1, frame(2));
    tap.close();
    const entries = read(out).slice(1);
    expect(entries.map((e) => e.frame?.id)).to.deep.equal([undefined, 1, 2]);
  });

  it('the worker touches every page of the ring as it starts, so the server thread takes no page fault capturing, and changes no byte captured meanwhile', async () => {
    const out = join(dir, 'faults.jsonl');
    const tap = new Tap(config(out), openSync(out, 'wx'));
    // Captured while the worker starts and touches the pages: journaled intact.
    for (let i = 0; i < 2000; i++) tap.capture(i % 2 === 0 ? 0 : 1, frame(i));
    expect(await tap.settled).to.equal('worker');
    // 6 MB more of one reused chunk (no allocation on this thread): on fresh shared memory that is
    // a fault every 4 KB (1,500), each ~20 µs on a virtual machine.
    const chunk = Buffer.from(frame(-1).repeat(16));
    const before = serverThreadFaults();
    const rounds = Math.floor((6 << 20) / chunk.byteLength);
    for (let i = 0; i < rounds; i++) tap.capture(1, chunk);
    const faults = serverThreadFaults() - before;
    tap.close();
    expect(faults, 'page faults while capturing 6 MB').to.be.below(600); // a few dozen here, ~1,500 untouched
    const entries = read(out).slice(1);
    expect(entries.slice(0, 2000).map((e) => e.frame.id)).to.deep.equal(Array.from({ length: 2000 }, (_v, i) => i));
    expect(entries.length).to.equal(2000 + rounds * 16);
  });

  it('a burst bigger than the ring makes the server thread wait for the worker instead of losing frames', async () => {
    const out = join(dir, 'burst.jsonl');
    const tap = new Tap(config(out), openSync(out, 'wx'), undefined, TapRing.ofSize(64 * 1024));
    expect(await tap.settled).to.equal('worker');
    // 3 MB without a turn of the event loop: the worker is woken and read while this thread waits.
    for (let i = 0; i < 20000; i++) tap.capture(i % 2 === 0 ? 0 : 1, frame(i));
    tap.close();
    const entries = read(out).slice(1);
    expect(entries.map((e) => e.frame.id)).to.deep.equal(Array.from({ length: 20000 }, (_v, i) => i));
  });
});

/**
 * Minor page faults of this thread alone (Linux: its own stat in /proc), which is the server
 * thread here: the process-wide count also takes the worker's own faults while it journals, which
 * vary with the machine's load (600+ seen on a busy CI run). Elsewhere, the process's count.
 */
function serverThreadFaults(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // The fields after the command's closing parenthesis start at the state (3rd); minflt is the 10th.
    const minflt = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
    if (Number.isFinite(minflt)) return minflt;
  } catch {
    // not Linux
  }
  return process.resourceUsage().minorPageFault;
}
