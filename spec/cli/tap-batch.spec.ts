// `record --in-process` hands what the server reads and writes to a worker thread in batches
// (lib/cli/tap-batch.ts): whatever the chunking, the journal must hold every frame whole, in
// order, stamped when it crossed the server's stdio, with the server's own events among them.
import { expect } from 'chai';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sinon from 'sinon';
import { RecordingWriter } from '../../lib/cli/recording.js';
import { Redactor } from '../../lib/cli/redact.js';
import { applyBatch, FULL_BATCH, TapBatch } from '../../lib/cli/tap-batch.js';
import { Tap, type TapJournal } from '../../lib/cli/tap-handover.js';

const enc = (s: string) => new TextEncoder().encode(s);

describe('record --in-process: batches from the server thread to the journal', () => {
  let dir: string;
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tap-batch-'));
    clock = sinon.useFakeTimers({ toFake: ['performance'] });
  });
  afterEach(() => {
    clock.restore();
    rmSync(dir, { recursive: true, force: true });
  });

  const journal = (file: string) =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l));

  it('keeps frames whole when chunks and batches cut them anywhere, even inside a character, and stamps each when it was captured', () => {
    const file = join(dir, 'j.jsonl');
    const writer = new RecordingWriter(file, { transport: 'stdio', target: 't' }, new Redactor(), { startedAt: performance.timeOrigin + performance.now() });
    const batch = new TapBatch(performance.now());
    const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'é✓日🎉' } } }) + '\n';
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'é✓日🎉 back' }] } }) + '\n';
    const bytes = enc(request);
    const cut = bytes.indexOf(0x9f); // inside 🎉's four bytes
    batch.event({ kind: 'transport', phase: 'open' });
    clock.tick(3);
    batch.capture(0, bytes.subarray(0, cut));
    applyBatch(writer, batch.take()!); // a batch ends mid-character
    clock.tick(2);
    batch.capture(0, bytes.subarray(cut));
    clock.tick(5);
    batch.capture(1, answer.slice(0, 10));
    batch.capture(1, answer.slice(10));
    batch.event({ kind: 'end', side: 'client' });
    batch.event({ kind: 'note', detail: { event: 'client closed stdin' } });
    applyBatch(writer, batch.take()!);
    expect(batch.take()).to.equal(undefined);
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

  it('grows for a burst larger than its buffer and says when it is full; the bytes a caller reuses after capture are not the ones journaled', () => {
    const file = join(dir, 'big.jsonl');
    const writer = new RecordingWriter(file, { transport: 'stdio', target: 't' }, new Redactor(), { startedAt: performance.timeOrigin + performance.now() });
    const batch = new TapBatch(performance.now());
    const text = '日'.repeat(FULL_BATCH / 2); // 1.5 MB of UTF-8
    batch.capture(1, JSON.stringify({ jsonrpc: '2.0', id: 7, result: { text } }) + '\n');
    expect(batch.used).to.be.greaterThan(FULL_BATCH);
    const reused = enc(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }) + '\n');
    batch.capture(0, reused);
    reused.fill(0x20); // the caller's buffer changes after the capture
    applyBatch(writer, batch.take()!);
    expect(batch.used).to.equal(0);
    writer.close();
    const entries = journal(file);
    expect(entries[0].frame.result.text).to.equal(text);
    expect(entries[1].frame).to.deep.equal({ jsonrpc: '2.0', id: 8, method: 'ping' });
  });

  it('hides secrets in batched frames as the proxy does, and journals a line that is not JSON as text', () => {
    const file = join(dir, 's.jsonl');
    const writer = new RecordingWriter(file, { transport: 'stdio', target: 't' }, new Redactor(['city']), { startedAt: performance.timeOrigin + performance.now() });
    const batch = new TapBatch(performance.now());
    batch.capture(0, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { password: 'hunter2', city: 'Paris', ok: 1 } } }) + '\n');
    batch.capture(1, 'Server started on stdio\n');
    applyBatch(writer, batch.take()!);
    writer.close();
    const raw = readFileSync(file, 'utf8');
    expect(raw).to.not.include('hunter2');
    expect(raw).to.not.include('Paris');
    const entries = journal(file);
    expect(entries[0].frame.params.arguments).to.deep.equal({ password: '[REDACTED]', city: '[REDACTED]', ok: 1 });
    expect(entries[1]).to.deep.include({ kind: 'note', note: 'ignored', detail: { from: 'server', text: 'Server started on stdio' } });
  });
});

describe('record --in-process: the hand-over to the worker thread', function () {
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
});
